package python

import (
	"strconv"

	sitter "github.com/smacker/go-tree-sitter"
)

// iterCall reads the iterators of itertools and the builtins that tables
// are built with, over known sequences: itertools.product (repeat= too),
// chain, chain.from_iterable, zip (itertools.repeat(x) as one of its
// arguments), enumerate, and map(list, ...) or map(tuple, ...). Each
// yields tuples the interpreter built. Python's iterator is spent after
// one pass: a name bound to one is read only where that is its one read
// (spent.go).
func (w *evaluator) iterCall(n *sitter.Node, depth int) ([]elem, seqKind, bool) {
	fn := n.ChildByFieldName("function")
	name := w.resolve(w.text(fn))
	if fn.Type() == "identifier" && (w.bindings[name] != 0 || inLocals(w.locals, name)) {
		return nil, seqOther, false
	}
	args := callArgs(n)
	switch name {
	case "itertools.product":
		return w.product(args, depth)
	case "itertools.chain":
		var out []elem
		for _, a := range args {
			items, ok := w.plainSeq(a, depth)
			if !ok || len(out)+len(items) > maxElems {
				return nil, seqOther, false
			}
			out = append(out, items...)
		}
		return out, seqOther, true
	case "itertools.chain.from_iterable":
		if len(args) != 1 {
			return nil, seqOther, false
		}
		outer, ok := w.plainSeq(args[0], depth)
		if !ok {
			return nil, seqOther, false
		}
		var out []elem
		for _, e := range outer {
			items, _, ok := w.seqOf(e, depth+1)
			if !ok || len(out)+len(items) > maxElems {
				return nil, seqOther, false
			}
			out = append(out, items...)
		}
		return out, seqOther, true
	case "zip":
		return w.zip(args, depth)
	case "enumerate":
		if len(args) != 1 {
			return nil, seqOther, false
		}
		items, ok := w.plainSeq(args[0], depth)
		if !ok {
			return nil, seqOther, false
		}
		out := make([]elem, len(items))
		for i, it := range items {
			out[i] = seqElem([]elem{{v: pyVal{kind: vText, id: strconv.Itoa(i), scalar: true, num: numInt}}, it}, seqTuple)
		}
		return out, seqOther, true
	case "map":
		if len(args) != 2 || args[0].Type() != "identifier" || w.bindings[w.text(args[0])] != 0 ||
			w.text(args[0]) != "list" && w.text(args[0]) != "tuple" {
			return nil, seqOther, false
		}
		kind := seqList
		if w.text(args[0]) == "tuple" {
			kind = seqTuple
		}
		items, ok := w.plainSeq(args[1], depth)
		if !ok {
			return nil, seqOther, false
		}
		out := make([]elem, len(items))
		for i, it := range items {
			inner, _, ok := w.seqOf(it, depth+1)
			if !ok {
				return nil, seqOther, false
			}
			out[i] = seqElem(inner, kind)
		}
		return out, seqOther, true
	}
	return nil, seqOther, false
}

// callArgs is a call's arguments: f(x for x in y) has one, the
// generator expression that tree-sitter gives as the arguments.
func callArgs(call *sitter.Node) []*sitter.Node {
	a := call.ChildByFieldName("arguments")
	if a == nil {
		return nil
	}
	if a.Type() == "generator_expression" {
		return []*sitter.Node{a}
	}
	return children(a)
}

func inLocals(env map[string]elem, name string) bool {
	_, ok := env[name]
	return ok
}

// plainSeq reads a positional argument as a sequence.
func (w *evaluator) plainSeq(a *sitter.Node, depth int) ([]elem, bool) {
	switch a.Type() {
	case "keyword_argument", "list_splat", "dictionary_splat", "parenthesized_list_splat":
		return nil, false
	}
	items, _, ok := w.sequence(a, depth+1)
	return items, ok
}

// product is itertools.product(*seqs, repeat=n).
func (w *evaluator) product(args []*sitter.Node, depth int) ([]elem, seqKind, bool) {
	var pools [][]elem
	repeat := 1
	for _, a := range args {
		if a.Type() == "keyword_argument" {
			v := w.value(a.ChildByFieldName("value"), depth+1)
			r, err := strconv.Atoi(v.id)
			if w.text(a.ChildByFieldName("name")) != "repeat" || v.kind != vText || v.num != numInt || err != nil || r < 0 {
				return nil, seqOther, false
			}
			repeat = r
			continue
		}
		items, ok := w.plainSeq(a, depth)
		if !ok {
			return nil, seqOther, false
		}
		pools = append(pools, items)
	}
	var all [][]elem
	for i := 0; i < repeat; i++ {
		all = append(all, pools...)
	}
	rows := [][]elem{nil}
	for _, pool := range all {
		if len(rows)*len(pool) > maxElems {
			return nil, seqOther, false
		}
		var next [][]elem
		for _, r := range rows {
			for _, it := range pool {
				next = append(next, append(append([]elem(nil), r...), it))
			}
		}
		rows = next
	}
	out := make([]elem, len(rows))
	for i, r := range rows {
		out[i] = seqElem(r, seqTuple)
	}
	return out, seqOther, true
}

