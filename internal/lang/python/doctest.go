package python

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// pytest's doctest plugin (_pytest/doctest.py) collects a DoctestModule
// from every .py file it meets when --doctest-modules is given (but
// setup.py files that mention setuptools or distutils and __main__.py),
// whatever python_files says, and a DoctestTextfile from every file
// matching --doctest-glob (default test*.txt), with or without
// --doctest-modules. A module yields one DoctestItem per docstring with
// examples that doctest.DocTestFinder finds from the imported module,
// named MODULE.QUALNAME; a text file one item named after the file.

// SetDoctest is the Settings key that turns on docstring extraction
// (its value is "modules" when addopts holds --doctest-modules).
const SetDoctest = "doctest"

// doctestOptions are addopts' doctest switches.
type doctestOptions struct {
	modules  bool     // --doctest-modules
	globs    []string // --doctest-glob, repeatable; nil means test*.txt
	disabled bool     // -p no:doctest
	// importlib is --import-mode=importlib: modules outside packages are
	// named from their path relative to the rootdir.
	importlib bool
	// namespace is the consider_namespace_packages ini option.
	namespace bool
}

// parseDoctestOptions reads the doctest switches of addopts.
func parseDoctestOptions(args []string) doctestOptions {
	var o doctestOptions
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "--doctest-modules":
			o.modules = true
		case a == "--doctest-glob":
			o.globs = append(o.globs, next())
		case strings.HasPrefix(a, "--doctest-glob="):
			o.globs = append(o.globs, strings.TrimPrefix(a, "--doctest-glob="))
		case a == "-p":
			if next() == "no:doctest" {
				o.disabled = true
			}
		case a == "-pno:doctest":
			o.disabled = true
		case a == "--import-mode":
			o.importlib = next() == "importlib"
		case strings.HasPrefix(a, "--import-mode="):
			o.importlib = strings.TrimPrefix(a, "--import-mode=") == "importlib"
		}
	}
	if o.disabled {
		o.modules = false
	}
	return o
}

// textGlobs are the --doctest-glob patterns in force.
func (o doctestOptions) textGlobs() []string {
	if o.disabled {
		return nil
	}
	if len(o.globs) == 0 {
		return []string{"test*.txt"}
	}
	return o.globs
}

// docFact is one docstring (or text file) with examples.
type docFact struct {
	// Qual is the name below the module ("" for the module docstring,
	// "Class.method", "__test__.key"); for a text file its base name.
	Qual string `json:"q"`
	Line int    `json:"l"`
	Text bool   `json:"t,omitempty"`
	Skip bool   `json:"s,omitempty"` // every example has +SKIP
}

// docDyn is a place that makes doctests at run time.
type docDyn struct {
	What string `json:"w"`
	Line int    `json:"l"`
}

// psLine is DocTestParser's PS1 line: optional spaces and ">>>".
var psLine = regexp.MustCompile(`^( *)>>>(.*)$`)

var skipOption = regexp.MustCompile(`#\s*doctest:\s*([^\n'"]*)$`)

// examples reads a docstring's (or text file's) examples as
// DocTestParser.parse does: a PS1 line and its PS2 continuation lines
// make one example unless the source is blank or only a comment. It
// reports whether there is one, whether all have +SKIP, and whether a
// prompt lacks its blank (DocTestParser raises ValueError: pytest fails
// the whole module's collection).
func examples(doc string) (has, allSkip, bad bool) {
	lines := strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n")
	allSkip = true
	for i := 0; i < len(lines); i++ {
		l := expandTabs(lines[i])
		m := psLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rest := m[2]
		if rest != "" && rest[0] != ' ' {
			bad = true
		}
		src := []string{strings.TrimPrefix(rest, " ")}
		for i+1 < len(lines) {
			nl := expandTabs(lines[i+1])
			t := strings.TrimLeft(nl, " ")
			if !strings.HasPrefix(t, "...") {
				break
			}
			src = append(src, strings.TrimPrefix(strings.TrimPrefix(t, "..."), " "))
			i++
		}
		first := strings.TrimLeft(src[0], " ")
		if len(src) == 1 && (first == "" || first[0] == '#') {
			continue
		}
		has = true
		skipped := false
		for _, s := range src {
			if o := skipOption.FindStringSubmatch(s); o != nil && strings.Contains(o[1], "+SKIP") {
				skipped = true
			}
		}
		if !skipped {
			allSkip = false
		}
	}
	return has, has && allSkip, bad
}

