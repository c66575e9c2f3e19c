package python

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// nsVal is a value of a class's namespace as its module's extractor
// reads it (classFact.NS), for a class decorator of another module to be
// run over (decoRun): K is "s" str, "i" int, "b" bool, "n" None, "t"
// tuple, "l" list, "d" dict (Keys, values in L), "f" a function or other
// callable, "?" not known.
type nsVal struct {
	K    string   `json:"k"`
	S    string   `json:"s,omitempty"`
	L    []*nsVal `json:"l,omitempty"`
	Keys []string `json:"d,omitempty"`
}

// nsEntry is one name of a class's namespace (its __dict__), in order.
type nsEntry struct {
	Name string `json:"n"`
	V    *nsVal `json:"v"`
}

// decoRun runs a class decorator's source (a module-level function of
// one parameter, its text) over a class's namespace, as Python would
// when the class is made: what it reads must be known, and it may only
// build strs, ints, tuples, lists and dicts (collections.defaultdict(list)
// too) from it, loop, branch, and set attributes of the class with
// setattr. It returns the names it sets to a callable, in order; ok is
// false when anything it does is not followed (a raise, an unknown
// value, a call of anything else).
func decoRun(src string, ns []nsEntry) (names []string, ok bool) {
	def := decoDef(src)
	if def == nil {
		return nil, false
	}
	params := kidsOf(def.field("parameters"))
	if len(params) != 1 || params[0].Type() != "identifier" {
		return nil, false
	}
	dict := &nsVal{K: "d"}
	for _, e := range ns {
		dict.Keys = append(dict.Keys, e.Name)
		dict.L = append(dict.L, e.V)
	}
	r := &decoRunner{env: map[string]*nsVal{params[0].text: {K: "c"}}, dict: dict, set: map[string]bool{}}
	defer func() {
		// decoFail, or a value of a shape the runner mishandles: the
		// class keeps its dynamic record either way.
		if recover() != nil {
			names, ok = nil, false
		}
	}()
	if !r.block(def.field("body")) && !r.returned {
		return nil, false
	}
	if !r.returned || !r.retCls {
		return nil, false // the name is bound to something else than the class
	}
	return r.names, true
}

// decoDefs are the decorators' definitions copied into Go, by source:
// a listing runs one decorator over many classes, and a long-lived
// process over many listings.
var decoDefs struct {
	sync.Mutex
	m map[string]*gnode
}

// decoDef parses a decorator's source into a gnode, memoised (nil for a
// source that is not one function definition).
func decoDef(src string) *gnode {
	decoDefs.Lock()
	def, ok := decoDefs.m[src]
	decoDefs.Unlock()
	if ok {
		return def
	}
	p, release := tsgrammars.Parser(tsgrammars.Python)
	defer release()
	data := []byte(src)
	tree, err := p.ParseCtx(context.Background(), nil, data)
	if err == nil && tree != nil {
		defer tree.Close()
		if root := tree.RootNode(); !root.HasError() && root.NamedChildCount() == 1 && root.NamedChild(0).Type() == "function_definition" {
			def = toGnode(root.NamedChild(0), data, 0)
		}
	}
	decoDefs.Lock()
	if decoDefs.m == nil || len(decoDefs.m) >= 64 {
		decoDefs.m = map[string]*gnode{}
	}
	decoDefs.m[src] = def
	decoDefs.Unlock()
	return def
}

// decoRunner is decoRun's state. What it does not follow panics with
// decoFail, which decoRun recovers.
type decoRunner struct {
	env      map[string]*nsVal
	dict     *nsVal // the class's __dict__
	names    []string
	set      map[string]bool
	steps    int
	returned bool
	retCls   bool
}

type decoFail struct{}

func (r *decoRunner) fail() { panic(decoFail{}) }

func (r *decoRunner) text(n *gnode) string { return n.text }

// block runs statements; false when a return ended it.
func (r *decoRunner) block(b *gnode) bool {
	if b == nil {
		r.fail()
	}
	for _, s := range kidsOf(b) {
		if r.steps++; r.steps > 200000 {
			r.fail()
		}
		if !r.statement(s) {
			return false
		}
	}
	return true
}

