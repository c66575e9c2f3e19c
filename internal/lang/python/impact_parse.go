package python

import (
	"bytes"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// modImports is what one module tells the impact graph, read from its
// source alone (so it is memoised by content): what it imports, anywhere
// in the file (inside functions and `if TYPE_CHECKING:` blocks too, for
// safety), what it imports by a name computed at run time, and the names
// its module level binds (for `from pkg import name`, where name may be a
// submodule or a name of pkg/__init__.py).
type modImports struct {
	imports []importUse
	// dynamic are the places that import or run code by a computed name
	// (importlib.import_module(x), __import__(x), exec, runpy, ...): any
	// module of the project may be what they load.
	dynamic []string
	// names are the names the module level binds; open is true when any
	// name may be bound (a star import, a module __getattr__, globals()).
	names map[string]bool
	open  bool
	// named is true when names, open and all were read (a tree-sitter
	// parse); the lexical scan reads imports only.
	named bool
	// all is a literal __all__; allOpen is true when __all__ is not one.
	all     []string
	allOpen bool
	// bad is a parse failure: the line and what went wrong; "" when the
	// file parsed.
	bad     string
	badLine int
}

// importUse is one imported name as the file spells it.
type importUse struct {
	line int
	// module is the dotted name, with leading dots when relative.
	module string
	// names are what `from module import ...` takes ("*" for a star); nil
	// for `import module`.
	names []string
	// why is the edge's reason: "import a.b", "from . import x",
	// "pytest_plugins".
	why string
}

var (
	// memo keeps each content's facts: `testdex affected` in a long-lived
	// process (MCP, watch) re-reads a tree whose files mostly did not
	// change. Facts depend on the bytes alone.
	memoMu sync.Mutex
	memo   = map[uint64]*modImports{}
)

// memoCap bounds the memo; past it the memo starts over.
const memoCap = 200_000

// readImports returns data's facts, reading it unless the same bytes were
// read before. When the names the module binds are not asked for (full
// is false) and it holds none of the words a dynamic import or
// pytest_plugins needs, it is read by scanImports; the others, and those
// it gives up on, are parsed with tree-sitter.
func readImports(data []byte, full bool) *modImports {
	sum := xxh3.Hash(data)
	if full {
		sum = ^sum
	}
	memoMu.Lock()
	f, ok := memo[sum]
	memoMu.Unlock()
	if ok {
		return f
	}
	f = nil
	if !full && !hasTrigger(data) {
		f, _ = scanImports(data)
	}
	if f == nil {
		f = parseImports(data)
	}
	memoMu.Lock()
	if len(memo) >= memoCap {
		memo = map[uint64]*modImports{}
	}
	memo[sum] = f
	memoMu.Unlock()
	return f
}

// hasTrigger reports whether data holds pytest_plugins, which only the
// tree reads (scanImports gives up on the dynamic callees it cannot read
// itself).
func hasTrigger(data []byte) bool {
	found := false
	(&importReader{src: data}).words("pytest_plugins", func(int) { found = true })
	return found
}

// triggers are the words hasTrigger looks for: pytest_plugins, then the
// dynamic callees, sorted.
var triggers = func() []string {
	var out []string
	for name := range dynamicCallee {
		out = append(out, name)
	}
	sort.Strings(out)
	return append([]string{"pytest_plugins"}, out...)
}()

// parseImports parses one module. A file tree-sitter cannot parse whole
// keeps the imports it could read and says where it failed.
func parseImports(data []byte) *modImports {
	f := &modImports{names: map[string]bool{}, named: true}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		f.bad, f.badLine = "binary file (NUL byte)", tsgrammars.Line(data, i)
		return f
	}
	tree, err := tsgrammars.Parse(tsgrammars.Python, data)
	if err != nil || tree == nil {
		f.bad = "tree-sitter gave up"
		return f
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		line, what := firstError(root, 0)
		f.bad, f.badLine = "syntax error ("+what+")", line
	}
	r := &importReader{src: data, f: f}
	r.imports(root)
	r.moduleLevel(root, 0)
	r.dynamicCalls(root)
	return f
}

