package python

import (
	"math/big"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Instances of the module's record classes, read over their source: a
// class made by attrs (attr.s, attr.define, attr.frozen, ...) or
// dataclasses, with no bases, whose fields are attr.ib() / field()
// assignments or (dataclass, define) annotations, and whose properties
// are @property methods returning one expression. An attribute of a call
// of such a class is the call's argument for the field (or the field's
// default), or the property's expression with self bound to the call;
// what the fields hold is evaluated only when a condition needs it.
// Conditions compare numbers and datetime.timedelta values (quantity).

// recordClass is what the evaluator knows of a record class: its fields
// in order, their defaults, and its one-expression properties.
type recordClass struct {
	fields   []string
	defaults map[string]*sitter.Node
	props    map[string]*sitter.Node
}

// recordDecorators make a class whose __init__ takes its fields in order.
var recordDecorators = map[string]bool{"attr.s": true, "attr.attrs": true, "attr.define": true,
	"attr.frozen": true, "attr.mutable": true, "attrs.define": true, "attrs.frozen": true,
	"attrs.mutable": true, "dataclasses.dataclass": true}

// fieldCalls declare an attrs field.
var fieldCalls = map[string]bool{"attr.ib": true, "attr.attrib": true, "attr.field": true, "attrs.field": true}

// record reads a module class as a record class; nil when it is not one.
func (w *evaluator) record(name string) *recordClass {
	n := w.classDefs[name]
	if n == nil || w.bindings[name] != 1 {
		return nil
	}
	if rc, ok := w.records[name]; ok {
		return rc
	}
	rc := w.readRecord(n)
	if w.records == nil {
		w.records = map[string]*recordClass{}
	}
	w.records[name] = rc
	return rc
}

func (w *evaluator) readRecord(n *sitter.Node) *recordClass {
	decs := decorators(n)
	d := definition(n)
	if len(decs) != 1 || d == nil {
		return nil
	}
	dec := decs[0]
	if dec.Type() == "call" {
		if dec.ChildByFieldName("arguments").NamedChildCount() != 0 {
			return nil // options such as auto_attribs or kw_only change __init__
		}
		dec = dec.ChildByFieldName("function")
	}
	kind := w.resolve(w.text(dec))
	if !recordDecorators[kind] {
		return nil
	}
	if sup := d.ChildByFieldName("superclasses"); sup != nil && sup.NamedChildCount() > 0 {
		return nil
	}
	annotated := kind == "dataclasses.dataclass" || kind != "attr.s" && kind != "attr.attrs"
	rc := &recordClass{defaults: map[string]*sitter.Node{}, props: map[string]*sitter.Node{}}
	for _, s := range statementsOf(d.ChildByFieldName("body")) {
		if !w.recordStatement(rc, s, annotated) {
			return nil
		}
	}
	return rc
}

// recordStatement reads one statement of a record class's body.
func (w *evaluator) recordStatement(rc *recordClass, s *sitter.Node, annotated bool) bool {
	switch s.Type() {
	case "pass_statement":
		return true
	case "decorated_definition":
		ds := decorators(s)
		f := definition(s)
		if len(ds) != 1 || w.text(ds[0]) != "property" || w.bindings["property"] != 0 || f.Type() != "function_definition" {
			return true // a method: not a field
		}
		body := statementsOf(f.ChildByFieldName("body"))
		if len(body) == 1 && body[0].Type() == "return_statement" && body[0].NamedChildCount() == 1 {
			rc.props[w.text(f.ChildByFieldName("name"))] = body[0].NamedChild(0)
		}
		return true
	case "function_definition":
		name := w.text(s.ChildByFieldName("name"))
		return name != "__init__" && name != "__attrs_post_init__" && name != "__post_init__"
	case "expression_statement":
	default:
		return false
	}
	a := s.NamedChild(0)
	if a == nil || a.Type() != "assignment" {
		return false
	}
	left, right, typ := a.ChildByFieldName("left"), a.ChildByFieldName("right"), a.ChildByFieldName("type")
	if left == nil || left.Type() != "identifier" {
		return false
	}
	name := w.text(left)
	if right != nil && right.Type() == "call" && fieldCalls[w.resolve(w.text(right.ChildByFieldName("function")))] {
		for _, arg := range children(right.ChildByFieldName("arguments")) {
			if arg.Type() != "keyword_argument" {
				return false
			}
			switch w.text(arg.ChildByFieldName("name")) {
			case "default":
				rc.defaults[name] = arg.ChildByFieldName("value")
			case "init", "factory", "kw_only", "alias", "converter":
				return false // the field is not set from the argument as given
			}
		}
		rc.fields = append(rc.fields, name)
		return true
	}
	if typ == nil || !annotated {
		return right != nil // a class attribute
	}
	if right != nil {
		rc.defaults[name] = right
	}
	rc.fields = append(rc.fields, name)
	return true
}

// instanceAttr reads obj.attr of an instance of a record class: the
// element it stands for (an argument of the call, a default, or a
// property's expression with self bound).
func (w *evaluator) instanceAttr(n *sitter.Node, depth int) (elem, bool) {
	if n == nil || n.Type() != "attribute" || depth > maxValueDepth {
		return elem{}, false
	}
	obj, attr := n.ChildByFieldName("object"), w.text(n.ChildByFieldName("attribute"))
	var inst elem
	if obj.Type() == "attribute" {
		e, ok := w.instanceAttr(obj, depth+1)
		if !ok {
			return elem{}, false
		}
		inst = e
	} else {
		inst = elem{n: obj, env: w.locals}
	}
	inst, ok := w.follow(inst, depth+1)
	if !ok || inst.n == nil || unparen(inst.n).Type() != "call" {
		return elem{}, false
	}
	call := unparen(inst.n)
	fn := call.ChildByFieldName("function")
	if fn.Type() != "identifier" {
		return elem{}, false
	}
	if _, local := inst.env[w.text(fn)]; local {
		return elem{}, false
	}
	rc := w.record(w.text(fn))
	if rc == nil {
		return elem{}, false
	}
	if p := rc.props[attr]; p != nil {
		return elem{n: p, env: map[string]elem{"self": inst}}, true
	}
	i := containsAt(rc.fields, attr)
	if i < 0 {
		return elem{}, false
	}
	var pos []*sitter.Node
	for _, a := range children(call.ChildByFieldName("arguments")) {
		switch a.Type() {
		case "comment":
		case "keyword_argument":
			if w.text(a.ChildByFieldName("name")) == attr {
				return elem{n: a.ChildByFieldName("value"), env: inst.env}, true
			}
		case "list_splat", "dictionary_splat", "parenthesized_list_splat":
			return elem{}, false
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) > len(rc.fields) {
		return elem{}, false
	}
	if i < len(pos) {
		return elem{n: pos[i], env: inst.env}, true
	}
	if d := rc.defaults[attr]; d != nil {
		return elem{n: d}, true
	}
	return elem{}, false
}

func containsAt(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// qKind tells the quantities compare apart.
type qKind int

const (
	qNone qKind = iota
	qInt
	qDelta // a datetime.timedelta, in microseconds
)

// quantity evaluates an int or a datetime.timedelta (as microseconds):
// literals, names, attributes of record instances, timedelta(...) of
// ints, unary minus, + and - of two of a kind and * by an int.
func (w *evaluator) quantity(n *sitter.Node, depth int) (*big.Int, qKind) {
	if n == nil || depth > maxValueDepth {
		return nil, qNone
	}
	n = unparen(n)
	switch n.Type() {
	case "integer":
		return intQuantity(numberValue(w.text(n)))
	case "unary_operator":
		q, k := w.quantity(n.ChildByFieldName("argument"), depth+1)
		switch w.text(n.ChildByFieldName("operator")) {
		case "-":
			if k != qNone {
				return new(big.Int).Neg(q), k
			}
		case "+":
			return q, k
		}
	case "identifier":
		e, ok := w.locals[w.text(n)]
		if !ok {
			if v, ok := w.literal(w.text(n)); ok {
				e, ok = elem{n: v}, true
			} else {
				return nil, qNone
			}
		}
		return w.elemQuantity(e, depth)
	case "attribute":
		if e, ok := w.instanceAttr(n, depth+1); ok {
			return w.elemQuantity(e, depth)
		}
	case "binary_operator":
		return w.binaryQuantity(n, depth)
	case "call":
		if q, k := w.timedelta(n, depth); k != qNone {
			return q, k
		}
	}
	return intQuantity(w.value(n, depth+1))
}

// intQuantity is an int value as a quantity.
func intQuantity(v pyVal) (*big.Int, qKind) {
	if v.kind != vText || v.num != numInt {
		return nil, qNone
	}
	i, ok := new(big.Int).SetString(v.id, 10)
	if !ok {
		return nil, qNone
	}
	return i, qInt
}

func (w *evaluator) elemQuantity(e elem, depth int) (*big.Int, qKind) {
	if e.n == nil {
		return intQuantity(e.v)
	}
	saved := w.locals
	w.locals = e.env
	defer func() { w.locals = saved }()
	return w.quantity(e.n, depth+1)
}

func (w *evaluator) binaryQuantity(n *sitter.Node, depth int) (*big.Int, qKind) {
	l, lk := w.quantity(n.ChildByFieldName("left"), depth+1)
	r, rk := w.quantity(n.ChildByFieldName("right"), depth+1)
	if lk == qNone || rk == qNone {
		return nil, qNone
	}
	switch w.text(n.ChildByFieldName("operator")) {
	case "+":
		if lk == rk {
			return new(big.Int).Add(l, r), lk
		}
	case "-":
		if lk == rk {
			return new(big.Int).Sub(l, r), lk
		}
	case "*":
		if lk == qInt || rk == qInt {
			return new(big.Int).Mul(l, r), max(lk, rk)
		}
	}
	return nil, qNone
}

// timedeltaUnits are datetime.timedelta's arguments, in order, in
// microseconds.
var timedeltaUnits = []struct {
	name string
	us   int64
}{{"days", 86400e6}, {"seconds", 1e6}, {"microseconds", 1}, {"milliseconds", 1e3},
	{"minutes", 60e6}, {"hours", 3600e6}, {"weeks", 7 * 86400e6}}

// timedelta evaluates datetime.timedelta(...) of ints.
func (w *evaluator) timedelta(n *sitter.Node, depth int) (*big.Int, qKind) {
	if w.resolve(w.text(n.ChildByFieldName("function"))) != "datetime.timedelta" {
		return nil, qNone
	}
	total := new(big.Int)
	seen := map[string]bool{}
	i := 0
	for _, a := range children(n.ChildByFieldName("arguments")) {
		unit := ""
		v := a
		switch a.Type() {
		case "comment":
			continue
		case "keyword_argument":
			unit, v = w.text(a.ChildByFieldName("name")), a.ChildByFieldName("value")
		case "list_splat", "dictionary_splat", "parenthesized_list_splat":
			return nil, qNone
		default:
			if i >= len(timedeltaUnits) {
				return nil, qNone
			}
			unit = timedeltaUnits[i].name
			i++
		}
		us := int64(0)
		for _, u := range timedeltaUnits {
			if u.name == unit {
				us = u.us
			}
		}
		q, k := w.quantity(v, depth+1)
		if us == 0 || k != qInt || seen[unit] {
			return nil, qNone
		}
		seen[unit] = true
		total.Add(total, new(big.Int).Mul(q, big.NewInt(us)))
	}
	return total, qDelta
}

// compareQuantities compares two quantities of one kind.
func (w *evaluator) compareQuantities(l, r *sitter.Node, depth int) (int, bool) {
	a, ak := w.quantity(l, depth+1)
	b, bk := w.quantity(r, depth+1)
	if ak == qNone || ak != bk {
		return 0, false
	}
	return a.Cmp(b), true
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
