package python

import (
	"maps"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// elem is one element of a sequence pytest iterates (argvalues, ids=): a
// node evaluated with the comprehension variables of env bound, or (n
// nil) a value computed already: an integer of range(), a character of
// a str.
type elem struct {
	n   *sitter.Node
	env map[string]elem
	v   pyVal
	// seq is a sequence a helper function built (funcs.go; n nil, v an
	// object), def a function a helper defined, called in scope.
	seq   *seqVal
	def   *sitter.Node
	scope *frame
}

// seqVal is a sequence a helper built: its elements and type.
type seqVal struct {
	items []elem
	kind  seqKind
}

// maxElems bounds the rows a sequence may expand to (packaging's
// version comparisons are 25,392 rows of one table).
const maxElems = 50000

// seqKind tells the sequence types apart for +, which Python refuses
// between a list and a tuple (the module then fails to import).
type seqKind int

const (
	seqOther seqKind = iota
	seqList
	seqTuple
)

// elemValue evaluates one element as pytest's ID sees it.
func (w *evaluator) elemValue(e elem, depth int) pyVal {
	if e.n == nil {
		return e.v
	}
	saved := w.locals
	w.locals = e.env
	defer func() { w.locals = saved }()
	return w.value(e.n, depth+1)
}

// argvalues reads a sequence: a list or tuple display (with *splats), a
// list comprehension or generator expression over known sequences,
// range() of integers, list() or tuple() of a sequence, the
// concatenation of two lists or two tuples, or a name bound to one of
// those (a comprehension variable, or a module-level name).
func (w *evaluator) argvalues(n *sitter.Node, depth int) ([]elem, bool) {
	out, _, ok := w.sequence(n, depth)
	return out, ok
}

func (w *evaluator) sequence(n *sitter.Node, depth int) ([]elem, seqKind, bool) {
	if n == nil || depth > 20 || w.spent() {
		return nil, seqOther, false
	}
	n = unparen(n)
	copied := w.copying
	w.copying = false
	switch n.Type() {
	case "list", "tuple", "expression_list":
		out, ok := w.display(n, depth)
		kind := seqList
		if n.Type() == "tuple" {
			kind = seqTuple
		}
		return out, kind, ok
	case "list_comprehension", "generator_expression":
		out, ok := w.comprehension(n, depth)
		return out, seqList, ok
	case "identifier":
		name := w.text(n)
		if e, ok := w.locals[name]; ok {
			if e.n == nil {
				if e.seq != nil {
					return e.seq.items, e.seq.kind, true
				}
				return nil, seqOther, false
			}
			if w.spentName(n, e.n, e.env) {
				return nil, seqOther, false
			}
			saved := w.locals
			w.locals = e.env
			defer func() { w.locals = saved }()
			return w.sequence(e.n, depth+1)
		}
		if hs, in, unknown := w.classBinding(n); in {
			if unknown {
				return nil, seqOther, false
			}
			return w.seqOver(hs, n.StartByte(), copied, depth)
		}
		if v, ok := w.literal(name); ok {
			if w.spentName(n, v, nil) {
				return nil, seqOther, false
			}
			saved := w.locals
			w.locals = nil
			defer func() { w.locals = saved }()
			return w.sequence(v, depth+1)
		}
		if w.bindings[name] > 1 && !insideDef(n) {
			return w.seqAt(name, n.StartByte(), copied, depth)
		}
	case "binary_operator":
		if w.text(n.ChildByFieldName("operator")) != "+" {
			break
		}
		l, lk, ok := w.sequence(n.ChildByFieldName("left"), depth+1)
		if !ok || lk == seqOther {
			break
		}
		r, rk, ok := w.sequence(n.ChildByFieldName("right"), depth+1)
		if !ok || rk != lk || len(l)+len(r) > maxElems {
			break
		}
		return append(append([]elem(nil), l...), r...), lk, true
	case "call":
		return w.seqCall(n, depth)
	case "subscript":
		if out, kind, ok := w.sliceOf(n, depth); ok {
			return out, kind, ok
		}
		if e, ok := w.indexElem(n, depth); ok {
			return w.seqOf(e, depth)
		}
	case "string", "concatenated_string":
		// A str iterates over its characters.
		v := w.value(n, depth+1)
		if !v.isStr() || len(v.raw) > maxElems {
			break
		}
		var out []elem
		for _, r := range v.raw {
			out = append(out, elem{v: w.strVal(string(r), false)})
		}
		return out, seqOther, true
	}
	return nil, seqOther, false
}

// seqCall reads range(...), list(seq) and tuple(seq) of the builtins,
// str.split of a known str, and what a helper function returns.
func (w *evaluator) seqCall(n *sitter.Node, depth int) ([]elem, seqKind, bool) {
	fn := n.ChildByFieldName("function")
	if fn.Type() == "attribute" {
		switch attr := w.text(fn.ChildByFieldName("attribute")); {
		case attr == "split":
			return w.splitValues(fn.ChildByFieldName("object"), children(n.ChildByFieldName("arguments")), depth)
		case (attr == "items" || attr == "keys" || attr == "values") && n.ChildByFieldName("arguments").NamedChildCount() == 0:
			return w.dictItems(fn.ChildByFieldName("object"), attr, depth)
		}
	}
	if e, ok := w.callHelper(n, depth); ok {
		return w.seqOf(e, depth)
	}
	if out, kind, ok := w.iterCall(n, depth); ok {
		return out, kind, true
	}
	name := w.text(fn)
	if fn.Type() != "identifier" || w.bindings[name] != 0 {
		return nil, seqOther, false
	}
	if _, local := w.locals[name]; local {
		return nil, seqOther, false
	}
	args := callArgs(n)
	switch name {
	case "range":
		out, ok := w.rangeValues(args, depth)
		return out, seqOther, ok
	case "list", "tuple":
		if len(args) != 1 || args[0].Type() == "keyword_argument" {
			break
		}
		w.copying = true // list(X) and tuple(X) copy X as it is now
		out, _, ok := w.sequence(args[0], depth+1)
		w.copying = false
		kind := seqList
		if name == "tuple" {
			kind = seqTuple
		}
		return out, kind, ok
	}
	return nil, seqOther, false
}

// display reads the elements of a list or tuple display, expanding
// *splats of known sequences.
func (w *evaluator) display(n *sitter.Node, depth int) ([]elem, bool) {
	var out []elem
	for _, c := range children(n) {
		if c.Type() == "list_splat" || c.Type() == "parenthesized_list_splat" {
			items, _, ok := w.sequence(splatArg(c), depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, items...)
		} else {
			out = append(out, elem{n: c, env: w.locals})
		}
		if len(out) > maxElems {
			return nil, false
		}
	}
	return out, true
}

// splatArg is the expression a *splat unpacks.
func splatArg(c *sitter.Node) *sitter.Node {
	for c != nil && (c.Type() == "list_splat" || c.Type() == "parenthesized_list_splat") {
		if c.NamedChildCount() == 0 {
			return nil
		}
		c = c.NamedChild(0)
	}
	return c
}

// comprehension expands [body for target in seq ...] over known
// sequences, the first for clause outermost; an if clause keeps the
// elements whose condition the evaluator knows true (one it does not
// know leaves the comprehension unknown).
func (w *evaluator) comprehension(n *sitter.Node, depth int) ([]elem, bool) {
	body := n.ChildByFieldName("body")
	var clauses []*sitter.Node
	for _, c := range children(n) {
		switch c.Type() {
		case "for_in_clause", "if_clause":
			clauses = append(clauses, c)
		}
	}
	if body == nil || len(clauses) == 0 || clauses[0].Type() != "for_in_clause" {
		return nil, false
	}
	var out []elem
	var loop func(i int, env map[string]elem) bool
	loop = func(i int, env map[string]elem) bool {
		if i == len(clauses) {
			out = append(out, elem{n: body, env: env})
			return len(out) <= maxElems
		}
		saved := w.locals
		w.locals = env
		if clauses[i].Type() == "if_clause" {
			t, ok := false, clauses[i].NamedChildCount() == 1
			if ok {
				t, ok = w.truth(clauses[i].NamedChild(0), depth+1)
			}
			w.locals = saved
			return ok && (!t || loop(i+1, env))
		}
		items, _, ok := w.sequence(clauses[i].ChildByFieldName("right"), depth+1)
		w.locals = saved
		if !ok {
			return false
		}
		for _, it := range items {
			inner := maps.Clone(env)
			if inner == nil {
				inner = map[string]elem{}
			}
			if !w.bind(clauses[i].ChildByFieldName("left"), it, inner, depth) || !loop(i+1, inner) {
				return false
			}
		}
		return true
	}
	if !loop(0, w.locals) {
		return nil, false
	}
	return out, true
}

// bind binds a for target (a name, or a tuple of targets unpacking a
// known sequence of the same length) to an element.
func (w *evaluator) bind(target *sitter.Node, e elem, env map[string]elem, depth int) bool {
	if target == nil {
		return false
	}
	target = unparen(target)
	switch target.Type() {
	case "identifier":
		env[w.text(target)] = e
		return true
	case "pattern_list", "tuple_pattern", "list_pattern", "tuple", "list":
		items, _, ok := w.seqOf(e, depth)
		targets := children(target)
		if !ok || len(items) != len(targets) {
			return false
		}
		for i, t := range targets {
			if !w.bind(t, items[i], env, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// rangeValues expands range(stop) and range(start, stop[, step]) of
// integers.
func (w *evaluator) rangeValues(args []*sitter.Node, depth int) ([]elem, bool) {
	var nums []int
	for _, a := range args {
		v := w.value(a, depth+1)
		if v.kind != vText || v.num != numInt {
			return nil, false
		}
		i, err := strconv.Atoi(v.id)
		if err != nil {
			return nil, false
		}
		nums = append(nums, i)
	}
	start, stop, step := 0, 0, 1
	switch len(nums) {
	case 1:
		stop = nums[0]
	case 2, 3:
		start, stop = nums[0], nums[1]
		if len(nums) == 3 {
			step = nums[2]
		}
	default:
		return nil, false
	}
	if step == 0 {
		return nil, false
	}
	var out []elem
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		if len(out) >= maxElems {
			return nil, false
		}
		out = append(out, elem{v: pyVal{kind: vText, id: strconv.Itoa(i), scalar: true, num: numInt}})
	}
	return out, true
}

// splitValues is str.split() (on runs of ASCII whitespace; text with
// other characters Python may count as whitespace is not read) or
// str.split(sep) of a literal separator.
func (w *evaluator) splitValues(obj *sitter.Node, args []*sitter.Node, depth int) ([]elem, seqKind, bool) {
	v := w.value(obj, depth+1)
	if !v.isStr() || len(args) > 1 {
		return nil, seqOther, false
	}
	var parts []string
	if len(args) == 0 {
		for _, r := range v.raw {
			if r > 0x7f || (r >= 0x1c && r <= 0x1f) {
				return nil, seqOther, false
			}
		}
		parts = strings.Fields(v.raw)
	} else {
		sep := w.value(args[0], depth+1)
		if args[0].Type() != "string" || !sep.isStr() || sep.raw == "" {
			return nil, seqOther, false
		}
		parts = strings.Split(v.raw, sep.raw)
	}
	if len(parts) > maxElems {
		return nil, seqOther, false
	}
	out := make([]elem, len(parts))
	for i, p := range parts {
		out[i] = elem{v: w.strVal(p, false)}
	}
	return out, seqList, true
}