// importReader reads one parsed module.
type importReader struct {
	src   []byte
	f     *modImports
	lines []int // offsets where lines start, made when first needed
}

func (r *importReader) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return n.Content(r.src)
}

// imports records every import statement of the file, at any depth. It
// looks for the word import in the bytes and asks the tree what holds it,
// which costs less than a query over the whole tree (the parse is most of
// the cost either way; the word is rare).
func (r *importReader) imports(root *sitter.Node) {
	seen := map[uint32]bool{}
	r.words("import", func(at int) {
		start, end := r.point(at), r.point(at+len("import"))
		n := root.NamedDescendantForPointRange(start, end)
		if n == nil || seen[n.StartByte()] {
			return
		}
		if t := n.Type(); t == "import_statement" || t == "import_from_statement" {
			seen[n.StartByte()] = true
			r.statement(n)
		}
	})
}

// words calls yield with the offset of each occurrence of word in the
// source that is a whole identifier-like word.
func (r *importReader) words(word string, yield func(at int)) {
	for off := 0; ; {
		i := bytes.Index(r.src[off:], []byte(word))
		if i < 0 {
			return
		}
		at := off + i
		off = at + len(word)
		if at > 0 && isIdentByte(r.src[at-1]) || off < len(r.src) && isIdentByte(r.src[off]) {
			continue
		}
		yield(at)
	}
}

// statement records one import or from-import statement.
func (r *importReader) statement(n *sitter.Node) {
	mn := n.ChildByFieldName("module_name")
	var names []string
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if mn != nil && c.StartByte() == mn.StartByte() {
			continue
		}
		switch c.Type() {
		case "wildcard_import":
			names = append(names, "*")
		case "aliased_import":
			names = append(names, r.text(c.ChildByFieldName("name")))
		case "dotted_name":
			names = append(names, r.text(c))
		}
	}
	line := int(n.StartPoint().Row) + 1
	if mn == nil { // import a.b, c
		for _, name := range names {
			name = squeeze(name)
			r.f.imports = append(r.f.imports, importUse{line: line, module: name, why: "import " + name})
		}
		return
	}
	module := squeeze(r.text(mn))
	for i := range names {
		names[i] = squeeze(names[i])
	}
	r.f.imports = append(r.f.imports, importUse{line: line, module: module, names: names, why: fromWhy(module, names)})
}

// fromWhy is the reason of a from-import: "from a import b, c", the
// names cut after three.
func fromWhy(module string, names []string) string {
	list := names
	if len(list) > 3 {
		list = append(list[:3:3], "…")
	}
	return "from " + module + " import " + strings.Join(list, ", ")
}

// squeeze drops the white space Python allows inside dotted names
// ("from . mod import x", "a . b").
func squeeze(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// moduleLevel reads the module level, descending into if, try, with, for
// and while blocks but not into functions or classes: the names it binds,
// __all__, and pytest_plugins.
func (r *importReader) moduleLevel(n *sitter.Node, depth int) {
	if depth > 20 {
		return
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "if_statement", "try_statement", "with_statement", "for_statement", "while_statement",
			"elif_clause", "else_clause", "except_clause", "finally_clause", "block", "except_group_clause":
			if c.Type() == "for_statement" {
				r.bind(c.ChildByFieldName("left"))
			}
			r.moduleLevel(c, depth+1)
		case "decorated_definition":
			if d := c.ChildByFieldName("definition"); d != nil {
				r.definition(d)
			}
		case "function_definition", "class_definition":
			r.definition(c)
		case "import_statement", "import_from_statement", "future_import_statement":
			r.importNames(c)
		case "expression_statement":
			for j := 0; j < int(c.NamedChildCount()); j++ {
				r.assignment(c.NamedChild(j))
			}
		}
	}
}

func (r *importReader) definition(d *sitter.Node) {
	name := r.text(d.ChildByFieldName("name"))
	r.f.names[name] = true
	if name == "__getattr__" && d.Type() == "function_definition" {
		r.f.open = true // a module __getattr__ answers any name
	}
}