func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		if r == '\n' {
			col = -1
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// textDoctest reads a --doctest-glob file: one item named after the file
// when it has examples.
func textDoctest(rel string, data []byte) lang.Result {
	var res lang.Result
	has, skip, bad := examples(string(data))
	facts := fileFacts{}
	if bad {
		// DocTestParser raises ValueError: pytest reports a collection
		// error instead of the item.
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevWarning, Line: 1,
			Message: "a doctest prompt lacks the blank after >>>: pytest fails this file's collection (ValueError); it is not listed"})
	} else if has {
		facts.Doctests = []docFact{{Qual: path.Base(rel), Line: 1, Text: true, Skip: skip}}
	}
	res.Facts = facts.encode()
	return res
}

// docScan finds the docstrings with examples that DocTestFinder finds in
// a module: the module's, and recursively those of the functions and
// classes defined in it (methods, properties, static and class methods,
// nested classes), plus the string values of a literal __test__ dict.
// Functions nested in functions, objects imported from elsewhere and
// names hidden behind `if TYPE_CHECKING:` are not found, as at run time.
type docScan struct {
	src   []byte
	out   []docFact
	index map[string]int // Qual -> position in out (the last binding wins, the first keeps its place)
	dyn   []docDyn
	bad   int // line of a prompt without its blank, 0 when none
	// strips are module-level decorators that return a nested function
	// without functools.wraps: the decorated function loses its docstring.
	strips map[string]bool
	// inExcept counts the except clauses around the current statement.
	inExcept int
	// changed are the classes module-level code edits with setattr or
	// delattr: their members are known only at run time.
	changed map[string]bool
	// strs are the module-level names bound once, to a string literal
	// (binds counts every module-level binding).
	strs  map[string]*sitter.Node
	binds map[string]int
}

// scanDoctests returns the module's doctests and the places that make
// doctests at run time.
func scanDoctests(root *sitter.Node, src []byte) ([]docFact, []docDyn, int) {
	s := &docScan{src: src, index: map[string]int{}, strips: map[string]bool{}, changed: map[string]bool{},
		strs: map[string]*sitter.Node{}, binds: map[string]int{}}
	s.findStrippers(root)
	s.findStrings(root)
	if doc, ln := s.docstring(root); doc != nil {
		s.add("", *doc, ln)
	}
	s.body(root, "", 0)
	var out []docFact
	for _, d := range s.out {
		cls, _, _ := strings.Cut(d.Qual, ".")
		if d.Line > 0 && !(s.changed[cls] && strings.Contains(d.Qual, ".")) {
			out = append(out, d)
		}
	}
	return out, s.dyn, s.bad
}

func (s *docScan) text(n *sitter.Node) string { return n.Content(s.src) }

// add records a docstring under qual, replacing an earlier binding of the
// same name (Line 0 marks a name bound to something without examples).
func (s *docScan) add(qual, doc string, ln int) {
	has, skip, bad := examples(doc)
	if bad && s.bad == 0 {
		s.bad = ln
	}
	f := docFact{Qual: qual, Line: ln, Skip: skip}
	if !has {
		f.Line = 0
	}
	if i, ok := s.index[qual]; ok {
		s.out[i] = f
		return
	}
	s.index[qual] = len(s.out)
	s.out = append(s.out, f)
}

