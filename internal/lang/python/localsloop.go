package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// localsLoop reads a loop of a class body that binds methods through the
// body's namespace, as CPython's test_os and test_compileall do:
//
//	singles = ["fchdir", "dup"]
//	for f in singles:
//	    locals()["test_" + f] = get_single(f)
//
// The loop's sequence must be known (a literal, or a name of the class or
// module bound to one), and its body may only define functions and
// classes that are not tests, bind other names that are not tests and no
// key reads, and set locals()[KEY] (or vars()[KEY]) for a KEY known as a
// str for every element. It returns the names set that unittest collects (test*), in
// order; ok is false for any other loop, which the class's dynamic record
// stays for.
func (w *walker) localsLoop(s *sitter.Node) ([]string, bool) {
	if s.Type() != "for_statement" || !w.unittest {
		return nil, false
	}
	body, target := s.ChildByFieldName("body"), s.ChildByFieldName("left")
	if body == nil || target == nil || !strings.Contains(w.text(body), "locals()") && !strings.Contains(w.text(body), "vars()") {
		return nil, false
	}
	for _, c := range children(s) {
		if c.Type() == "else_clause" {
			return nil, false
		}
	}
	var keys []*sitter.Node
	bound := map[string]bool{}
	for _, st := range children(body) {
		key, ok := w.localsStatement(st)
		if !ok {
			return nil, false
		}
		if key != nil {
			keys = append(keys, key)
		} else {
			w.boundNames(st, bound)
		}
	}
	if len(keys) == 0 {
		return nil, false
	}
	for _, key := range keys {
		rebound := false
		forWords([]byte(w.text(key)), func(word string) { rebound = rebound || bound[word] })
		if rebound {
			return nil, false // the body binds a name a key reads: not the loop's value
		}
	}
	w.steps, w.evals = 0, 0
	elems, _, ok := w.sequence(s.ChildByFieldName("right"), 0)
	if !ok || len(elems) > 1000 {
		return nil, false
	}
	saved := w.locals
	defer func() { w.locals = saved }()
	var names []string
	for _, e := range elems {
		env := map[string]elem{}
		for k, v := range saved {
			env[k] = v
		}
		if !w.bind(target, e, env, 0) {
			return nil, false
		}
		w.locals = env
		for _, key := range keys {
			v := w.value(key, 0)
			if !v.isStr() {
				return nil, false
			}
			if strings.HasPrefix(v.raw, "test") {
				names = append(names, v.raw)
			}
		}
	}
	return names, true
}

// localsStatement checks one statement of such a loop's body: the key
// of a locals()[KEY] = value, nil for a statement that binds no test
// name; ok is false for any other statement.
func (w *walker) localsStatement(st *sitter.Node) (*sitter.Node, bool) {
	switch st.Type() {
	case "comment", "pass_statement":
		return nil, true
	case "function_definition", "class_definition", "decorated_definition":
		d := definition(st)
		return nil, d != nil && !strings.HasPrefix(w.text(d.ChildByFieldName("name")), "test")
	case "expression_statement":
	default:
		return nil, false
	}
	if st.NamedChildCount() != 1 || st.NamedChild(0).Type() != "assignment" {
		return nil, false
	}
	a := st.NamedChild(0)
	left := unparen(a.ChildByFieldName("left"))
	if left == nil || a.ChildByFieldName("right") == nil {
		return nil, false
	}
	switch left.Type() {
	case "identifier":
		return nil, !strings.HasPrefix(w.text(left), "test") && w.text(left) != "__test__"
	case "subscript":
		call := unparen(left.ChildByFieldName("value"))
		if call == nil || call.Type() != "call" || len(children(call.ChildByFieldName("arguments"))) != 0 {
			return nil, false
		}
		if fn := w.text(call.ChildByFieldName("function")); (fn != "locals" && fn != "vars") || w.bindings[fn] != 0 {
			return nil, false
		}
		keys := children(left)
		if len(keys) != 2 || left.ChildByFieldName("subscript") == nil {
			return nil, false
		}
		return left.ChildByFieldName("subscript"), true
	}
	return nil, false
}