// importNames binds the local names an import statement makes.
func (r *importReader) importNames(n *sitter.Node) {
	mn := n.ChildByFieldName("module_name")
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if mn != nil && c.StartByte() == mn.StartByte() {
			continue
		}
		switch c.Type() {
		case "wildcard_import":
			r.f.open = true
		case "aliased_import":
			r.f.names[r.text(c.ChildByFieldName("alias"))] = true
		case "dotted_name":
			name := squeeze(r.text(c))
			if mn == nil {
				name, _, _ = strings.Cut(name, ".")
			}
			r.f.names[name] = true
		}
	}
}

// assignment binds the targets of a module-level assignment (a = b = 1,
// a, (b, c) = ..., x: int = 1, a += 1) and reads __all__ and
// pytest_plugins.
func (r *importReader) assignment(a *sitter.Node) {
	for a != nil && (a.Type() == "assignment" || a.Type() == "augmented_assignment") {
		left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
		r.bind(left)
		if left != nil && left.Type() == "identifier" && right != nil && right.Type() != "assignment" {
			switch r.text(left) {
			case "__all__":
				r.dunderAll(right, a.Type() == "augmented_assignment")
			case "pytest_plugins":
				r.plugins(right, int(a.StartPoint().Row)+1)
			}
		}
		a = right
	}
}

// bind marks the identifiers of an assignment target as bound.
func (r *importReader) bind(t *sitter.Node) {
	if t == nil {
		return
	}
	switch t.Type() {
	case "identifier":
		r.f.names[r.text(t)] = true
	case "pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list", "list_splat_pattern", "parenthesized_expression":
		for i := 0; i < int(t.NamedChildCount()); i++ {
			r.bind(t.NamedChild(i))
		}
	}
}

// dunderAll reads a literal __all__ (a list or tuple of strings).
func (r *importReader) dunderAll(v *sitter.Node, augmented bool) {
	names, ok := r.stringList(v)
	if !ok {
		r.f.allOpen = true
		return
	}
	if !augmented {
		r.f.all = nil
	}
	r.f.all = append(r.f.all, names...)
}

// plugins reads pytest_plugins: a string or a list or tuple of strings,
// each a module pytest imports as a plugin; anything else is dynamic.
func (r *importReader) plugins(v *sitter.Node, line int) {
	names, ok := r.stringList(v)
	if !ok {
		r.f.dynamic = append(r.f.dynamic, "pytest_plugins = "+short(r.text(v)))
		return
	}
	for _, n := range names {
		r.f.imports = append(r.f.imports, importUse{line: line, module: n, why: "pytest_plugins"})
	}
}

