package golang

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cgoExts are the file name extensions whose #include lines a cgo
// package's build follows (cmd/go compiles the C, C++, Objective-C,
// Fortran and assembly files of the folder).
var cgoExts = setOf(".c .cc .cpp .cxx .h .hh .hpp .hxx .m .f .F .for .f90 .s .S .sx")

// cgo emits the files outside the folder that a cgo package's build
// reads: the headers its preambles and C files #include (quoted ones
// from the including file's folder, any from the preambles' -I${SRCDIR}
// folders), and the in-tree files its #cgo flags name through ${SRCDIR}.
// A header found on another search path is a known blind spot.
func (e *emitter) cgo(p *pkg, pn string) {
	var incDirs []string
	var queue []string // C-family files whose includes are read
	for _, gf := range p.f.gofiles {
		if !gf.cgo {
			continue
		}
		pre := preamble(e.b.in.ReadFile, filepath.Join(p.dir, gf.name))
		for _, line := range strings.Split(pre, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "#cgo ") {
				continue
			}
			_, flags, _ := strings.Cut(line, ":")
			for _, tok := range strings.Fields(flags) {
				if !strings.Contains(tok, "${SRCDIR}") {
					continue
				}
				arg := strings.ReplaceAll(tok, "${SRCDIR}", p.dir)
				if dir, ok := strings.CutPrefix(arg, "-I"); ok {
					incDirs = append(incDirs, filepath.Clean(dir))
					continue
				}
				e.cgoFile(p, pn, strings.TrimPrefix(strings.TrimPrefix(arg, "-L"), "-l"))
			}
		}
		queue = append(queue, includesOf([]byte(pre), p.dir)...)
	}
	for _, o := range p.f.others {
		if cgoExts[filepath.Ext(o)] {
			queue = append(queue, "\x00"+filepath.Join(p.dir, o)) // a file to read, not a name
		}
	}
	e.followIncludes(p, pn, queue, incDirs)
}

// followIncludes resolves the queued includes (each "from\x00name", or
// "\x00file" for a file to read) and reads the headers found, once each.
func (e *emitter) followIncludes(p *pkg, pn string, queue, incDirs []string) {
	seen := map[string]bool{}
	for len(queue) > 0 {
		item := queue[0]
		queue = queue[1:]
		from, name, _ := strings.Cut(item, "\x00")
		file := name
		if from != "" || !filepath.IsAbs(name) {
			file = resolveInclude(from, name, incDirs)
		}
		if file == "" || seen[file] {
			continue
		}
		seen[file] = true
		if filepath.Dir(file) != p.dir {
			e.edge(pn, e.rel(file), "cgo include")
		}
		if src, err := e.b.in.ReadFile(file); err == nil {
			queue = append(queue, includesOf(src, filepath.Dir(file))...)
		}
	}
}

// cgoFile emits an edge to a file a #cgo flag names, if it is one.
func (e *emitter) cgoFile(p *pkg, pn, name string) {
	fi, err := os.Stat(name)
	switch {
	case err != nil:
	case fi.IsDir():
		entries, _ := os.ReadDir(name)
		for _, en := range entries {
			if !en.IsDir() && filepath.Clean(name) != p.dir {
				e.edge(pn, e.rel(filepath.Join(name, en.Name())), "cgo")
			}
		}
	case filepath.Dir(name) != p.dir:
		e.edge(pn, e.rel(name), "cgo")
	}
}

// resolveInclude finds an included file: a quoted one ("from" is then
// the including file's folder) next to its includer first, then in the
// -I folders. "" when not in the tree as far as we can tell.
func resolveInclude(from, name string, incDirs []string) string {
	quoted := strings.HasPrefix(name, `"`)
	name = strings.Trim(name, `"<>`)
	if filepath.IsAbs(name) {
		return ""
	}
	var dirs []string
	if quoted && from != "" {
		dirs = append(dirs, from)
	}
	for _, d := range append(dirs, incDirs...) {
		f := filepath.Join(d, filepath.FromSlash(name))
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			return f
		}
	}
	return ""
}

// includesOf returns the #include lines of C source as queue items
// "dir\x00"name"" (the name keeps its quotes or angle brackets).
func includesOf(src []byte, dir string) []string {
	var out []string
	for _, line := range bytes.Split(src, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '#' {
			continue
		}
		rest := bytes.TrimSpace(line[1:])
		if !bytes.HasPrefix(rest, []byte("include")) {
			continue
		}
		rest = bytes.TrimSpace(rest[len("include"):])
		if len(rest) < 2 {
			continue
		}
		closer := byte('"')
		if rest[0] == '<' {
			closer = '>'
		} else if rest[0] != '"' {
			continue
		}
		if end := bytes.IndexByte(rest[1:], closer); end >= 0 {
			out = append(out, dir+"\x00"+string(rest[:end+2]))
		}
	}
	return out
}

// preamble returns the comment above a file's import "C".
func preamble(read func(string) ([]byte, error), abs string) string {
	src, err := read(abs)
	if err != nil {
		return ""
	}
	af, _ := parser.ParseFile(token.NewFileSet(), abs, src, parser.ImportsOnly|parser.ParseComments|parser.SkipObjectResolution)
	if af == nil {
		return ""
	}
	var b strings.Builder
	for _, d := range af.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			if p, _ := strconv.Unquote(is.Path.Value); p != "C" {
				continue
			}
			doc := is.Doc
			if doc == nil && !gd.Lparen.IsValid() {
				doc = gd.Doc
			}
			if doc != nil {
				b.WriteString(doc.Text())
			}
		}
	}
	return b.String()
}