func (r *decoRunner) statement(s *gnode) bool {
	switch s.Type() {
	case "comment", "pass_statement":
	case "expression_statement":
		e := s.NamedChild(0)
		switch {
		case e == nil:
		case e.Type() == "string":
		case e.Type() == "assignment":
			r.assign(e)
		case e.Type() == "call":
			r.callStatement(e)
		default:
			r.fail()
		}
	case "if_statement":
		if r.truth(r.eval(s.field("condition"))) {
			return r.block(s.field("consequence"))
		}
		for _, c := range kidsOf(s) {
			switch c.Type() {
			case "elif_clause":
				if r.truth(r.eval(c.field("condition"))) {
					return r.block(c.field("consequence"))
				}
			case "else_clause":
				return r.block(c.field("body"))
			}
		}
	case "for_statement":
		for _, c := range kidsOf(s) {
			if c.Type() == "else_clause" {
				r.fail()
			}
		}
		for _, item := range r.iterate(r.eval(s.field("right"))) {
			r.bind(s.field("left"), item)
			if !r.block(s.field("body")) {
				return false
			}
		}
	case "return_statement":
		r.returned = true
		v := s.NamedChild(0)
		r.retCls = v != nil && r.eval(v).K == "c"
		return false
	default:
		r.fail()
	}
	return true
}

func (r *decoRunner) assign(a *gnode) {
	left, right := a.field("left"), a.field("right")
	if left == nil || right == nil || right.Type() == "assignment" {
		r.fail()
	}
	v := r.eval(right)
	switch left.Type() {
	case "identifier", "pattern_list", "tuple_pattern":
		r.bind(left, v)
	case "subscript":
		obj := r.eval(left.field("value"))
		key := r.eval(left.field("subscript"))
		if obj.K != "d" || key.K != "s" {
			r.fail()
		}
		r.dictSet(obj, key.S, v)
	case "attribute":
		// test.__name__ = name on a function the decorator made: no name
		// of the class changes.
		if obj := r.eval(left.field("object")); obj.K != "f" {
			r.fail()
		}
	default:
		r.fail()
	}
}

func (r *decoRunner) dictSet(d *nsVal, k string, v *nsVal) {
	for i, key := range d.Keys {
		if key == k {
			d.L[i] = v
			return
		}
	}
	d.Keys, d.L = append(d.Keys, k), append(d.L, v)
}

func (r *decoRunner) bind(target *gnode, v *nsVal) {
	target = gUnparen(target)
	switch target.Type() {
	case "identifier":
		r.env[r.text(target)] = v
	case "pattern_list", "tuple_pattern", "tuple":
		ts := kidsOf(target)
		items := r.iterate(v)
		if len(items) != len(ts) {
			r.fail()
		}
		for i, t := range ts {
			r.bind(t, items[i])
		}
	default:
		r.fail()
	}
}

// callStatement runs setattr(cls, name, value) and list.append(x).
func (r *decoRunner) callStatement(c *gnode) {
	fn := c.field("function")
	args := kidsOf(c.field("arguments"))
	switch {
	case fn.Type() == "identifier" && r.text(fn) == "setattr" && r.env["setattr"] == nil && len(args) == 3:
		if r.eval(args[0]).K != "c" {
			r.fail()
		}
		name, v := r.eval(args[1]), r.eval(args[2])
		if name.K != "s" || v.K != "f" {
			r.fail() // a name hidden or set to a value: not followed
		}
		if !r.set[name.S] {
			r.set[name.S] = true
			r.names = append(r.names, name.S)
		}
	case fn.Type() == "attribute" && r.text(fn.field("attribute")) == "append" && len(args) == 1:
		list := r.eval(fn.field("object"))
		if list.K != "l" {
			r.fail()
		}
		list.L = append(list.L, r.eval(args[0]))
	default:
		r.fail()
	}
}

func (r *decoRunner) truth(v *nsVal) bool {
	switch v.K {
	case "b":
		return v.S == "True"
	case "n":
		return false
	case "s":
		return v.S != ""
	case "i":
		return v.S != "0"
	case "t", "l", "d":
		return len(v.L) > 0 || len(v.Keys) > 0
	case "f", "c":
		return true
	}
	r.fail()
	return false
}