// stringList reads a string literal or a list or tuple of them.
func (r *importReader) stringList(v *sitter.Node) ([]string, bool) {
	if s, ok := r.literal(v); ok {
		return []string{s}, true
	}
	if v.Type() != "list" && v.Type() != "tuple" {
		return nil, false
	}
	var out []string
	for i := 0; i < int(v.NamedChildCount()); i++ {
		c := v.NamedChild(i)
		if c.Type() == "comment" {
			continue
		}
		s, ok := r.literal(c)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// literal reads a plain string literal.
func (r *importReader) literal(n *sitter.Node) (string, bool) {
	if n == nil || n.Type() != "string" {
		return "", false
	}
	s, isBytes, ok := decodeString(r.text(n))
	return s, ok && !isBytes
}

// short cuts source text for a reason: one line, at most 60 bytes.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// dynamicCallee are the functions that import or run code by a name
// given at run time, by the name they are called with (a bare name or the
// last part of an attribute: importlib.import_module).
var dynamicCallee = map[string]bool{
	"import_module": true, "__import__": true, "importorskip": true, "exec": true,
	"run_module": true, "run_path": true, "spec_from_file_location": true, "load_source": true,
	"load_module": true, "SourceFileLoader": true, "walk_packages": true,
}

// dynamicCalls finds the calls of dynamicCallee. Their names are found in
// the bytes first (a walk of every node from Go costs more than the
// parse: about 1.4 µs a node through cgo), then checked in the tree: an identifier that is a
// call's function or the attribute of one.
func (r *importReader) dynamicCalls(root *sitter.Node) {
	type site struct {
		at   int
		name string
	}
	var sites []site
	for _, name := range triggers[1:] {
		r.words(name, func(at int) { sites = append(sites, site{at, name}) })
	}
	sort.Slice(sites, func(i, j int) bool { return sites[i].at < sites[j].at })
	seen := map[uint32]bool{}
	for _, s := range sites {
		p := r.point(s.at)
		id := root.NamedDescendantForPointRange(p, p)
		if id == nil || id.Type() != "identifier" || r.text(id) != s.name {
			continue
		}
		call := callOf(id, r.src)
		if call == nil || seen[call.StartByte()] {
			continue
		}
		seen[call.StartByte()] = true
		r.dynamicCall(s.name, call)
	}
}

// callOf returns the call whose function id names, nil when id is not a
// callee. exec is the builtin only bare or as builtins.exec (a method
// named exec is something else).
func callOf(id *sitter.Node, src []byte) *sitter.Node {
	fn := id
	if p := id.Parent(); p != nil && p.Type() == "attribute" {
		if a := p.ChildByFieldName("attribute"); a == nil || a.StartByte() != id.StartByte() {
			return nil
		}
		if id.Content(src) == "exec" && p.ChildByFieldName("object").Content(src) != "builtins" {
			return nil
		}
		fn = p
	}
	call := fn.Parent()
	if call == nil || call.Type() != "call" {
		return nil
	}
	if f := call.ChildByFieldName("function"); f == nil || f.StartByte() != fn.StartByte() || f.EndByte() != fn.EndByte() {
		return nil
	}
	return call
}

// dynamicCall records one call: an import edge when its module is a
// literal (importlib.import_module("a.b"), __import__("a"),
// pytest.importorskip("a")), a dynamic import otherwise.
func (r *importReader) dynamicCall(name string, call *sitter.Node) {
	args := call.ChildByFieldName("arguments")
	var first *sitter.Node
	var pkg *sitter.Node
	if args != nil {
		for i := 0; i < int(args.NamedChildCount()); i++ {
			a := args.NamedChild(i)
			switch {
			case a.Type() == "keyword_argument":
				if r.text(a.ChildByFieldName("name")) == "package" {
					pkg = a.ChildByFieldName("value")
				}
			case a.Type() == "comment":
			case first == nil:
				first = a
			case pkg == nil && name == "import_module":
				pkg = a
			}
		}
	}
	line := int(call.StartPoint().Row) + 1
	why := short(r.text(call))
	switch name {
	case "import_module", "__import__", "importorskip", "run_module":
		if mod, ok := r.literal(first); ok && mod != "" {
			if strings.HasPrefix(mod, ".") && pkg != nil && !r.relativeToSelf(pkg) {
				if base, ok := r.literal(pkg); ok {
					mod = base + mod
				} else {
					break
				}
			}
			r.f.imports = append(r.f.imports, importUse{line: line, module: mod, why: why})
			return
		}
	case "exec":
		// exec of a literal imports what the literal imports.
		if s, ok := r.literal(first); ok {
			code := parseImports([]byte(s))
			if code.bad == "" {
				for _, u := range code.imports {
					u.line, u.why = line, why
					r.f.imports = append(r.f.imports, u)
				}
				r.f.dynamic = append(r.f.dynamic, code.dynamic...)
				return
			}
		}
		if r.execLocal(call, first) {
			return // code its caller builds from its own literals (impact_exec.go)
		}
	}
	r.f.dynamic = append(r.f.dynamic, why)
}

// relativeToSelf reports whether a package argument names the calling
// module's own package (__name__ or __package__), which a relative name
// is resolved from anyway.
func (r *importReader) relativeToSelf(n *sitter.Node) bool {
	t := r.text(n)
	return t == "__name__" || t == "__package__"
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// point is the tree-sitter point (row, byte column) of a byte offset.
func (r *importReader) point(off int) sitter.Point {
	if r.lines == nil {
		r.lines = []int{0}
		for i, c := range r.src {
			if c == '\n' {
				r.lines = append(r.lines, i+1)
			}
		}
	}
	row := sort.SearchInts(r.lines, off+1) - 1
	return sitter.Point{Row: uint32(row), Column: uint32(off - r.lines[row])}
}
