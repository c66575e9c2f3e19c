package python

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Iterators are spent after one pass. A name bound to zip(...), map(...),
// a generator expression, an itertools iterator or a generator a helper
// returns holds one iterator: the first read that iterates it takes its
// rows and every later read finds nothing (a zip fed to two parametrize
// decorators gives the second an empty table). The evaluator reads a
// name's bound expression afresh at each reference, so a name bound to
// an iterator is read only where that reference is its one read in the
// whole file, made once (no loop, def or lambda around it that the
// binding is not inside too); any other read leaves the value unknown
// and its table dynamic. The same holds for a memoized generator
// function (functools.cache returns the one generator it made).
//
// A table whose argvalues is an iterator (table.OnePass) is also spent
// by the first test pytest collects with it: the Linker gives a method's
// rows only to its own class, not to the classes that inherit it, and a
// module's or a class's parametrize mark of an iterator is one dynamic
// record (marks.go).

// iterFuncs are the builtins that return iterators.
var iterFuncs = map[string]bool{"zip": true, "map": true, "filter": true, "reversed": true,
	"iter": true, "enumerate": true}

// isIterator reports whether an expression evaluates to an iterator: a
// generator expression, a call of an iterator builtin, of itertools or of
// a generator function of the module, or a name bound to one of those.
func (w *evaluator) isIterator(n *sitter.Node, depth int) bool {
	if n == nil || depth > 20 {
		return false
	}
	n = unparen(n)
	switch n.Type() {
	case "generator_expression":
		return true
	case "identifier":
		name := w.text(n)
		if e, ok := w.locals[name]; ok {
			if e.n == nil {
				return false
			}
			saved := w.locals
			w.locals = e.env
			defer func() { w.locals = saved }()
			return w.isIterator(e.n, depth+1)
		}
		if v, ok := w.literal(name); ok {
			saved := w.locals
			w.locals = nil
			defer func() { w.locals = saved }()
			return w.isIterator(v, depth+1)
		}
	case "call":
		fn := n.ChildByFieldName("function")
		if def, _ := w.helperDef(fn); def != nil {
			return hasYield(def.ChildByFieldName("body")) && w.unwrapped(fn)
		}
		name := w.resolve(w.text(fn))
		if fn.Type() == "identifier" && (w.bindings[name] != 0 || inLocals(w.locals, name)) {
			return false
		}
		return iterFuncs[name] || strings.HasPrefix(name, "itertools.")
	}
	return false
}

// unwrapped reports whether a call of a module-level generator function
// returns its generator as is (no decorator collects it into a list);
// a local def's always does.
func (w *evaluator) unwrapped(fn *sitter.Node) bool {
	if _, local := w.locals[w.text(fn)]; local {
		return true
	}
	wrap, ok := w.helperWrap(w.funcs[w.text(fn)])
	return !ok || wrap == seqOther
}

// readOnce reports whether read, a reference to a name bound to the
// iterator bound, is the only read of that iterator, made as many times
// as the binding (the same loop, def or lambda holds both). A
// module-level name must occur twice in the file (its binding and this
// read); a variable of a helper must be read once in its def between its
// binding and the next assignment to it.
func (w *evaluator) readOnce(read, bound *sitter.Node) bool {
	a, b := repeatScope(read), repeatScope(bound)
	if a == nil || b == nil {
		return a == nil && b == nil && w.words(w.text(read)) == 2
	}
	if !a.Equal(b) {
		return false
	}
	def := enclosingDef(bound)
	if def == nil || !def.Equal(enclosingDef(read)) {
		return false
	}
	return w.readsAfter(def.ChildByFieldName("body"), w.text(read), bound.EndByte()) == 1
}

// enclosingDef is the innermost def around n, nil at the module level.
func enclosingDef(n *sitter.Node) *sitter.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == "function_definition" {
			return p
		}
	}
	return nil
}

// readsAfter counts the references to name in body after byte from, up
// to the next assignment to it (the reads of its right side included):
// what the binding that ends at from holds is read that many times.
func (w *evaluator) readsAfter(body *sitter.Node, name string, from uint32) int {
	reads, stop := 0, false
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if stop || n.EndByte() <= from {
			return
		}
		if n.Type() == "assignment" && n.StartByte() >= from {
			if l := n.ChildByFieldName("left"); l != nil && w.binds(l, name) {
				if r := n.ChildByFieldName("right"); r != nil {
					walk(r)
				}
				stop = true
				return
			}
		}
		if n.Type() == "identifier" && n.StartByte() >= from && w.text(n) == name {
			reads++
		}
		for i, nc := 0, int(n.NamedChildCount()); i < nc && !stop; i++ {
			walk(n.NamedChild(i))
		}
	}
	if body != nil {
		walk(body)
	}
	return reads
}

