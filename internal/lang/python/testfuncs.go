package python

import (
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
)

// function emits a module-level test function, and the module-level
// names bound to it afterwards (test_b = test_a), which pytest collects
// too, under their own names.
func (w *walker) function(n, d *sitter.Node) {
	name := w.text(d.ChildByFieldName("name"))
	own := matchesOption(name, w.functions) && !w.seenFn[name]
	aliases := w.fnAliases(name, d)
	if !own && len(aliases) == 0 {
		return
	}
	marks, isTest := w.marks(decorators(n))
	if !isTest {
		return
	}
	if w.words(name) > 1 {
		// Named again (test_b = test_a collects it twice): an iterator
		// table is spent by the first collection.
		marks = spend(marks)
	}
	args := w.givenless(n, w.args(d, false))
	fns := make([]fnFact, 0, 1+len(aliases))
	if own {
		fns = append(fns, fnFact{Name: name, Line: line(d), Marks: marks, Args: args})
	}
	for _, a := range aliases {
		fns = append(fns, fnFact{Name: w.text(a), Line: line(a), Marks: marks, Args: args})
	}
	for _, fn := range fns {
		w.seenFn[fn.Name] = true
		w.facts.Funcs = append(w.facts.Funcs, fn)
		w.tests = append(w.tests, expand("", fn, w.facts.Module)...)
	}
}

// fnAliases returns the targets of module-level NAME = def assignments
// after the def, in order, when the def and NAME are each bound once and
// NAME is a test function's name.
func (w *walker) fnAliases(name string, d *sitter.Node) []*sitter.Node {
	if w.bindings[name] != 1 {
		return nil
	}
	var out []*sitter.Node
	for alias, v := range w.literals {
		if v.Type() != "identifier" || w.text(v) != name || w.bindings[alias] != 1 || w.seenFn[alias] ||
			!matchesOption(alias, w.functions) || v.StartByte() < d.EndByte() {
			continue
		}
		if a := v.Parent(); a != nil && a.Type() == "assignment" && a.ChildByFieldName("left") != nil {
			out = append(out, a.ChildByFieldName("left"))
		}
	}
	slices.SortFunc(out, func(a, b *sitter.Node) int { return int(a.StartByte()) - int(b.StartByte()) })
	return out
}

// args lists a function's parameters that request fixtures: plain
// identifiers without defaults, skipping self or cls in methods.
func (w *walker) args(d *sitter.Node, method bool) []string {
	ps := d.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	var out []string
	for i, p := range children(ps) {
		if p.Type() == "typed_parameter" && p.NamedChildCount() > 0 && p.NamedChild(0).Type() == "identifier" {
			p = p.NamedChild(0)
		}
		if p.Type() != "identifier" || (method && i == 0) {
			continue
		}
		out = append(out, w.text(p))
	}
	return out
}

// givenless drops the arguments hypothesis' @given supplies: one per
// positional strategy from the right, and each keyword strategy's name.
func (w *walker) givenless(n *sitter.Node, args []string) []string {
	for _, e := range decorators(n) {
		if e.Type() != "call" || w.resolve(w.text(e.ChildByFieldName("function"))) != "hypothesis.given" {
			continue
		}
		drop := map[string]bool{}
		pos := 0
		for _, a := range children(e.ChildByFieldName("arguments")) {
			if a.Type() == "keyword_argument" {
				drop[w.text(a.ChildByFieldName("name"))] = true
			} else {
				pos++
			}
		}
		var out []string
		for _, a := range args[:max(len(args)-pos, 0)] {
			if !drop[a] {
				out = append(out, a)
			}
		}
		return out
	}
	return args
}
