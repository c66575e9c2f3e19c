package js

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// ref is one use of another module that a file's source shows: an import,
// an export ... from, a require or import() call, a mock call.
type ref struct {
	// kind is how the file uses it, the edge's Why: "import", "import
	// type", "re-export", "require", "import()", "jest.mock", ...
	kind string
	// spec is the module specifier; "" when it is not a literal.
	spec string
	// expr is the source of the call when spec is not a literal, or of a
	// call whose argument cannot be one (import.meta.glob).
	expr string
	// mock is true for jest.mock and its kin: the module's __mocks__
	// file is used too.
	mock bool
	// prefix is the literal start of a computed specifier ("./locales/"
	// of `./locales/${lang}.js`, the folder of an import.meta.glob
	// pattern): every file below its folder may be the one.
	prefix string
	// at is the byte offset of the reference: refs are kept in source
	// order, so that of two reasons for one edge the first is kept.
	at uint32
	// path is true for a string that merely looks like a relative path
	// (path.join(__dirname, "../x.json"), new URL("./x", import.meta.url)):
	// an edge when it names a file, nothing otherwise.
	path bool
}

// scanResult is what a file's source says about its dependencies.
type scanResult struct {
	refs []ref
	// syntaxLine is the 1-based line of a syntax error that may hide an
	// import, 0 when there is none.
	syntaxLine int
}

// callKinds are the calls whose first argument names a module, by callee
// text; the value is the edge's Why, and whether the callee mocks it.
var callKinds = map[string]struct {
	why  string
	mock bool
}{
	"require":                   {"require", false},
	"module.require":            {"require", false},
	"require.resolve":           {"require.resolve", false},
	"import.meta.resolve":       {"import.meta.resolve", false},
	"jest.mock":                 {"jest.mock", true},
	"jest.doMock":               {"jest.mock", true},
	"jest.unstable_mockModule":  {"jest.mock", true},
	"jest.setMock":              {"jest.mock", false},
	"jest.requireActual":        {"jest.requireActual", false},
	"jest.requireMock":          {"jest.requireMock", true},
	"jest.createMockFromModule": {"jest.createMockFromModule", false},
	"jest.genMockFromModule":    {"jest.createMockFromModule", false},
	"vi.mock":                   {"vi.mock", true},
	"vi.doMock":                 {"vi.mock", true},
	"vi.importActual":           {"vi.importActual", false},
	"vi.importMock":             {"vi.importMock", true},
	"mock.module":               {"mock.module", false}, // node:test
	"t.mock.module":             {"mock.module", false},
}

// globCalls import a computed set of modules: any file may be one.
var globCalls = map[string]bool{"import.meta.glob": true, "import.meta.globEager": true, "require.context": true}

// scanQueries holds the compiled queries per grammar and variant.
var scanQueries sync.Map // queryKey -> *sitter.Query

// queryKey names a query variant: calls matches call expressions,
// errors ERROR nodes. Import and export statements are read from the
// program's top level, where they must be, without a query.
type queryKey struct {
	lang          *sitter.Language
	calls, errors bool
}

// scanQuery matches single nodes only: a pattern with children keeps a
// state per enclosing match in the query cursor, quadratic in nesting.
func scanQuery(k queryKey) (*sitter.Query, error) {
	if q, ok := scanQueries.Load(k); ok {
		return q.(*sitter.Query), nil
	}
	var src string
	if k.calls {
		src += " (call_expression) @c"
	}
	if k.errors {
		src += " (ERROR) @x"
	}
	q, err := sitter.NewQuery([]byte(src), k.lang)
	if err != nil {
		return nil, err
	}
	if prev, loaded := scanQueries.LoadOrStore(k, q); loaded {
		q.Close()
		return prev.(*sitter.Query), nil
	}
	return q, nil
}

// callWords start the callees scan reads: require(...), require.resolve,
// jest.mock, vi.doMock, jest.requireActual, vi.importActual,
// mock.module, import(...) and import.meta.glob ("import" counts only
// when "(" or "." follows).
var callWords = []string{"require", "mock", "Mock", "Actual", "import"}

// callSites returns the byte ranges of the words in data that may be
// part of a callee scan reads. Each is looked up in the tree with a query
// limited to it: a query over the whole tree visits every node, as much
// as a third of the cost of a scan.
func callSites(data []byte) [][2]int {
	var out [][2]int
	for _, w := range callWords {
		for off := 0; ; {
			i := bytes.Index(data[off:], []byte(w))
			if i < 0 {
				break
			}
			start, end := off+i, off+i+len(w)
			off = end
			if w == "import" {
				rest := bytes.TrimLeft(data[end:min(len(data), end+64)], " \t\r\n")
				if len(rest) == 0 || rest[0] != '(' && rest[0] != '.' {
					continue
				}
			}
			out = append(out, [2]int{start, end})
		}
	}
	return out
}

// points converts byte offsets to tree-sitter points (row, byte column).
type points struct{ lines []int }

