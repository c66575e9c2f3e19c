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
	if def == nil || depth > maxValueDepth || w.callDepth >= maxCallDepth {
		return elem{}, false
	}
	wrap := seqOther
	if scope == nil {
		var ok bool
		if wrap, ok = w.helperWrap(w.funcs[w.text(call.ChildByFieldName("function"))]); !ok {
			return elem{}, false
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

// hasYield reports a generator's body: a yield outside nested defs and
// lambdas.
func hasYield(n *sitter.Node) bool {
	if n == nil {
		return false
	}
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "yield":
			return true
		case "function_definition", "lambda", "class_definition", "decorated_definition":
			continue
		}
		if hasYield(c) {
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
		if name == nil {
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
		if !ok || fr.shared[name] {
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
	if !ok || fr.shared[name] {
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

// truth evaluates a condition: not, and, or, comparisons of numbers and
// strs, is None, and the truth of a known value.
func (w *evaluator) truth(n *sitter.Node, depth int) (bool, bool) {
	if n == nil || depth > maxValueDepth {
		return false, false
	}
	n = unparen(n)
	switch n.Type() {
	case "not_operator":
		t, ok := w.truth(n.ChildByFieldName("argument"), depth+1)
		return !t, ok
	case "boolean_operator":
		l, ok := w.truth(n.ChildByFieldName("left"), depth+1)
		if !ok {
			return false, false
		}
		op := w.text(n.ChildByFieldName("operator"))
		if op == "and" && !l || op == "or" && l {
			return l, true
		}
		return w.truth(n.ChildByFieldName("right"), depth+1)
	case "comparison_operator":
		return w.compare(n, depth)
	case "identifier":
		if e, ok := w.locals[w.text(n)]; ok && e.seq != nil {
			return len(e.seq.items) > 0, true
		}
	case "attribute":
		if e, ok := w.instanceAttr(n, depth+1); ok && e.n != nil {
			saved := w.locals
			w.locals = e.env
			defer func() { w.locals = saved }()
			return w.truth(e.n, depth+1)
		}
	}
	return truthy(w.value(n, depth+1))
}

// truthy is a known value's truth: bool, None, numbers and strs.
func truthy(v pyVal) (bool, bool) {
	if v.kind != vText {
		return false, false
	}
	switch {
	case v.str:
		return v.raw != "", true
	case !v.scalar:
		return true, true // a function's or class's __name__: the object is true
	case v.id == "True", v.id == "False", v.id == "None":
		return v.id == "True", true
	case v.num == numInt:
		return v.id != "0", true
	case v.num == numFloat:
		return v.f != 0, true
	}
	return false, false
}

// compare evaluates one comparison (no chains): is None, is not None,
// and ==, !=, <, <=, >, >= of two strs or two quantities (ints,
// timedeltas).
func (w *evaluator) compare(n *sitter.Node, depth int) (bool, bool) {
	var operands []*sitter.Node
	var words []string
	for i, nc := 0, int(n.ChildCount()); i < nc; i++ {
		c := n.Child(i)
		switch {
		case c.Type() == "comment":
		case c.IsNamed():
			operands = append(operands, c)
		default:
			words = append(words, w.text(c))
		}
	}
	if len(operands) != 2 {
		return false, false
	}
	op := strings.Join(words, " ")
	l, r := w.value(operands[0], depth+1), w.value(operands[1], depth+1)
	if op == "is" || op == "is not" {
		if !isNone(r) || l.kind != vText || !l.scalar && !l.str {
			return false, false
		}
		return isNone(l) == (op == "is"), true
	}
	var c int
	switch {
	case l.isStr() && r.isStr():
		c = strings.Compare(l.raw, r.raw)
	default:
		var ok bool
		if c, ok = w.compareQuantities(operands[0], operands[1], depth); !ok {
			return false, false
		}
	}
	switch op {
	case "==":
		return c == 0, true
	case "!=":
		return c != 0, true
	case "<":
		return c < 0, true
	case "<=":
		return c <= 0, true
	case ">":
		return c > 0, true
	case ">=":
		return c >= 0, true
	}
	return false, false
}

// helperValue is the value of a helper's call as pytest's ID sees it.
func (w *evaluator) helperValue(n *sitter.Node, depth int) (pyVal, bool) {
	e, ok := w.callHelper(n, depth)
	if !ok {
		return pyVal{}, false
	}
	return w.elemValue(e, depth), true
}

// helperWrap reads a module-level def's decorators: ok when each only
// memoizes (functools.cache, functools.lru_cache) or is a collector of
// the module (collector), whose kind the call's result becomes.
func (w *evaluator) helperWrap(n *sitter.Node) (wrap seqKind, ok bool) {
	for _, d := range decorators(n) {
		if d.Type() == "call" {
			d = d.ChildByFieldName("function")
		}
		switch w.resolve(w.text(d)) {
		case "functools.cache", "functools.lru_cache":
			continue
		}
		k, ok := w.collector(d)
		if !ok || wrap != seqOther {
			return seqOther, false
		}
		wrap = k
	}
	return wrap, true
}

// collector reports a decorator of the module that makes a function's
// result a list or a tuple, as dateutil's as_list does:
//
//	def as_list(f):
//	    @functools.wraps(f)
//	    def inner(*args, **kwargs):
//	        return list(f(*args, **kwargs))
//	    return inner
func (w *evaluator) collector(d *sitter.Node) (seqKind, bool) {
	if d.Type() != "identifier" || w.bindings[w.text(d)] != 1 || w.funcs[w.text(d)] == nil ||
		w.funcs[w.text(d)].Type() != "function_definition" {
		return seqOther, false
	}
	def := w.funcs[w.text(d)]
	params := children(def.ChildByFieldName("parameters"))
	if len(params) != 1 || params[0].Type() != "identifier" {
		return seqOther, false
	}
	f := w.text(params[0])
	body := statementsOf(def.ChildByFieldName("body"))
	if len(body) != 2 || body[1].Type() != "return_statement" || body[1].NamedChildCount() != 1 {
		return seqOther, false
	}
	inner := definition(body[0])
	if inner == nil || inner.Type() != "function_definition" || w.text(body[1].NamedChild(0)) != w.text(inner.ChildByFieldName("name")) {
		return seqOther, false
	}
	for _, dd := range decorators(body[0]) {
		if dd.Type() != "call" || w.resolve(w.text(dd.ChildByFieldName("function"))) != "functools.wraps" ||
			w.text(dd.ChildByFieldName("arguments")) != "("+f+")" {
			return seqOther, false
		}
	}
	ps := children(inner.ChildByFieldName("parameters"))
	ib := statementsOf(inner.ChildByFieldName("body"))
	if len(ps) != 2 || ps[0].Type() != "list_splat_pattern" || ps[1].Type() != "dictionary_splat_pattern" ||
		len(ib) != 1 || ib[0].Type() != "return_statement" || ib[0].NamedChildCount() != 1 {
		return seqOther, false
	}
	call := unparen(ib[0].NamedChild(0))
	if call.Type() != "call" {
		return seqOther, false
	}
	kind := map[string]seqKind{"list": seqList, "tuple": seqTuple}[w.text(call.ChildByFieldName("function"))]
	want := "(" + f + "(" + w.text(ps[0]) + ", " + w.text(ps[1]) + "))"
	if kind == seqOther || w.bindings[w.text(call.ChildByFieldName("function"))] != 0 ||
		strings.Join(strings.Fields(w.text(call.ChildByFieldName("arguments"))), " ") != want {
		return seqOther, false
	}
	return kind, true
}

// statementsOf is a block's statements, without comments and a leading
// docstring.
func statementsOf(block *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for _, s := range children(block) {
		if s.Type() == "comment" {
			continue
		}
		if len(out) == 0 && s.Type() == "expression_statement" && s.NamedChildCount() == 1 && s.NamedChild(0).Type() == "string" {
			continue
		}
		out = append(out, s)
	}
	return out
}

// dictItems reads d.items(), d.keys() or d.values() of a dict display
// (directly, through names, or as a helper's result) whose keys are
// distinct known strs or numbers and which has no ** splat: its pairs in
// order, each a (key, value) tuple for items().
func (w *evaluator) dictItems(obj *sitter.Node, method string, depth int) ([]elem, seqKind, bool) {
	e, ok := w.follow(elem{n: obj, env: w.locals}, depth)
	if !ok || e.n == nil || unparen(e.n).Type() != "dictionary" {
		return nil, seqOther, false
	}
	saved := w.locals
	w.locals = e.env
	defer func() { w.locals = saved }()
	seen := map[string]bool{}
	var out []elem
	for _, p := range children(unparen(e.n)) {
		if p.Type() == "comment" {
			continue
		}
		if p.Type() != "pair" {
			return nil, seqOther, false
		}
		k, v := p.ChildByFieldName("key"), p.ChildByFieldName("value")
		kv := w.value(k, depth+1)
		if kv.kind != vText || !kv.scalar && !kv.str || kv.bytes || seen[kv.id+"\x00"+kv.raw] {
			return nil, seqOther, false // an unknown or repeated key: the dict is smaller
		}
		seen[kv.id+"\x00"+kv.raw] = true
		ke, ve := elem{n: k, env: e.env}, elem{n: v, env: e.env}
		switch method {
		case "keys":
			out = append(out, ke)
		case "values":
			out = append(out, ve)
		default:
			out = append(out, seqElem([]elem{ke, ve}, seqTuple))
		}
	}
	return out, seqOther, true
}

// follow resolves an element through the names and helper calls it
// stands for, to the node that makes its value.
func (w *evaluator) follow(e elem, depth int) (elem, bool) {
	for i := 0; i < maxValueDepth; i++ {
		if e.n == nil {
			return e, true
		}
		n := unparen(e.n)
		switch n.Type() {
		case "identifier":
			if next, ok := e.env[w.text(n)]; ok {
				e = next
				continue
			}
			if v, ok := w.literal(w.text(n)); ok {
				e = elem{n: v}
				continue
			}
			return e, true
		case "call":
			saved := w.locals
			w.locals = e.env
			next, ok := w.callHelper(n, depth+1)
			w.locals = saved
			if !ok {
				return e, true
			}
			e = next
			continue
		}
		return e, true
	}
	return elem{}, false
}
