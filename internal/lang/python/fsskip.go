package python

import (
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// skipFact is a module-level statement that makes the module skip as it
// is imported for a reason outside its own text: a folder of the tree
// that may be missing, the interpreter's kind of build, or a function of
// another module that checks a folder. The Linker, which sees the tree,
// decides (layoutSkips in fslink.go).
type skipFact struct {
	Line int `json:"l"`
	// Path is a folder or file relative to the module's own folder; the
	// module skips unless Test ("isdir", "exists" or "isfile") holds.
	Path string `json:"p,omitempty"`
	Test string `json:"t,omitempty"`
	// Build: the module skips unless sysconfig.is_python_build().
	Build bool `json:"b,omitempty"`
	// Call is the dotted name of an imported function called alone, with
	// Arg (a str literal) or no argument; the module skips when that
	// function's dirSkipper says so.
	Call string  `json:"c,omitempty"`
	Arg  *string `json:"a,omitempty"`
}

// dirSkipper is a module-level function that raises SkipTest unless a
// folder exists: the folder, relative to its module's folder, when it is
// called with one argument (Given, the argument's place marked by
// argMark) and with none (Bare); "" where that call is not known.
type dirSkipper struct {
	Given string `json:"g,omitempty"`
	Bare  string `json:"n,omitempty"`
	Test  string `json:"t,omitempty"`
}

// argMark stands for a dirSkipper's argument in its Given path.
const argMark = "\x00"

// noneMark is the value of a dirSkipper's parameter left to its default.
const noneMark = "\x02none"

// fileMark is the value of __file__: only the folder of it is a path.
const fileMark = "\x01file"

// pathTests are the os.path functions a skip condition may ask.
var pathTests = map[string]string{"os.path.isdir": "isdir", "os.path.exists": "exists", "os.path.isfile": "isfile"}

// layoutFacts reads the module-level statements that skip the module
// depending on the tree (skipFact) and the functions that do so when
// called (dirSkipper). A module whose text says SkipTest nowhere has no
// dirSkipper; its calls of imported functions are recorded all the same.
func (w *walker) layoutFacts(root *sitter.Node) {
	says := strings.Contains(string(w.src), "SkipTest")
	for _, c := range children(root) {
		line := int(c.StartPoint().Row) + 1
		switch c.Type() {
		case "if_statement":
			body := c.ChildByFieldName("consequence")
			if !says || body == nil || !w.skipsModule(body) {
				continue
			}
			if s, ok := w.layoutCondition(c.ChildByFieldName("condition")); ok {
				s.Line = line
				w.facts.Skips = append(w.facts.Skips, s)
			}
		case "expression_statement":
			if s, ok := w.skipCall(c); ok {
				s.Line = line
				w.facts.Skips = append(w.facts.Skips, s)
			}
		case "function_definition":
			if !says || !strings.Contains(w.text(c.ChildByFieldName("body")), "SkipTest") {
				continue
			}
			name := w.text(c.ChildByFieldName("name"))
			if d, ok := w.dirSkipper(c); ok && w.bindings[name] == 1 {
				if w.facts.DirSkips == nil {
					w.facts.DirSkips = map[string]dirSkipper{}
				}
				w.facts.DirSkips[name] = d
			}
		}
	}
}

// layoutCondition reads `not os.path.isdir(P)` (exists, isfile) of a
// path P the module fixes, and `not sysconfig.is_python_build()`.
func (w *walker) layoutCondition(n *sitter.Node) (skipFact, bool) {
	n = unparen(n)
	if n == nil || n.Type() != "not_operator" {
		return skipFact{}, false
	}
	call := unparen(n.ChildByFieldName("argument"))
	if call == nil || call.Type() != "call" {
		return skipFact{}, false
	}
	fn := w.resolve(w.text(call.ChildByFieldName("function")))
	args := children(call.ChildByFieldName("arguments"))
	if fn == "sysconfig.is_python_build" && len(args) == 0 {
		return skipFact{Build: true}, true
	}
	test, ok := pathTests[fn]
	if !ok || len(args) != 1 {
		return skipFact{}, false
	}
	p, ok := w.pathOf(args[0], nil, 0)
	if !ok || strings.Contains(p, argMark) {
		return skipFact{}, false
	}
	return skipFact{Path: p, Test: test}, true
}

// skipCall reads a statement that is only a call of an imported name
// with no argument or one str literal.
func (w *walker) skipCall(s *sitter.Node) (skipFact, bool) {
	if s.NamedChildCount() != 1 {
		return skipFact{}, false
	}
	call := s.NamedChild(0)
	if call.Type() != "call" {
		return skipFact{}, false
	}
	fn := w.text(call.ChildByFieldName("function"))
	first, _, _ := strings.Cut(fn, ".")
	if _, imported := w.facts.Imports[first]; !imported || w.bindings[first] != 1 || strings.ContainsAny(fn, " \t\n(") {
		return skipFact{}, false
	}
	args := call.ChildByFieldName("arguments")
	if args == nil || args.Type() != "argument_list" {
		return skipFact{}, false
	}
	out := skipFact{Call: w.resolve(fn)}
	switch as := children(args); len(as) {
	case 0:
	case 1:
		v := w.value(as[0], 0)
		if !v.isStr() || v.raw == "" || strings.Contains(v.raw, argMark) {
			return skipFact{}, false
		}
		out.Arg = &v.raw
	default:
		return skipFact{}, false
	}
	return out, true
}

// dirSkipper runs a function of at most one parameter (with no default
// or None) over its source, with an argument and without: assignments of
// paths and strings, `if PARAM:` choosing a branch, and then `if not
// os.path.isdir(P): raise SkipTest(...)`. Any other statement before that
// one leaves the call unknown.
func (w *evaluator) dirSkipper(def *sitter.Node) (dirSkipper, bool) {
	params := children(def.ChildByFieldName("parameters"))
	param, canGive, canOmit := "", false, len(params) == 0
	if len(params) == 1 {
		switch p := params[0]; p.Type() {
		case "identifier":
			param, canGive = w.text(p), true
		case "default_parameter":
			if v := p.ChildByFieldName("value"); v != nil && v.Type() == "none" {
				param, canGive, canOmit = w.text(p.ChildByFieldName("name")), true, true
			}
		}
	}
	if len(params) > 1 || (!canGive && !canOmit) {
		return dirSkipper{}, false
	}
	var out dirSkipper
	if canGive {
		out.Given, out.Test = w.runDirSkipper(def.ChildByFieldName("body"), param, true)
	}
	if canOmit {
		var test string
		out.Bare, test = w.runDirSkipper(def.ChildByFieldName("body"), param, false)
		if out.Test != "" && test != "" && test != out.Test {
			return dirSkipper{}, false
		}
		if out.Test == "" {
			out.Test = test
		}
	}
	return out, out.Given != "" || out.Bare != ""
}

// runDirSkipper runs a dirSkipper's body with its argument given or not
// and returns the path it checks and how, "" when not known.
func (w *evaluator) runDirSkipper(body *sitter.Node, param string, given bool) (string, string) {
	env := map[string]string{param: noneMark}
	if given {
		env[param] = argMark
	}
	stmts := children(body)
	for i := 0; i < len(stmts) && i < 64; i++ {
		s := stmts[i]
		switch s.Type() {
		case "expression_statement":
			if s.NamedChildCount() == 1 && s.NamedChild(0).Type() == "string" {
				continue // a docstring
			}
			a := s.NamedChild(0)
			if a == nil || a.Type() != "assignment" || a.ChildByFieldName("left").Type() != "identifier" {
				return "", ""
			}
			name := w.text(a.ChildByFieldName("left"))
			v, ok := w.pathOf(a.ChildByFieldName("right"), env, 0)
			if !ok {
				return "", ""
			}
			env[name] = v
		case "if_statement":
			if branch, ok := w.paramBranch(s, param, given); ok {
				var run []*sitter.Node
				if branch != nil {
					run = children(branch)
				}
				stmts = append(run, stmts[i+1:]...)
				i = -1
				continue
			}
			cond := unparen(s.ChildByFieldName("condition"))
			body := s.ChildByFieldName("consequence")
			if cond == nil || cond.Type() != "not_operator" || body == nil || !w.skipsModule(body) {
				return "", ""
			}
			call := unparen(cond.ChildByFieldName("argument"))
			if call == nil || call.Type() != "call" {
				return "", ""
			}
			test, ok := pathTests[w.resolve(w.text(call.ChildByFieldName("function")))]
			args := children(call.ChildByFieldName("arguments"))
			if !ok || len(args) != 1 {
				return "", ""
			}
			p, ok := w.pathOf(args[0], env, 0)
			if !ok {
				return "", ""
			}
			return p, test
		default:
			return "", ""
		}
	}
	return "", ""
}

// paramBranch returns the block `if PARAM: ... else: ...` runs (no
// elif), the argument being a non-empty str when given and None when not:
// nil when the branch not taken has no else. ok is false for any other if.
func (w *evaluator) paramBranch(s *sitter.Node, param string, given bool) (*sitter.Node, bool) {
	cond := unparen(s.ChildByFieldName("condition"))
	truth := given
	switch {
	case cond != nil && cond.Type() == "identifier" && w.text(cond) == param:
	case cond != nil && cond.Type() == "not_operator" && w.text(unparen(cond.ChildByFieldName("argument"))) == param:
		truth = !given
	default:
		return nil, false
	}
	var elseBlock *sitter.Node
	for _, c := range children(s) {
		switch c.Type() {
		case "elif_clause":
			return nil, false
		case "else_clause":
			elseBlock = c.ChildByFieldName("body")
		}
	}
	if truth {
		return s.ChildByFieldName("consequence"), s.ChildByFieldName("consequence") != nil
	}
	return elseBlock, true
}

// pathOf evaluates a path the module fixes, relative to its folder:
// os.path.dirname, join, normpath and abspath of __file__, str literals,
// the names env binds and the module's names bound once to such paths.
// The folders above the module's are "..".
func (w *evaluator) pathOf(n *sitter.Node, env map[string]string, depth int) (string, bool) {
	n = unparen(n)
	if n == nil || depth > 20 {
		return "", false
	}
	switch n.Type() {
	case "identifier":
		name := w.text(n)
		if v, ok := env[name]; ok {
			return v, v != noneMark
		}
		if name == "__file__" && w.bindings[name] == 0 {
			return fileMark, true
		}
		if lit := w.literals[name]; lit != nil && w.bindings[name] == 1 {
			return w.pathOf(lit, nil, depth+1)
		}
	case "string":
		if v := w.value(n, 0); v.isStr() && !strings.Contains(v.raw, argMark) && !strings.HasPrefix(v.raw, fileMark) {
			return v.raw, true
		}
	case "call":
		return w.pathCall(n, env, depth)
	}
	return "", false
}

// pathCall evaluates os.path.dirname, join, normpath and abspath.
func (w *evaluator) pathCall(n *sitter.Node, env map[string]string, depth int) (string, bool) {
	fn := w.resolve(w.text(n.ChildByFieldName("function")))
	args := children(n.ChildByFieldName("arguments"))
	vals := make([]string, len(args))
	for i, a := range args {
		v, ok := w.pathOf(a, env, depth+1)
		if !ok {
			return "", false
		}
		vals[i] = v
	}
	switch {
	case len(vals) == 1 && fn == "os.path.dirname":
		return parentDir(vals[0]), true
	case len(vals) == 1 && (fn == "os.path.normpath" || fn == "os.path.abspath"):
		if vals[0] == fileMark {
			return fileMark, true
		}
		return path.Clean(vals[0]), true
	case len(vals) >= 1 && fn == "os.path.join":
		for _, v := range vals {
			if v == fileMark || strings.HasPrefix(v, "/") {
				return "", false
			}
		}
		return path.Join(vals...), true
	}
	return "", false
}

// parentDir is os.path.dirname of a path relative to the module's
// folder: the folder itself for __file__, ".." above ".".
func parentDir(p string) string {
	switch {
	case p == fileMark:
		return "."
	case p == "." || p == "":
		return ".."
	case p == ".." || strings.HasSuffix(p, "/.."):
		return p + "/.."
	}
	return path.Dir(p)
}
