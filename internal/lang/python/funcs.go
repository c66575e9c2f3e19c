package python

import (
	"maps"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The module's helper functions, run over their source: a table built by
// a call (FULL = _offsets(False), parametrize("x", _cases())) is known
// when the function's body, run with the call's arguments, does only
// what is fixed there. The run is an interpreter of a few statements,
// never the code: assignments (kept unevaluated until a value is needed,
// so an instance's constructor is never read), tuple unpacking, list
// building with append, extend and +=, if and elif over conditions the
// evaluator knows, for loops over known sequences with break and
// continue, nested defs (closures read their scope as Python does),
// return and yield. Any other statement, or a condition not known, leaves
// the call unknown and its table dynamic, as before.

// maxSteps bounds the statements one table's helper calls may run.
const maxSteps = 50000

// maxCallDepth bounds nested helper calls.
const maxCallDepth = 20

// frame is one helper call being run: its variables (a map never changed
// in place once an element or a closure holds it: an assignment binds a
// copy), what it returned or yielded, and the loop control pending.
type frame struct {
	env    map[string]elem
	ret    elem
	done   bool
	gen    bool
	yields []elem
	brk    bool
	cont   bool
	shared map[string]bool // names whose list another list or a yield holds
}

// set binds a variable in a copy of the frame's variables.
func (fr *frame) set(name string, e elem) {
	env := make(map[string]elem, len(fr.env)+1)
	maps.Copy(env, fr.env)
	env[name] = e
	fr.env = env
}

// helperDef returns the def a call's function names: a function a helper
// defined (with the frame it closes over), or a module-level function
// bound once, undecorated or only memoized.
func (w *evaluator) helperDef(fn *sitter.Node) (*sitter.Node, *frame) {
	if fn == nil || fn.Type() != "identifier" {
		return nil, nil
	}
	name := w.text(fn)
	if e, ok := w.locals[name]; ok {
		return e.def, e.scope
	}
	if d := w.funcs[name]; d != nil && w.bindings[name] == 1 {
		return definition(d), nil
	}
	return nil, nil
}

// callHelper runs a call of a helper function; ok is false when the
// callee is not one or its run is not known.
func (w *evaluator) callHelper(call *sitter.Node, depth int) (elem, bool) {
	def, scope := w.helperDef(call.ChildByFieldName("function"))
	if def == nil || depth > maxValueDepth || w.callDepth >= maxCallDepth || w.spentCall(call.ChildByFieldName("function")) {
		return elem{}, false
	}
	wrap := seqOther
	if scope == nil {
		var ok bool
		if wrap, ok = w.helperWrap(w.funcs[w.text(call.ChildByFieldName("function"))]); !ok || w.changesOuter(def) {
			return elem{}, false // a module function that changes module-level names is not run
		}
	} else if def.Parent() != nil && def.Parent().Type() == "decorated_definition" {
		return elem{}, false
	}
	env := map[string]elem{}
	if scope != nil {
		maps.Copy(env, scope.env)
	}
	if !w.bindArgs(def, call.ChildByFieldName("arguments"), env) {
		return elem{}, false
	}
	body := def.ChildByFieldName("body")
	fr := &frame{env: env, gen: hasYield(body)}
	saved := w.locals
	w.callDepth++
	ok := w.exec(body, fr, 0) // a new budget of nesting: the calls are bounded by maxCallDepth
	w.callDepth--
	w.locals = saved
	switch {
	case !ok:
		return elem{}, false
	case fr.gen:
		fr.ret = seqElem(fr.yields, seqOther)
	case !fr.done:
		fr.ret = elem{v: pyVal{kind: vText, id: "None", scalar: true}}
	}
	if wrap != seqOther {
		items, _, ok := w.seqOf(fr.ret, depth)
		if !ok {
			return elem{}, false
		}
		return seqElem(items, wrap), true
	}
	return fr.ret, true
}

// seqElem is an element holding a sequence the interpreter built.
func seqElem(items []elem, kind seqKind) elem {
	return elem{v: pyVal{kind: vObject}, seq: &seqVal{items: items, kind: kind}}
}

// bindArgs binds a def's parameters to a call's arguments (evaluated in
// the caller's variables) and its defaults; *args, **kwargs, splats and
// keyword-only markers leave the call unknown.
func (w *evaluator) bindArgs(def, args *sitter.Node, env map[string]elem) bool {
	params := def.ChildByFieldName("parameters")
	if params == nil || args == nil || args.Type() != "argument_list" {
		return false
	}
	var names []string
	defaults := map[string]*sitter.Node{}
	for _, p := range children(params) {
		switch p.Type() {
		case "identifier":
			names = append(names, w.text(p))
		case "typed_parameter":
			if p.NamedChildCount() == 0 || p.NamedChild(0).Type() != "identifier" {
				return false
			}
			names = append(names, w.text(p.NamedChild(0)))
		case "default_parameter", "typed_default_parameter":
			name := p.ChildByFieldName("name")
			if name == nil || name.Type() != "identifier" {
				return false
			}
			names = append(names, w.text(name))
			defaults[w.text(name)] = p.ChildByFieldName("value")
		case "comment":
		default:
			return false
		}
	}
	bound := map[string]bool{}
	i := 0
	for _, a := range children(args) {
		switch a.Type() {
		case "comment":
			continue
		case "keyword_argument":
			name := w.text(a.ChildByFieldName("name"))
			if !containsStr(names, name) || bound[name] {
				return false
			}
			env[name], bound[name] = elem{n: a.ChildByFieldName("value"), env: w.locals}, true
		case "list_splat", "dictionary_splat", "parenthesized_list_splat":
			return false
		default:
			if i >= len(names) || bound[names[i]] {
				return false
			}
			env[names[i]], bound[names[i]] = elem{n: a, env: w.locals}, true
			i++
		}
	}
	for _, name := range names {
		if bound[name] {
			continue
		}
		d := defaults[name]
		if d == nil {
			return false
		}
		env[name] = elem{n: d, env: nil} // a module-level def's defaults see the module
	}
	return true
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// exec runs a block's statements.
func (w *evaluator) exec(block *sitter.Node, fr *frame, depth int) bool {
	if block == nil {
		return false
	}
	for _, s := range children(block) {
		if fr.done || fr.brk || fr.cont {
			return true
		}
		if w.steps++; w.steps > maxSteps {
			return false
		}
		if !w.stmt(s, fr, depth) {
			return false
		}
	}
	return true
}

// stmt runs one statement.
func (w *evaluator) stmt(s *sitter.Node, fr *frame, depth int) bool {
	w.locals = fr.env
	switch s.Type() {
	case "comment", "pass_statement":
		return true
	case "expression_statement":
		return s.NamedChildCount() == 1 && w.expressionStmt(s.NamedChild(0), fr, depth)
	case "return_statement":
		fr.done = true
		if s.NamedChildCount() == 0 {
			fr.ret = elem{v: pyVal{kind: vText, id: "None", scalar: true}}
			return true
		}
		fr.ret = elem{n: s.NamedChild(0), env: fr.env}
		return true
	case "if_statement":
		return w.ifStmt(s, fr, depth)
	case "for_statement":
		return w.forStmt(s, fr, depth)
	case "function_definition":
		name := s.ChildByFieldName("name")
		if name == nil || w.changesOuter(s) {
			return false
		}
		fr.set(w.text(name), elem{def: s, scope: fr})
		return true
	case "break_statement":
		fr.brk = true
		return true
	case "continue_statement":
		fr.cont = true
		return true
	}
	return false
}

// share notes that another name, a list or a yield now holds what an
// expression names: changing that name's list in place afterwards would
// change what they hold too, which the interpreter's copies would not,
// so it refuses to.
func (w *evaluator) share(fr *frame, n *sitter.Node) {
	if n = unparen(n); n.Type() != "identifier" {
		return
	}
	if fr.shared == nil {
		fr.shared = map[string]bool{}
	}
	fr.shared[w.text(n)] = true
}

// expressionStmt runs an assignment, an augmented assignment, a list's
// append or extend, a yield or a docstring.
func (w *evaluator) expressionStmt(x *sitter.Node, fr *frame, depth int) bool {
	switch x.Type() {
	case "string", "concatenated_string":
		return true
	case "assignment":
		left, right := x.ChildByFieldName("left"), x.ChildByFieldName("right")
		if left == nil || right == nil {
			return right == nil // an annotation alone
		}
		return w.assign(left, right, fr, depth)
	case "augmented_assignment":
		left, right := x.ChildByFieldName("left"), x.ChildByFieldName("right")
		if left == nil || right == nil || left.Type() != "identifier" || w.text(x.ChildByFieldName("operator")) != "+=" {
			return false
		}
		name := w.text(left)
		cur, ok := fr.env[name]
		if !ok || fr.shared[name] || !w.fresh(cur) {
			return false
		}
		items, kind, ok := w.seqOf(cur, depth)
		if !ok || kind == seqOther {
			return false
		}
		w.locals = fr.env
		more, mk, ok := w.sequence(right, depth+1)
		if !ok || kind == seqTuple && mk != seqTuple || len(items)+len(more) > maxElems {
			return false
		}
		fr.set(name, seqElem(append(append([]elem(nil), items...), more...), kind))
		return true
	case "call":
		return w.listCall(x, fr, depth)
	case "yield":
		if !fr.gen || x.NamedChildCount() != 1 {
			return false
		}
		v := x.NamedChild(0)
		if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(w.text(x), "yield")), "from") {
			items, _, ok := w.sequence(v, depth+1)
			if !ok || len(fr.yields)+len(items) > maxElems {
				return false
			}
			fr.yields = append(fr.yields, items...)
			return true
		}
		if len(fr.yields) >= maxElems {
			return false
		}
		w.share(fr, v)
		fr.yields = append(fr.yields, elem{n: v, env: fr.env})
		return true
	}
	return false
}