// binds reports whether an assignment's left side binds name (as itself
// or in a tuple or list of targets).
func (w *evaluator) binds(left *sitter.Node, name string) bool {
	switch left.Type() {
	case "identifier":
		return w.text(left) == name
	case "pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list":
		for _, c := range children(left) {
			if w.binds(c, name) {
				return true
			}
		}
	}
	return false
}

// spentName reports a reference to a name bound to an iterator that is
// not its one read: the evaluator must not read the iterator's rows
// there.
func (w *evaluator) spentName(read, bound *sitter.Node, env map[string]elem) bool {
	saved := w.locals
	w.locals = env
	iter := w.isIterator(bound, 0)
	w.locals = saved
	return iter && !w.readOnce(read, bound)
}

// spentCall reports a call of a memoized generator function of the
// module whose name occurs more than twice in the file (its def and one
// call): every call but the first returns the same, spent, generator.
func (w *evaluator) spentCall(fn *sitter.Node) bool {
	if fn.Type() != "identifier" || inLocals(w.locals, w.text(fn)) {
		return false
	}
	d := w.funcs[w.text(fn)]
	if d == nil || !hasYield(definition(d).ChildByFieldName("body")) || !w.unwrapped(fn) {
		return false
	}
	for _, dec := range decorators(d) {
		if dec.Type() == "call" {
			dec = dec.ChildByFieldName("function")
		}
		if r := w.resolve(w.text(dec)); r == "functools.cache" || r == "functools.lru_cache" {
			return w.words(w.text(fn)) > 2
		}
	}
	return false
}

// repeatScope is the innermost node around n that may run it more than
// once: a def, a lambda, a loop's body, a comprehension past its first
// iterable (which Python evaluates once); nil at the module level.
func repeatScope(n *sitter.Node) *sitter.Node {
	var grand *sitter.Node
	child := n
	for p := n.Parent(); p != nil; grand, child, p = child, p, p.Parent() {
		switch p.Type() {
		case "function_definition", "lambda", "while_statement":
			return p
		case "for_statement":
			if r := p.ChildByFieldName("right"); r == nil || !r.Equal(child) {
				return p
			}
		case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			if !firstIterable(p, child, grand) {
				return p
			}
		}
	}
	return nil
}

// firstIterable reports whether the path from a node up to the
// comprehension c (child its child, grand child's) goes through the
// iterable of c's first for clause, which is evaluated once.
func firstIterable(c, child, grand *sitter.Node) bool {
	for _, k := range children(c) {
		if k.Type() == "for_in_clause" {
			left := k.ChildByFieldName("left")
			return k.Equal(child) && grand != nil && (left == nil || !left.Equal(grand))
		}
	}
	return false
}

// words counts the occurrences of an identifier in the file as written
// (comments, strings and blanked bodies included: a count that is too
// high only leaves a table dynamic).
func (w *evaluator) words(name string) int {
	if w.wordCounts == nil {
		w.wordCounts = countWords(w.orig)
	}
	return w.wordCounts[name]
}

// countWords counts each identifier-like word of src (a run of word
// bytes that does not start with a digit).
func countWords(src []byte) map[string]int {
	out := map[string]int{}
	for i := 0; i < len(src); {
		if !wordByte(src[i]) {
			i++
			continue
		}
		j := i
		for j < len(src) && wordByte(src[j]) {
			j++
		}
		if src[i] < '0' || src[i] > '9' {
			out[string(src[i:j])]++
		}
		i = j
	}
	return out
}

// wordByte reports a byte that may be part of an identifier (any byte of
// a non-ASCII character is).
func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// spend makes the tables of a mark set that an iterator fills dynamic:
// the marks of a module or a class (each of their tests collects them),
// of a method (each class inheriting it does) and a mark bound to a name
// used more than once.
func spend(m markSet) markSet {
	if !slices.ContainsFunc(m.Tables, func(t table) bool { return t.once != "" }) {
		return m
	}
	tables := make([]table, len(m.Tables))
	for i, t := range m.Tables {
		if t.once != "" {
			t = table{Dynamic: t.once, Argnames: t.Argnames}
		}
		tables[i] = t
	}
	m.Tables = tables
	return m
}