// zip is zip(*seqs), itertools.repeat(x) standing for x as often as the
// others need (zip stops at the shortest).
func (w *evaluator) zip(args []*sitter.Node, depth int) ([]elem, seqKind, bool) {
	pools := make([][]elem, len(args))
	forever := make([]*elem, len(args))
	shortest := -1
	for i, a := range args {
		if a.Type() == "call" && w.resolve(w.text(a.ChildByFieldName("function"))) == "itertools.repeat" {
			if ra := children(a.ChildByFieldName("arguments")); len(ra) == 1 && ra[0].Type() != "keyword_argument" {
				forever[i] = &elem{n: ra[0], env: w.locals}
				continue
			}
		}
		items, ok := w.plainSeq(a, depth)
		if !ok {
			return nil, seqOther, false
		}
		pools[i] = items
		if shortest < 0 || len(items) < shortest {
			shortest = len(items)
		}
	}
	if shortest < 0 {
		return nil, seqOther, false // only repeats: endless
	}
	out := make([]elem, shortest)
	for j := range out {
		row := make([]elem, len(args))
		for i := range args {
			if forever[i] != nil {
				row[i] = *forever[i]
			} else {
				row[i] = pools[i][j]
			}
		}
		out[j] = seqElem(row, seqTuple)
	}
	return out, seqOther, true
}

// sliceOf reads seq[a:b] (and [a:b:c]) of a known list or tuple, with
// int bounds.
func (w *evaluator) sliceOf(n *sitter.Node, depth int) ([]elem, seqKind, bool) {
	subs := children(n)
	if len(subs) != 2 || subs[1].Type() != "slice" {
		return nil, seqOther, false
	}
	items, kind, ok := w.sequence(n.ChildByFieldName("value"), depth+1)
	if !ok || kind == seqOther {
		return nil, seqOther, false
	}
	// slice's children: up to three expressions split by ':'.
	var parts [3]*sitter.Node
	k := 0
	s := subs[1]
	for i, nc := 0, int(s.ChildCount()); i < nc; i++ {
		c := s.Child(i)
		if c.Type() == ":" {
			k++
			if k > 2 {
				return nil, seqOther, false
			}
			continue
		}
		if c.IsNamed() {
			parts[k] = c
		}
	}
	bound := func(p *sitter.Node, def int) (int, bool) {
		if p == nil {
			return def, true
		}
		v := w.value(p, depth+1)
		i, err := strconv.Atoi(v.id)
		return i, v.kind == vText && v.num == numInt && err == nil
	}
	lo, ok1 := bound(parts[0], 0)
	hi, ok2 := bound(parts[1], len(items))
	step, ok3 := bound(parts[2], 1)
	if !ok1 || !ok2 || !ok3 || step != 1 {
		return nil, seqOther, false
	}
	clamp := func(i int) int {
		if i < 0 {
			i += len(items)
		}
		return min(max(i, 0), len(items))
	}
	lo, hi = clamp(lo), clamp(hi)
	if lo >= hi {
		return nil, kind, true
	}
	return items[lo:hi], kind, true
}

// formatValue evaluates str.format of a known str with positional
// arguments (a *splat of a known sequence too): fields {} and {N} (no
// names or attributes; !r and !s), ints formatted with
// [sign][0][width][d] and strs with an empty spec.
func (w *evaluator) formatValue(n *sitter.Node, depth int) (pyVal, bool) {
	fn := n.ChildByFieldName("function")
	if fn.Type() != "attribute" || w.text(fn.ChildByFieldName("attribute")) != "format" {
		return pyVal{}, false
	}
	f := w.value(fn.ChildByFieldName("object"), depth+1)
	if !f.isStr() {
		return pyVal{}, false
	}
	var args []pyVal
	for _, a := range callArgs(n) {
		switch a.Type() {
		case "comment":
			continue
		case "list_splat":
			items, _, ok := w.sequence(splatArg(a), depth+1)
			if !ok {
				return pyVal{kind: vUnknown}, true
			}
			for _, it := range items {
				args = append(args, w.elemValue(it, depth+1))
			}
			continue
		case "keyword_argument", "dictionary_splat", "parenthesized_list_splat", "generator_expression":
			return pyVal{kind: vUnknown}, true
		}
		args = append(args, w.value(a, depth+1))
	}
	s, ok := pyFormat(f.raw, args)
	if !ok {
		return pyVal{kind: vUnknown}, true
	}
	return w.strVal(s, false), true
}