// assign binds a name, or unpacks a known sequence into names. A name
// bound to another name may share its list: neither is changed in place
// afterwards (share).
func (w *evaluator) assign(left, right *sitter.Node, fr *frame, depth int) bool {
	if right.Type() == "assignment" || right.Type() == "augmented_assignment" {
		return false
	}
	if unparen(right).Type() == "identifier" {
		w.share(fr, right)
		w.share(fr, left)
	}
	if r := unparen(right); r.Type() == "call" {
		// A helper called for a value it may never need: one that
		// changes names outside it would be skipped with its changes.
		if def, scope := w.helperDef(r.ChildByFieldName("function")); def != nil && scope == nil && w.changesOuter(def) {
			return false
		}
	}
	e := elem{n: right, env: fr.env}
	switch left.Type() {
	case "identifier":
		fr.set(w.text(left), e)
		return true
	case "pattern_list", "tuple_pattern", "list_pattern":
		env := maps.Clone(fr.env)
		if !w.bind(left, e, env, depth) {
			return false
		}
		fr.env = env
		return true
	}
	return false
}

// listCall runs name.append(x) and name.extend(seq) of a list the frame
// holds.
func (w *evaluator) listCall(x *sitter.Node, fr *frame, depth int) bool {
	fn := x.ChildByFieldName("function")
	if fn == nil || fn.Type() != "attribute" {
		return false
	}
	obj := fn.ChildByFieldName("object")
	method := w.text(fn.ChildByFieldName("attribute"))
	args := children(x.ChildByFieldName("arguments"))
	if obj == nil || obj.Type() != "identifier" || len(args) != 1 || args[0].Type() == "keyword_argument" ||
		method != "append" && method != "extend" {
		return false
	}
	name := w.text(obj)
	cur, ok := fr.env[name]
	if !ok || fr.shared[name] || !w.fresh(cur) {
		return false
	}
	items, kind, ok := w.seqOf(cur, depth)
	if !ok || kind != seqList {
		return false
	}
	items = append([]elem(nil), items...)
	if method == "append" {
		w.share(fr, args[0])
		items = append(items, elem{n: args[0], env: fr.env})
	} else {
		w.locals = fr.env
		more, _, ok := w.sequence(args[0], depth+1)
		if !ok {
			return false
		}
		items = append(items, more...)
	}
	if len(items) > maxElems {
		return false
	}
	fr.set(name, seqElem(items, seqList))
	return true
}