// iterate lists what a for loop over v sees: a dict's keys, a sequence's
// items, a str's characters.
func (r *decoRunner) iterate(v *nsVal) []*nsVal {
	switch v.K {
	case "t", "l":
		return v.L
	case "d":
		out := make([]*nsVal, len(v.Keys))
		for i, k := range v.Keys {
			out[i] = &nsVal{K: "s", S: k}
		}
		return out
	case "s":
		var out []*nsVal
		for _, c := range v.S {
			out = append(out, &nsVal{K: "s", S: string(c)})
		}
		return out
	}
	r.fail()
	return nil
}

func boolVal(b bool) *nsVal {
	if b {
		return &nsVal{K: "b", S: "True"}
	}
	return &nsVal{K: "b", S: "False"}
}

func (r *decoRunner) eval(n *gnode) *nsVal {
	n = gUnparen(n)
	if n == nil {
		r.fail()
	}
	if r.steps++; r.steps > 200000 {
		r.fail()
	}
	switch n.Type() {
	case "identifier":
		if v, ok := r.env[r.text(n)]; ok {
			return v
		}
	case "string":
		if s, ok := plainString(r.text(n)); ok {
			return &nsVal{K: "s", S: s}
		}
	case "integer":
		if i, err := strconv.ParseInt(r.text(n), 10, 64); err == nil {
			return &nsVal{K: "i", S: strconv.FormatInt(i, 10)}
		}
	case "true":
		return boolVal(true)
	case "false":
		return boolVal(false)
	case "none":
		return &nsVal{K: "n"}
	case "lambda":
		return &nsVal{K: "f"}
	case "dictionary":
		if n.NamedChildCount() == 0 {
			return &nsVal{K: "d"}
		}
	case "tuple":
		out := &nsVal{K: "t"}
		for _, c := range kidsOf(n) {
			out.L = append(out.L, r.eval(c))
		}
		return out
	case "unary_operator":
		v := r.eval(n.field("argument"))
		if r.text(n.field("operator")) == "-" && v.K == "i" {
			if i, err := strconv.ParseInt(v.S, 10, 64); err == nil {
				return &nsVal{K: "i", S: strconv.FormatInt(-i, 10)}
			}
		}
	case "conditional_expression":
		if parts := kidsOf(n); len(parts) == 3 {
			if r.truth(r.eval(parts[1])) {
				return r.eval(parts[0])
			}
			return r.eval(parts[2])
		}
	case "not_operator":
		return boolVal(!r.truth(r.eval(n.field("argument"))))
	case "boolean_operator":
		l := r.eval(n.field("left"))
		if (r.text(n.field("operator")) == "and") != r.truth(l) {
			return l
		}
		return r.eval(n.field("right"))
	case "binary_operator":
		l, rt := r.eval(n.field("left")), r.eval(n.field("right"))
		if r.text(n.field("operator")) == "+" && l.K == "s" && rt.K == "s" {
			return &nsVal{K: "s", S: l.S + rt.S}
		}
	case "comparison_operator":
		return r.compare(n)
	case "attribute":
		obj, attr := r.eval(n.field("object")), r.text(n.field("attribute"))
		if obj.K == "c" && attr == "__dict__" {
			return r.dict
		}
	case "subscript":
		return r.subscript(n)
	case "call":
		return r.call(n)
	case "generator_expression", "list_comprehension":
		return r.comprehension(n)
	}
	r.fail()
	return nil
}

// plainString is a str literal's value when it has no prefix, escape or
// field.
func plainString(t string) (string, bool) {
	if len(t) < 2 || (t[0] != '\'' && t[0] != '"') || strings.ContainsRune(t, '\\') || strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, "'''") {
		return "", false
	}
	return t[1 : len(t)-1], true
}

func (r *decoRunner) compare(n *gnode) *nsVal {
	if n.NamedChildCount() != 2 {
		r.fail()
	}
	op := ""
	for i := 0; i < int(n.ChildCount()); i++ {
		if c := n.Child(i); !c.IsNamed() {
			op = strings.TrimSpace(op + " " + c.Type())
		}
	}
	l, rt := r.eval(n.NamedChild(0)), r.eval(n.NamedChild(1))
	switch op {
	case "in", "not in":
		in := false
		switch {
		case rt.K == "s" && l.K == "s":
			in = strings.Contains(rt.S, l.S)
		case rt.K == "d" && l.K == "s":
			for _, k := range rt.Keys {
				in = in || k == l.S
			}
		default:
			r.fail()
		}
		return boolVal(in == (op == "in"))
	case "==", "!=":
		if l.K != rt.K || (l.K != "s" && l.K != "i") {
			r.fail()
		}
		return boolVal((l.S == rt.S) == (op == "=="))
	}
	r.fail()
	return nil
}