func newPoints(data []byte) points {
	p := points{lines: []int{0}}
	for i, c := range data {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	return p
}

func (p points) at(off int) sitter.Point {
	row := sort.SearchInts(p.lines, off+1) - 1
	return sitter.Point{Row: uint32(row), Column: uint32(off - p.lines[row])}
}

// scan reads the module references of one file. name picks the grammar;
// .vue, .svelte and .astro files have their script blocks read.
func scan(name string, data []byte) (scanResult, error) {
	if blocks, ok := scriptBlocks(name, data); ok {
		var res scanResult
		for _, b := range blocks {
			r, err := scanSource(b.lang, b.src)
			if err != nil {
				return res, err
			}
			res.refs = append(res.refs, r.refs...)
			if r.syntaxLine > 0 && res.syntaxLine == 0 {
				res.syntaxLine = r.syntaxLine + b.line - 1
			}
		}
		return res, nil
	}
	return scanSource(grammar(name), data)
}

func scanSource(l *sitter.Language, data []byte) (res scanResult, err error) {
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return res, fmt.Errorf("binary file, not JavaScript or TypeScript source")
	}
	tree, err := tsgrammars.Parse(l, data)
	if err != nil {
		return res, err
	}
	defer tree.Close()
	root := tree.RootNode()
	sc := &scanner{src: data}
	for i := 0; i < int(root.NamedChildCount()); i++ {
		if c := root.NamedChild(i); c.Type() == "import_statement" || c.Type() == "export_statement" {
			sc.node(c, &res)
		}
	}
	if sites := callSites(data); len(sites) > 0 {
		if err := sc.calls(l, root, sites, &res); err != nil {
			return res, err
		}
	}
	sort.SliceStable(res.refs, func(i, j int) bool { return res.refs[i].at < res.refs[j].at })
	if root.HasError() {
		q, err := scanQuery(queryKey{lang: l, errors: true})
		if err != nil {
			return res, err
		}
		for c := range tsgrammars.CaptureNodes(q, root) {
			sc.node(c, &res)
		}
	}
	res.refs = append(res.refs, pathStrings(data, res.refs)...)
	return res, nil
}

type scanner struct{ src []byte }

// calls reads the calls whose callee holds one of the sites: a query
// for call expressions limited to each site's range, which also matches
// the calls around it (describe(...)); only a call whose callee spans the
// site is read, each once.
func (s *scanner) calls(l *sitter.Language, root *sitter.Node, sites [][2]int, res *scanResult) error {
	q, err := scanQuery(queryKey{lang: l, calls: true})
	if err != nil {
		return err
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	pts := newPoints(s.src)
	done := map[uint32]bool{}
	for _, site := range sites {
		qc.SetPointRange(pts.at(site[0]), pts.at(site[1]))
		qc.Exec(q, root)
		for {
			m, ok := qc.NextMatch()
			if !ok {
				break
			}
			for _, c := range m.Captures {
				fn := c.Node.ChildByFieldName("function")
				if fn == nil || int(fn.StartByte()) > site[0] || int(fn.EndByte()) < site[1] || done[c.Node.StartByte()] {
					continue
				}
				done[c.Node.StartByte()] = true
				s.call(c.Node, res)
			}
		}
	}
	return nil
}

func (s *scanner) text(n *sitter.Node) string {
	a, b := n.StartByte(), n.EndByte()
	if int(b) > len(s.src) || a > b {
		return ""
	}
	return string(s.src[a:b])
}

// node reads one matched node.
func (s *scanner) node(n *sitter.Node, res *scanResult) {
	switch n.Type() {
	case "import_statement", "export_statement":
		src := n.ChildByFieldName("source")
		if src == nil {
			if n.Type() == "import_statement" && n.NamedChildCount() > 0 && n.NamedChild(0).Type() == "import_require_clause" {
				s.node(n.NamedChild(0), res)
			}
			return
		}
		kind := "import"
		if n.Type() == "export_statement" {
			kind = "re-export"
		}
		if t := s.text(n); strings.HasPrefix(t, "import type ") || strings.HasPrefix(t, "export type ") {
			kind += " type"
		}
		if spec, ok := s.literal(src); ok {
			res.refs = append(res.refs, ref{kind: kind, spec: spec, at: n.StartByte()})
		}
	case "import_require_clause":
		if src := n.ChildByFieldName("source"); src != nil {
			if spec, ok := s.literal(src); ok {
				res.refs = append(res.refs, ref{kind: "require", spec: spec, at: n.StartByte()})
			}
		}
	case "call_expression":
		s.call(n, res)
	case "ERROR":
		// A local error that holds no import cannot hide an edge (the
		// TypeScript grammar errs on some valid syntax, "export type *").
		t := s.text(n)
		if res.syntaxLine == 0 && (strings.Contains(t, "import") || strings.Contains(t, "require") ||
			strings.Contains(t, "from") || strings.Contains(t, "mock")) {
			res.syntaxLine = int(n.StartPoint().Row) + 1
		}
	}
}

// call reads require(...), import(...), jest.mock(...) and their kin.
func (s *scanner) call(n *sitter.Node, res *scanResult) {
	fn := n.ChildByFieldName("function")
	args := n.ChildByFieldName("arguments")
	if fn == nil || args == nil {
		return
	}
	var kind string
	var mock bool
	switch fn.Type() {
	case "import":
		kind = "import()"
	case "identifier", "member_expression":
		name := s.text(fn)
		if globCalls[name] {
			r := ref{kind: name, expr: short(s.text(n)), at: n.StartByte()}
			if args.NamedChildCount() > 0 {
				if lit, ok := s.literal(args.NamedChild(0)); ok {
					if name == "require.context" {
						lit += "/"
					}
					r.prefix = lit[:strings.IndexAny(lit+"*", "*?{[")]
				}
			}
			res.refs = append(res.refs, r)
			return
		}
		k, ok := callKinds[name]
		if !ok {
			return
		}
		kind, mock = k.why, k.mock
	default:
		return
	}
	if args.NamedChildCount() == 0 {
		return
	}
	arg := args.NamedChild(0)
	if spec, ok := s.literal(arg); ok {
		res.refs = append(res.refs, ref{kind: kind, spec: spec, mock: mock, at: n.StartByte()})
		return
	}
	res.refs = append(res.refs, ref{kind: kind, expr: short(s.text(n)), mock: mock, prefix: s.prefix(arg), at: n.StartByte()})
}

// prefix reads the literal start of a computed specifier: a template
// literal's text before its first substitution, or the left string of a
// concatenation.
func (s *scanner) prefix(n *sitter.Node) string {
	switch n.Type() {
	case "template_string":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "template_substitution" {
				return unescape(string(s.src[n.StartByte():c.StartByte()])+"`", 1)
			}
		}
	case "binary_expression":
		if l := n.ChildByFieldName("left"); l != nil {
			if lit, ok := s.literal(l); ok {
				return lit
			}
			return s.prefix(l)
		}
	}
	return ""
}