// seqOf reads an element as a sequence: one the interpreter built, or a
// node evaluated in its variables.
func (w *evaluator) seqOf(e elem, depth int) ([]elem, seqKind, bool) {
	if e.seq != nil {
		return e.seq.items, e.seq.kind, true
	}
	if e.n == nil {
		return nil, seqOther, false
	}
	saved := w.locals
	w.locals = e.env
	defer func() { w.locals = saved }()
	return w.sequence(e.n, depth+1)
}

// ifStmt runs the branch an if statement takes.
func (w *evaluator) ifStmt(s *sitter.Node, fr *frame, depth int) bool {
	t, ok := w.truth(s.ChildByFieldName("condition"), depth)
	if !ok {
		return false
	}
	if t {
		return w.exec(s.ChildByFieldName("consequence"), fr, depth)
	}
	for _, c := range children(s) {
		switch c.Type() {
		case "elif_clause":
			w.locals = fr.env
			t, ok := w.truth(c.ChildByFieldName("condition"), depth)
			if !ok {
				return false
			}
			if t {
				return w.exec(c.ChildByFieldName("consequence"), fr, depth)
			}
		case "else_clause":
			return w.exec(c.ChildByFieldName("body"), fr, depth)
		}
	}
	return true
}

// forStmt runs a for loop over a known sequence (a loop with an else
// clause is not run).
func (w *evaluator) forStmt(s *sitter.Node, fr *frame, depth int) bool {
	if s.ChildByFieldName("alternative") != nil {
		return false
	}
	items, _, ok := w.sequence(s.ChildByFieldName("right"), depth+1)
	if !ok {
		return false
	}
	for _, it := range items {
		env := maps.Clone(fr.env)
		if env == nil {
			env = map[string]elem{}
		}
		if !w.bind(s.ChildByFieldName("left"), it, env, depth) {
			return false
		}
		fr.env = env
		if !w.exec(s.ChildByFieldName("body"), fr, depth) {
			return false
		}
		fr.cont = false
		if fr.brk || fr.done {
			fr.brk = false
			break
		}
	}
	return true
}

// helperValue is the value of a helper's call as pytest's ID sees it.
func (w *evaluator) helperValue(n *sitter.Node, depth int) (pyVal, bool) {
	e, ok := w.callHelper(n, depth)
	if !ok {
		return pyVal{}, false
	}
	return w.elemValue(e, depth), true
}