func (r *decoRunner) subscript(n *gnode) *nsVal {
	obj := r.eval(n.field("value"))
	sub := gUnparen(n.field("subscript"))
	if sub.Type() == "slice" {
		if obj.K != "s" {
			r.fail()
		}
		bounds := [2]int{0, len(obj.S)}
		colon := false
		for i := 0; i < int(sub.ChildCount()); i++ {
			c := sub.Child(i)
			switch {
			case c.Type() == ":":
				if colon {
					r.fail() // a step
				}
				colon = true
			case c.IsNamed():
				v := r.eval(c)
				idx, err := strconv.Atoi(v.S)
				if v.K != "i" || err != nil {
					r.fail()
				}
				if idx < 0 {
					idx += len(obj.S)
				}
				bounds[map[bool]int{false: 0, true: 1}[colon]] = max(0, min(idx, len(obj.S)))
			}
		}
		if bounds[0] > bounds[1] {
			return &nsVal{K: "s"}
		}
		return &nsVal{K: "s", S: obj.S[bounds[0]:bounds[1]]}
	}
	key := r.eval(sub)
	switch {
	case obj.K == "d" && key.K == "s":
		for i, k := range obj.Keys {
			if k == key.S {
				return obj.L[i]
			}
		}
		if obj.S == "defaultdict(list)" {
			v := &nsVal{K: "l"}
			r.dictSet(obj, key.S, v)
			return v
		}
	case (obj.K == "t" || obj.K == "l") && key.K == "i":
		i, _ := strconv.Atoi(key.S)
		if i < 0 {
			i += len(obj.L)
		}
		if i >= 0 && i < len(obj.L) {
			return obj.L[i]
		}
	}
	r.fail()
	return nil
}

func (r *decoRunner) comprehension(n *gnode) *nsVal {
	body := n.field("body")
	var clause *gnode
	for _, c := range kidsOf(n) {
		switch c.Type() {
		case "for_in_clause":
			if clause != nil {
				r.fail()
			}
			clause = c
		case "if_clause":
			r.fail()
		}
	}
	if clause == nil || body == nil {
		r.fail()
	}
	saved := map[string]*nsVal{}
	for k, v := range r.env {
		saved[k] = v
	}
	out := &nsVal{K: "l"}
	for _, item := range r.iterate(r.eval(clause.field("right"))) {
		r.bind(clause.field("left"), item)
		out.L = append(out.L, r.eval(body))
	}
	r.env = saved
	return out
}

func (r *decoRunner) call(n *gnode) *nsVal {
	fn := n.field("function")
	args := kidsOf(n.field("arguments"))
	if a := n.field("arguments"); a != nil && a.Type() == "generator_expression" {
		args = []*gnode{a} // f(x for x in y)
	}
	if fn.Type() == "identifier" {
		name := r.text(fn)
		if _, shadowed := r.env[name]; shadowed {
			r.fail()
		}
		switch {
		case name == "str" && len(args) == 1:
			v := r.eval(args[0])
			switch v.K {
			case "s", "i", "b":
				return &nsVal{K: "s", S: v.S}
			case "n":
				return &nsVal{K: "s", S: "None"}
			}
		case name == "len" && len(args) == 1:
			v := r.eval(args[0])
			switch v.K {
			case "s":
				return &nsVal{K: "i", S: strconv.Itoa(len([]rune(v.S)))}
			case "t", "l", "d":
				return &nsVal{K: "i", S: strconv.Itoa(len(v.L))}
			}
		case name == "hasattr" && len(args) == 2:
			return r.hasattr(r.eval(args[0]), r.eval(args[1]))
		}
		r.fail()
	}
	if fn.Type() != "attribute" {
		r.fail()
	}
	if r.text(fn) == "collections.defaultdict" && len(args) == 1 && r.text(args[0]) == "list" && r.env["collections"] == nil {
		return &nsVal{K: "d", S: "defaultdict(list)"}
	}
	obj, method := r.eval(fn.field("object")), r.text(fn.field("attribute"))
	vals := make([]*nsVal, len(args))
	for i, a := range args {
		if a.Type() == "keyword_argument" {
			r.fail()
		}
		vals[i] = r.eval(a)
	}
	return r.method(obj, method, vals)
}