// docstring returns a block's docstring: its first statement when that is
// a plain (not f-, not bytes) string literal.
func (s *docScan) docstring(block *sitter.Node) (*string, int) {
	if block == nil {
		return nil, 0
	}
	var first *sitter.Node
	for i := 0; i < int(block.NamedChildCount()); i++ {
		if c := block.NamedChild(i); c.Type() != "comment" {
			first = c
			break
		}
	}
	if first == nil || first.Type() != "expression_statement" || first.NamedChildCount() != 1 {
		return nil, 0
	}
	str := first.NamedChild(0)
	parts := []*sitter.Node{str}
	switch str.Type() {
	case "string":
	case "concatenated_string":
		parts = children(str)
	default:
		return nil, 0
	}
	var b strings.Builder
	for _, p := range parts {
		raw := s.text(p)
		i := strings.IndexAny(raw, `'"`)
		if i < 0 || strings.ContainsAny(strings.ToLower(raw[:i]), "bft") {
			return nil, 0
		}
		v, _, ok := decodeString(raw)
		if !ok {
			v = raw
		}
		b.WriteString(v)
	}
	doc := b.String()
	return &doc, line(str)
}

// body walks the definitions of a module (prefix "") or class body,
// descending into if, try and with blocks; depth bounds the nesting.
func (s *docScan) body(block *sitter.Node, prefix string, depth int) {
	if block == nil || depth > 20 {
		return
	}
	for i := 0; i < int(block.NamedChildCount()); i++ {
		c := block.NamedChild(i)
		switch c.Type() {
		case "function_definition", "class_definition", "decorated_definition":
			s.definition(c, prefix, depth)
		case "if_statement":
			cond := strings.Join(strings.Fields(s.text(c.ChildByFieldName("condition"))), "")
			if isMainCheck(cond) {
				continue
			}
			switch cond {
			case "TYPE_CHECKING", "typing.TYPE_CHECKING", "False", "0":
				// only the else branch runs
			case "True", "1":
				s.body(c.ChildByFieldName("consequence"), prefix, depth+1)
				continue
			default:
				s.body(c.ChildByFieldName("consequence"), prefix, depth+1)
			}
			for j := 0; j < int(c.NamedChildCount()); j++ {
				if a := c.NamedChild(j); a.Type() == "elif_clause" || a.Type() == "else_clause" {
					s.body(a.ChildByFieldName("consequence"), prefix, depth+1)
					s.body(a.ChildByFieldName("body"), prefix, depth+1)
				}
			}
		case "except_clause", "except_group_clause":
			// Definitions here are fallbacks (of an import, mostly):
			// whether they run is known only at run time.
			s.inExcept++
			s.body(c, prefix, depth+1)
			s.inExcept--
		case "try_statement", "with_statement", "else_clause", "finally_clause", "block":
			s.body(c, prefix, depth+1)
		case "import_statement", "import_from_statement":
			s.rebind(c, prefix)
		default:
			if prefix == "" {
				if c.Type() == "expression_statement" {
					s.moduleAssignment(c)
				}
				s.triggers(c, 0)
			}
		}
	}
}

// definition records a def or class and, for a class, its members.
func (s *docScan) definition(n *sitter.Node, prefix string, depth int) {
	def := n
	var decorators []string
	if n.Type() == "decorated_definition" {
		def = n.ChildByFieldName("definition")
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if d := n.NamedChild(i); d.Type() == "decorator" {
				decorators = append(decorators, strings.TrimSpace(strings.TrimPrefix(s.text(d), "@")))
			}
		}
	}
	if def == nil {
		return
	}
	name := s.text(def.ChildByFieldName("name"))
	if name == "" {
		return
	}
	qual := prefix + name
	if s.inExcept > 0 {
		// Listed only when the fallback holds examples at all.
		sub := &docScan{src: s.src, index: map[string]int{}, strips: s.strips, changed: map[string]bool{}}
		sub.definition(n, prefix, depth)
		for _, d := range sub.out {
			if d.Line > 0 {
				s.dyn = append(s.dyn, docDyn{What: "except: " + name, Line: line(def)})
				break
			}
		}
		return
	}
	body := def.ChildByFieldName("body")
	doc, ln := s.docstring(body)
	for _, d := range decorators {
		callee, _, _ := strings.Cut(d, "(")
		if s.strips[callee] && def.Type() == "function_definition" {
			doc = nil // the wrapper has no docstring
		}
		if prefix != "" && (strings.HasSuffix(callee, ".setter") || strings.HasSuffix(callee, ".deleter")) {
			// prop.setter keeps the getter's docstring
			if _, ok := s.index[qual]; ok {
				return
			}
		}
	}
	s.drop(qual)
	if doc != nil {
		s.add(qual, *doc, ln)
	} else {
		s.add(qual, "", 0)
	}
	if def.Type() == "class_definition" {
		s.body(body, qual+".", depth+1)
	}
}