// literal reads a string or a template literal without substitutions.
func (s *scanner) literal(n *sitter.Node) (string, bool) {
	switch n.Type() {
	case "string":
		return unescape(s.text(n), 1), true
	case "template_string":
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if n.NamedChild(i).Type() == "template_substitution" {
				return "", false
			}
		}
		return unescape(s.text(n), 1), true
	}
	return "", false
}

// short keeps an expression's source short enough for a reason line.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// pathStrings finds quoted strings starting with ./ or ../ that are not
// specifiers already read: a path the file reads or hands to a tool
// (fs.readFileSync(path.join(__dirname, "../fixtures/a.json")), a bundler
// entry). A byte scan, not the tree: strings in comments count too, which
// only adds edges to files that exist.
func pathStrings(data []byte, known []ref) []ref {
	seen := map[string]bool{}
	for _, r := range known {
		seen[r.spec] = true
	}
	var out []ref
	for i := 0; i+2 < len(data); i++ {
		q := data[i]
		if q != '"' && q != '\'' && q != '`' || data[i+1] != '.' {
			continue
		}
		if !bytes.HasPrefix(data[i+1:], []byte("./")) && !bytes.HasPrefix(data[i+1:], []byte("../")) {
			continue
		}
		end := bytes.IndexByte(data[i+1:min(len(data), i+1+512)], q)
		if end < 0 {
			continue
		}
		spec := string(data[i+1 : i+1+end])
		i += end + 1
		if strings.ContainsAny(spec, "\n\\$*{") || seen[spec] {
			continue
		}
		seen[spec] = true
		out = append(out, ref{kind: "path string", spec: spec, path: true})
	}
	return out
}

// block is one script block of a single-file component.
type block struct {
	lang *sitter.Language
	src  []byte
	line int // 1-based line of the block's first byte in the file
}

// scriptBlocks returns the <script> blocks of a .vue or .svelte file
// and the frontmatter of an .astro file; ok is false for other files.
func scriptBlocks(name string, data []byte) (out []block, ok bool) {
	switch {
	case strings.HasSuffix(name, ".astro"):
		rest, found := bytes.CutPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("---"))
		if found {
			if end := bytes.Index(rest, []byte("\n---")); end >= 0 {
				out = append(out, block{lang: tsgrammars.TypeScript, src: rest[:end], line: 1})
			}
		}
		return out, true
	case !strings.HasSuffix(name, ".vue") && !strings.HasSuffix(name, ".svelte"):
		return nil, false
	}
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("<script"))
		if i < 0 {
			return out, true
		}
		start := off + i
		gt := bytes.IndexByte(data[start:], '>')
		if gt < 0 {
			return out, true
		}
		body := start + gt + 1
		end := bytes.Index(data[body:], []byte("</script>"))
		if end < 0 {
			end = len(data) - body
		}
		l := tsgrammars.JavaScript
		attrs := string(data[start:body])
		if strings.Contains(attrs, `"ts"`) || strings.Contains(attrs, `'ts'`) || strings.Contains(attrs, "typescript") {
			l = tsgrammars.TypeScript
		}
		out = append(out, block{lang: l, src: data[body : body+end], line: tsgrammars.Line(data, body)})
		off = body + end
	}
}