func (r *decoRunner) hasattr(v, attr *nsVal) *nsVal {
	if attr.K != "s" {
		r.fail()
	}
	switch attr.S {
	case "keys":
		switch v.K {
		case "d":
			return boolVal(true)
		case "s", "i", "b", "n", "t", "l":
			return boolVal(false)
		}
	case "__iter__":
		switch v.K {
		case "s", "t", "l", "d":
			return boolVal(true)
		case "i", "b", "n":
			return boolVal(false)
		}
	}
	r.fail()
	return nil
}

func (r *decoRunner) method(obj *nsVal, method string, args []*nsVal) *nsVal {
	str := func(i int) string {
		if i >= len(args) || args[i].K != "s" {
			r.fail()
		}
		return args[i].S
	}
	switch {
	case obj.K == "d" && method == "items" && len(args) == 0:
		out := &nsVal{K: "l"}
		for i, k := range obj.Keys {
			out.L = append(out.L, &nsVal{K: "t", L: []*nsVal{{K: "s", S: k}, obj.L[i]}})
		}
		return out
	case obj.K == "d" && method == "keys" && len(args) == 0:
		return &nsVal{K: "l", L: r.iterate(obj)}
	case obj.K != "s":
	case method == "endswith" && len(args) == 1:
		return boolVal(strings.HasSuffix(obj.S, str(0)))
	case method == "startswith" && len(args) == 1:
		return boolVal(strings.HasPrefix(obj.S, str(0)))
	case method == "replace" && len(args) == 2:
		return &nsVal{K: "s", S: strings.ReplaceAll(obj.S, str(0), str(1))}
	case method == "split" && len(args) == 1 && str(0) != "":
		out := &nsVal{K: "l"}
		for _, part := range strings.Split(obj.S, str(0)) {
			out.L = append(out.L, &nsVal{K: "s", S: part})
		}
		return out
	case method == "join" && len(args) == 1:
		var parts []string
		for _, p := range r.iterate(args[0]) {
			if p.K != "s" {
				r.fail()
			}
			parts = append(parts, p.S)
		}
		return &nsVal{K: "s", S: strings.Join(parts, obj.S)}
	}
	r.fail()
	return nil
}

// runDecorators runs, over each class of a module it decorates alone, a
// class decorator of another module that reads the class's __dict__
// (MutSrc), and sets the test names it adds as the class's methods, so
// that the classes deriving from it have them too; the class's dynamic
// record for the decorator goes. A class with any other decorator (but
// unittest's) or whose namespace is not known keeps its record.
func (l *linker) runDecorators(cl *classes, m *modFile) {
	calls := map[string][]string{}
	for _, f := range m.facts.Dyn {
		if f.Why != whyDecorator {
			continue
		}
		first, rest, _ := strings.Cut(f.Call, ".")
		if full := m.facts.Imports[first]; full == "unittest" || strings.HasPrefix(full+"."+rest, "unittest.") {
			continue // unittest's skips and expectedFailure add no names
		}
		calls[f.Class] = append(calls[f.Class], f.Call)
	}
	for class, fns := range calls {
		i := m.findClass(class)
		if len(fns) != 1 || i < 0 || m.facts.Classes[i].NS == nil {
			continue
		}
		mod, name := l.function(cl, m, fns[0])
		if mod == nil || mod.facts.MutSrc[name] == "" {
			continue
		}
		names, ok := decoRun(mod.facts.MutSrc[name], m.facts.Classes[i].NS)
		if !ok {
			continue
		}
		c := &m.facts.Classes[i]
		for _, n := range names {
			if strings.HasPrefix(n, "test") && !slices.ContainsFunc(c.Methods, func(f fnFact) bool { return f.Name == n }) {
				c.Methods = append(c.Methods, fnFact{Name: n, Line: c.Line})
			}
		}
		if m.decorated == nil {
			m.decorated = map[string]bool{}
		}
		m.decorated[class] = true
	}
}