// moduleAssignment reads module-level statements that change docstrings
// or set __test__.
func (s *docScan) moduleAssignment(stmt *sitter.Node) {
	if stmt.NamedChildCount() != 1 {
		return
	}
	a := stmt.NamedChild(0)
	if a.Type() != "assignment" && a.Type() != "augmented_assignment" {
		return
	}
	left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
	if left == nil {
		return
	}
	target := s.text(left)
	switch {
	case target == "__doc__" || strings.HasSuffix(target, ".__doc__"):
		s.dyn = append(s.dyn, docDyn{What: target, Line: line(a)})
	case target == "__test__":
		if right == nil || right.Type() != "dictionary" || a.Type() != "assignment" {
			s.dyn = append(s.dyn, docDyn{What: "__test__", Line: line(a)})
			return
		}
		s.testDict(right)
	case strings.HasPrefix(target, "__test__["), strings.HasPrefix(target, "__test__."):
		s.dyn = append(s.dyn, docDyn{What: "__test__", Line: line(a)})
	}
}

// rebind handles an import that binds a name defined before: the name
// now holds an object of another module, which DocTestFinder leaves out.
func (s *docScan) rebind(n *sitter.Node, prefix string) {
	mn := n.ChildByFieldName("module_name")
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if mn != nil && c.StartByte() == mn.StartByte() {
			continue
		}
		local := ""
		switch c.Type() {
		case "aliased_import":
			local = s.text(c.ChildByFieldName("alias"))
		case "dotted_name":
			local, _, _ = strings.Cut(s.text(c), ".")
		}
		if local != "" {
			s.drop(prefix + local)
		}
	}
}

// drop forgets a name's doctest and its members' (the name is bound
// again).
func (s *docScan) drop(qual string) {
	for q, i := range s.index {
		if q == qual || strings.HasPrefix(q, qual+".") {
			s.out[i].Line = 0
		}
	}
}

// triggers finds, in module-level code outside definitions, what changes
// the module's or its classes' members at run time: setattr, delattr,
// exec, globals()[...] = and globals().update.
func (s *docScan) triggers(n *sitter.Node, depth int) {
	if depth > 50 {
		return
	}
	switch n.Type() {
	case "function_definition", "class_definition", "decorated_definition", "lambda":
		return
	case "call":
		callee := s.text(n.ChildByFieldName("function"))
		switch callee {
		case "setattr", "delattr", "exec", "globals().update":
			s.dyn = append(s.dyn, docDyn{What: callee, Line: line(n)})
			if args := n.ChildByFieldName("arguments"); callee != "exec" && callee != "globals().update" && args != nil && args.NamedChildCount() > 0 {
				if a := args.NamedChild(0); a.Type() == "identifier" {
					s.changed[s.text(a)] = true
				}
			}
		}
	case "assignment":
		if l := n.ChildByFieldName("left"); l != nil && strings.HasPrefix(s.text(l), "globals()[") {
			s.dyn = append(s.dyn, docDyn{What: "globals()", Line: line(n)})
		}
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		s.triggers(n.NamedChild(i), depth+1)
	}
}

// testDict reads a literal __test__ dict: string values with examples
// are items __test__.KEY; a value naming a function or class of the
// module was already found under its own name (DocTestFinder skips what
// it has seen); anything else is known only at run time.
func (s *docScan) testDict(d *sitter.Node) {
	for i := 0; i < int(d.NamedChildCount()); i++ {
		p := d.NamedChild(i)
		if p.Type() == "comment" {
			continue
		}
		if p.Type() != "pair" {
			s.dyn = append(s.dyn, docDyn{What: "__test__", Line: line(p)})
			continue
		}
		k, v := p.ChildByFieldName("key"), p.ChildByFieldName("value")
		key, kok := s.literalStr(k)
		if !kok {
			s.dyn = append(s.dyn, docDyn{What: "__test__", Line: line(p)})
			continue
		}
		if val, ok := s.literalStr(v); ok {
			s.add("__test__."+key, val, line(v))
			continue
		}
		if v != nil && v.Type() == "identifier" {
			if _, ok := s.index[s.text(v)]; ok {
				continue
			}
			if str, ok := s.strs[s.text(v)]; ok && s.binds[s.text(v)] == 1 {
				if val, ok := s.literalStr(str); ok {
					s.add("__test__."+key, val, line(str))
					continue
				}
			}
		}
		s.dyn = append(s.dyn, docDyn{What: "__test__", Line: line(p)})
	}
}

