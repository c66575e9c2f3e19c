package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// folder is what one package folder holds, as far as the impact graph
// cares: its Go files' imports and embeds, its other files, its testdata.
type folder struct {
	gofiles  []goFile
	others   []string // other files (C, assembly, data) and Go files go never builds
	testdata bool     // a testdata folder
	err      error    // the folder could not be read
}

// goFile is one Go file's header.
type goFile struct {
	name     string
	test     bool // a _test.go file
	external bool // its package is the _test one
	parsed   bool // a test file of a package whose tests are not ours is only named
	excluded bool // no platform builds it with the configured tags
	imports  []string
	embeds   []string // //go:embed patterns
	cgo      bool     // imports "C"
	err      error    // the header does not parse (imports may be partial)
	errLine  int
}

// scanFolder reads a package folder. Every Go file some platform builds
// (bf) is parsed up to its imports; test files only when withTests.
func scanFolder(in *lang.GraphInput, dir string, withTests bool, bf buildFilter) *folder {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &folder{err: err}
	}
	f := &folder{}
	fset := token.NewFileSet()
	filter := bf.key()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			f.testdata = f.testdata || name == "testdata"
			continue
		}
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
			f.others = append(f.others, name)
			continue
		}
		g := goFile{name: name, test: strings.HasSuffix(name, "_test.go")}
		if !g.test || withTests {
			g = parseMemo(in, e, filepath.Join(dir, name), filter, g, func() goFile {
				g.parsed = true
				g.parse(fset, in.ReadFile, filepath.Join(dir, name), bf)
				return g
			})
		}
		f.gofiles = append(f.gofiles, g)
	}
	return f
}

// parse reads the file's package clause, imports and //go:embed lines.
// Only the file's head is read when it holds the whole import block (a
// tenth of GOROOT's bytes); the rest only for a file that imports embed.
// read is GraphInput.ReadFile: the whole file, when the head is not
// enough.
func (g *goFile) parse(fset *token.FileSet, read func(string) ([]byte, error), abs string, bf buildFilter) {
	src, full, err := readHead(abs)
	var af *ast.File
	if err == nil {
		af, err = parser.ParseFile(fset, abs, src, parser.ImportsOnly|parser.SkipObjectResolution)
	}
	if !full && (err != nil || !headComplete(fset, af, src)) {
		if src, err = read(abs); err != nil {
			g.err = err
			return
		}
		full = true
		af, err = parser.ParseFile(fset, abs, src, parser.ImportsOnly|parser.SkipObjectResolution)
	}
	if !bf.keep(src) {
		g.excluded = true
		return
	}
	if err != nil {
		g.err = err
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			g.errLine = list[0].Pos.Line
		}
	}
	if af == nil {
		return
	}
	g.external = strings.HasSuffix(af.Name.Name, "_test") && g.test
	hasEmbed := false
	for _, spec := range af.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		switch p {
		case "C":
			g.cgo = true
			continue
		case "embed":
			hasEmbed = true
		}
		g.imports = append(g.imports, p)
	}
	if hasEmbed {
		if !full {
			if src, err = read(abs); err != nil {
				g.err = err
				return
			}
		}
		g.embeds = embedPatterns(src)
	}
}

// headSize is how much of a file is read first: most import blocks end
// well before it.
const headSize = 4096

// readHead reads up to headSize bytes of a file; full reports that they
// are the whole file.
func readHead(abs string) (src []byte, full bool, err error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	buf := make([]byte, headSize)
	n, err := io.ReadFull(f, buf)
	switch err {
	case io.EOF, io.ErrUnexpectedEOF:
		return buf[:n], true, nil
	case nil:
		return buf, false, nil
	}
	return nil, false, err
}

// headComplete reports whether a head parsed without error holds the
// file's whole import block: a declaration keyword other than import
// follows it, entirely within the head.
func headComplete(fset *token.FileSet, af *ast.File, src []byte) bool {
	if af == nil || af.Name == nil {
		return false
	}
	end := af.Name.End()
	if n := len(af.Decls); n > 0 {
		end = af.Decls[n-1].End()
	}
	tf := fset.File(af.Package)
	if tf == nil || !end.IsValid() {
		return false
	}
	i := skipSpaceAndComments(src, tf.Offset(end))
	j := i
	for j < len(src) && ('a' <= src[j] && src[j] <= 'z') {
		j++
	}
	switch string(src[i:j]) {
	case "func", "var", "const", "type":
		return j < len(src)
	}
	return false
}

// skipSpaceAndComments returns the offset of the first byte at or after
// i that is not white space, a semicolon or in a comment; len(src) when
// none (or an unterminated comment).
func skipSpaceAndComments(src []byte, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r' || src[i] == ';':
			i++
		case bytes.HasPrefix(src[i:], []byte("//")):
			k := bytes.IndexByte(src[i:], '\n')
			if k < 0 {
				return len(src)
			}
			i += k + 1
		case bytes.HasPrefix(src[i:], []byte("/*")):
			k := bytes.Index(src[i+2:], []byte("*/"))
			if k < 0 {
				return len(src)
			}
			i += k + 4
		default:
			return i
		}
	}
	return i
}

// embedPatterns returns the patterns of the //go:embed lines of a file.
// A line in a comment block or a raw string counts too: a pattern too
// many is an edge too many, never one missing.
func embedPatterns(src []byte) []string {
	var pats []string
	for len(src) > 0 {
		i := bytes.Index(src, []byte("//go:embed"))
		if i < 0 {
			break
		}
		line := src[i+len("//go:embed"):]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		src = src[i+len("//go:embed"):]
		if len(line) == 0 || (line[0] != ' ' && line[0] != '\t') {
			continue
		}
		pats = append(pats, splitPatterns(string(line))...)
	}
	return pats
}

// splitPatterns splits an embed line's patterns: space-separated, each
// possibly a Go string literal ("a b.txt", `c`).
func splitPatterns(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' || s[0] == '`' {
			end := closingQuote(s)
			if end < 0 {
				return append(out, s) // unterminated: kept as is (it matches nothing: unresolved)
			}
			if p, err := strconv.Unquote(s[:end+1]); err == nil {
				out = append(out, p)
			}
			s = s[end+1:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

// closingQuote returns the index of the quote that closes the string
// literal s starts with, -1 when none.
func closingQuote(s string) int {
	if s[0] == '`' {
		if i := strings.IndexByte(s[1:], '`'); i >= 0 {
			return i + 1
		}
		return -1
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}