// pyFormat is str.format's subset formatValue reads.
func pyFormat(f string, args []pyVal) (string, bool) {
	var b []byte
	auto := 0
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '{' && i+1 < len(f) && f[i+1] == '{', c == '}' && i+1 < len(f) && f[i+1] == '}':
			b = append(b, c)
			i++
		case c == '}':
			return "", false
		case c == '{':
			j := i + 1
			for j < len(f) && f[j] != '}' {
				j++
			}
			if j == len(f) {
				return "", false
			}
			field, spec, _ := cutByte(f[i+1:j], ':')
			field, conv, hasConv := cutByte(field, '!')
			if hasConv && conv != "r" && conv != "s" {
				return "", false
			}
			idx := auto
			if field == "" {
				auto++
			} else {
				n, err := strconv.Atoi(field)
				if err != nil {
					return "", false
				}
				idx = n
			}
			if idx >= len(args) {
				return "", false
			}
			arg := args[idx]
			if conv == "r" {
				r := reprOf(arg)
				if r == "" {
					return "", false
				}
				arg = pyVal{kind: vText, str: true, raw: r}
			} else if conv == "s" && !arg.isStr() {
				if arg.kind != vText || !arg.scalar {
					return "", false
				}
				arg = pyVal{kind: vText, str: true, raw: arg.id}
			}
			s, ok := formatField(arg, spec)
			if !ok {
				return "", false
			}
			b = append(b, s...)
			i = j
		default:
			b = append(b, c)
		}
	}
	return string(b), true
}

func cutByte(s string, c byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// formatField formats one value: a str with no spec, an int with
// [sign][0][width][d].
func formatField(v pyVal, spec string) (string, bool) {
	if v.isStr() {
		return v.raw, spec == ""
	}
	if v.kind != vText || v.num != numInt {
		return "", false
	}
	sign := byte('-')
	if spec != "" && (spec[0] == '+' || spec[0] == '-' || spec[0] == ' ') {
		sign, spec = spec[0], spec[1:]
	}
	zero := spec != "" && spec[0] == '0'
	spec = trimSuffixByte(spec, 'd')
	width := 0
	if spec != "" {
		n, err := strconv.Atoi(spec)
		if err != nil || n < 0 || n > 1000 {
			return "", false
		}
		width = n
	}
	digits, neg := v.id, false
	if digits != "" && digits[0] == '-' {
		digits, neg = digits[1:], true
	}
	prefix := ""
	switch {
	case neg:
		prefix = "-"
	case sign == '+':
		prefix = "+"
	case sign == ' ':
		prefix = " "
	}
	pad := width - len(prefix) - len(digits)
	for ; pad > 0; pad-- {
		if zero {
			digits = "0" + digits
		} else {
			prefix = " " + prefix
		}
	}
	return prefix + digits, true
}

func trimSuffixByte(s string, c byte) string {
	if s != "" && s[len(s)-1] == c {
		return s[:len(s)-1]
	}
	return s
}

// temporalReplace evaluates d.replace(...) of a date, time or datetime
// (made by its class, or by replace in turn): another of the same class,
// an object without __name__.
func (w *evaluator) temporalReplace(n *sitter.Node, depth int) bool {
	fn := n.ChildByFieldName("function")
	if fn.Type() != "attribute" || w.text(fn.ChildByFieldName("attribute")) != "replace" || depth > maxValueDepth {
		return false
	}
	e, ok := w.follow(elem{n: fn.ChildByFieldName("object"), env: w.locals}, depth+1)
	if !ok || e.n == nil || unparen(e.n).Type() != "call" {
		return false
	}
	call := unparen(e.n)
	switch w.resolve(w.text(call.ChildByFieldName("function"))) {
	case "datetime.date", "datetime.time", "datetime.datetime":
		if id := call.ChildByFieldName("function"); id.Type() == "identifier" && inLocals(e.env, w.text(id)) {
			return false
		}
		return true
	}
	saved := w.locals
	w.locals = e.env
	defer func() { w.locals = saved }()
	return w.temporalReplace(call, depth+1)
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