func (s *docScan) literalStr(n *sitter.Node) (string, bool) {
	if n == nil {
		return "", false
	}
	parts := []*sitter.Node{n}
	if n.Type() == "concatenated_string" {
		parts = children(n)
	} else if n.Type() != "string" {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		v, isBytes, ok := decodeString(s.text(p))
		if !ok || isBytes {
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// findStrippers finds module-level decorators whose wrapper drops the
// docstring: def deco(f): def inner(...): ...; return inner, where inner
// has no docstring and is not decorated (functools.wraps copies it).
func (s *docScan) findStrippers(root *sitter.Node) {
	for i := 0; i < int(root.NamedChildCount()); i++ {
		c := root.NamedChild(i)
		if c.Type() != "function_definition" {
			continue
		}
		body := c.ChildByFieldName("body")
		if body == nil {
			continue
		}
		inner := map[string]bool{}
		var ret string
		for j := 0; j < int(body.NamedChildCount()); j++ {
			st := body.NamedChild(j)
			switch st.Type() {
			case "function_definition":
				if doc, _ := s.docstring(st.ChildByFieldName("body")); doc == nil {
					inner[s.text(st.ChildByFieldName("name"))] = true
				}
			case "return_statement":
				if st.NamedChildCount() == 1 {
					ret = s.text(st.NamedChild(0))
				}
			}
		}
		if ret != "" && inner[ret] {
			s.strips[s.text(c.ChildByFieldName("name"))] = true
		}
	}
}

// doctestModuleName is the module name pytest imports a file under
// (_pytest/pathlib.py import_path): the dotted path from the folder above
// the outermost package (folders holding __init__.py), the file's stem
// outside packages; in importlib mode a module outside any package is
// named after its path from the rootdir. With consider_namespace_packages
// pytest climbs from there to the first folder from which the name is
// importable; statically that is the rootdir, the project folder (both
// on sys.path under python -m pytest) or a folder named src (an
// installed src layout).
func doctestModuleName(abs, rootdir, projDir string, o doctestOptions) string {
	dir := filepath.Dir(abs)
	pkgRoot := ""
	for d := dir; isRegular(filepath.Join(d, "__init__.py")); d = filepath.Dir(d) {
		pkgRoot = filepath.Dir(d)
		if pkgRoot == d {
			break
		}
	}
	if o.namespace {
		start := pkgRoot
		if start == "" {
			start = dir
		}
		for c := start; ; c = filepath.Dir(c) {
			if c == rootdir || c == projDir || filepath.Base(c) == "src" {
				if name := relModuleName(c, abs, false); name != "" {
					return name
				}
			}
			if filepath.Dir(c) == c {
				break
			}
		}
	}
	if pkgRoot != "" {
		return relModuleName(pkgRoot, abs, false)
	}
	if o.importlib {
		if name := relModuleName(rootdir, abs, true); name != "" {
			return name
		}
	}
	return strings.TrimSuffix(filepath.Base(abs), ".py")
}

// relModuleName is pytest's compute_module_name (or, fromRoot,
// module_name_from_path, which turns dots in folder names into
// underscores): the dotted path of abs below root, "" when outside it.
func relModuleName(root, abs string, fromRoot bool) string {
	r, err := filepath.Rel(root, strings.TrimSuffix(abs, ".py"))
	if err != nil || r == "." || strings.HasPrefix(r, "..") {
		return ""
	}
	ps := strings.Split(filepath.ToSlash(r), "/")
	if ps[len(ps)-1] == "__init__" {
		ps = ps[:len(ps)-1]
	}
	if fromRoot {
		for i := range ps {
			ps[i] = strings.ReplaceAll(ps[i], ".", "_")
		}
	}
	return strings.Join(ps, ".")
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// doctestRecords names a file's doctests: MODULE.QUAL for a module's,
// the file name for a text file's; one dynamic record stands for those
// made at run time.
func (l *linker) doctestRecords(p *lang.Project, rel string, facts fileFacts) []lang.Test {
	if len(facts.Doctests) == 0 && len(facts.DocDyn) == 0 {
		return nil
	}
	var mod string
	if strings.HasSuffix(rel, ".py") {
		mod = doctestModuleName(filepath.Join(p.Dir, filepath.FromSlash(rel)), l.cfg.Rootdir, p.Dir, l.doc)
	}
	var out []lang.Test
	for _, d := range facts.Doctests {
		name := d.Qual
		if !d.Text {
			name = mod
			if d.Qual != "" {
				name = mod + "." + d.Qual
			}
		}
		out = append(out, lang.Test{Kind: testdex.KindDoctest, Name: name, Line: d.Line, Skip: d.Skip})
	}
	if len(facts.DocDyn) > 0 {
		d := facts.DocDyn[0]
		out = append(out, lang.Test{Kind: testdex.KindDoctest, Name: mod + ".{" + d.What + "}", Line: d.Line, Dynamic: true})
	}
	return out
}

// isSetupPy is pytest's _is_setup_py: a setup.py that mentions
// setuptools or distutils is not a doctest module.
func isSetupPy(abs string) bool {
	data, err := os.ReadFile(abs)
	return err == nil && (strings.Contains(string(data), "setuptools") || strings.Contains(string(data), "distutils"))
}

// doctests adds the module's docstrings with examples to the facts. A
// prompt without its blank makes DocTestParser raise, which fails the
// module's doctest collection: none are listed, with a warning.
func (w *walker) doctests(root *sitter.Node) {
	docs, dyn, bad := scanDoctests(root, w.src)
	if bad > 0 {
		w.problems = append(w.problems, testdex.Problem{Severity: testdex.SevWarning, Line: bad,
			Message: "a doctest prompt lacks the blank after >>>: pytest fails this module's doctest collection (ValueError); its doctests are not listed"})
		return
	}
	w.facts.Doctests, w.facts.DocDyn = docs, dyn
}

// errorsOnly keeps the error problems (a module that does not parse
// fails its doctest collection too).
func errorsOnly(probs []testdex.Problem) []testdex.Problem {
	var out []testdex.Problem
	for _, p := range probs {
		if p.Severity == testdex.SevError {
			out = append(out, p)
		}
	}
	return out
}

// findStrings records the module-level names bound to a string literal
// (tutorial_tests = """..."""), which a __test__ dict may name, and
// counts every module-level binding: a name bound twice is not followed.
func (s *docScan) findStrings(root *sitter.Node) {
	for _, c := range children(root) {
		switch c.Type() {
		case "expression_statement":
			a := c.NamedChild(0)
			if a == nil || (a.Type() != "assignment" && a.Type() != "augmented_assignment") {
				continue
			}
			left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
			if left == nil || left.Type() != "identifier" {
				continue
			}
			name := s.text(left)
			s.binds[name]++
			if a.Type() == "assignment" && right != nil && (right.Type() == "string" || right.Type() == "concatenated_string") {
				s.strs[name] = right
			}
		case "function_definition", "class_definition", "decorated_definition":
			if d := definition(c); d != nil && d.ChildByFieldName("name") != nil {
				s.binds[s.text(d.ChildByFieldName("name"))]++
			}
		case "import_statement", "import_from_statement", "if_statement", "try_statement", "for_statement", "with_statement":
			// Bindings there are not followed: a name they may bind
			// counts twice.
			for _, id := range identifiersIn(c, s.src) {
				s.binds[id] += 2
			}
		}
	}
}

// identifiersIn lists the identifiers under n.
func identifiersIn(n *sitter.Node, src []byte) []string {
	var out []string
	walkAll(n, 0, func(c *sitter.Node) {
		if c.Type() == "identifier" {
			out = append(out, c.Content(src))
		}
	})
	return out
}
