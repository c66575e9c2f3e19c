package js

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// maxRows bounds the records one call may expand to (a describe.each
// inside a describe.each multiplies); beyond it the call is one dynamic
// record.
const maxRows = 1000

// walker reads one parsed file.
type walker struct {
	fw         testdex.Framework
	src        []byte
	root       *sitter.Node
	consts     map[string]*sitter.Node // module-level const NAME = literal
	aliases    map[string]string       // local name -> describe, it, test, ...
	evaluating map[string]bool         // consts being evaluated (cycles)
	stack      []*frame
	tests      []lang.Test
	seen       map[string]bool
}

// frame is a describe or test call whose callback may declare more tests.
// One call stands for several instances when it is a .each.
type frame struct {
	node      *sitter.Node
	end       uint32
	test      bool     // a test (its callback's first parameter may be t)
	params    []string // callback parameter names (node:test's t)
	instances []instance
}

// instance is one record a call produced.
type instance struct {
	key     string
	titles  []string // from the outermost describe
	dynamic bool
	skip    bool
	run     string
}

func newWalker(fw testdex.Framework, src []byte, root *sitter.Node) *walker {
	w := &walker{fw: fw, src: src, root: root, consts: map[string]*sitter.Node{},
		aliases: map[string]string{}, evaluating: map[string]bool{}, seen: map[string]bool{}}
	w.scanModule()
	return w
}

func (w *walker) text(n *sitter.Node) string {
	s, e := n.StartByte(), n.EndByte()
	if int(e) > len(w.src) || s > e {
		return ""
	}
	return string(w.src[s:e])
}

// run visits every call in document order, keeping the stack of enclosing
// describe and test calls by byte range.
func (w *walker) run(q *sitter.Query) {
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(q, w.root)
	for {
		m, ok := qc.NextMatch()
		if !ok {
			return
		}
		for _, c := range m.Captures {
			w.call(c.Node)
		}
	}
}

func (w *walker) call(c *sitter.Node) {
	for len(w.stack) > 0 && w.stack[len(w.stack)-1].end <= c.StartByte() {
		w.stack = w.stack[:len(w.stack)-1]
	}
	sp, ok := w.classify(c)
	if !ok {
		return
	}
	var parent *frame
	if len(w.stack) > 0 {
		parent = w.stack[len(w.stack)-1]
	}
	if sp.subtest && (parent == nil || !parent.test || !contains(parent.params, sp.base)) {
		return
	}
	placed := w.placedDirectly(c, parent)
	titles, dyn := w.titles(sp)
	fr := &frame{node: c, end: c.EndByte(), test: !sp.suite, params: w.params(sp.fn)}
	parents := []instance{{}}
	if parent != nil {
		parents = parent.instances
	}
	if len(parents)*len(titles) > maxRows {
		titles, dyn = []string{w.dynamicTitle(sp)}, true
	}
	for _, p := range parents {
		for _, t := range titles {
			fr.instances = append(fr.instances, w.emit(c, sp, p, t, dyn || !placed))
		}
	}
	w.stack = append(w.stack, fr)
}

// emit records one instance of a call under one parent instance.
func (w *walker) emit(c *sitter.Node, sp spec, p instance, title string, dyn bool) instance {
	in := instance{titles: append(append([]string{}, p.titles...), title), dynamic: dyn || p.dynamic, skip: sp.skip || p.skip}
	in.key = strings.Join(in.titles, " > ")
	in.run = runPattern(w.fw, in.titles, sp.suite)
	if in.dynamic {
		in.run = p.run
	}
	kind := testdex.KindTest
	switch {
	case sp.suite:
		kind = testdex.KindSuite
	case sp.subtest:
		kind = testdex.KindSubtest
	}
	if w.seen[in.key] {
		return in
	}
	w.seen[in.key] = true
	w.tests = append(w.tests, lang.Test{Kind: kind, Name: in.key, Parent: p.key, Line: int(c.StartPoint().Row) + 1,
		Dynamic: in.dynamic, Skip: in.skip, Run: in.run})
	return in
}

// placedDirectly reports whether the call runs exactly once where it
// stands: no loop and no function other than the parent's own callback
// lies between the call and its parent (or the module).
func (w *walker) placedDirectly(c *sitter.Node, parent *frame) bool {
	for n := c.Parent(); n != nil; n = n.Parent() {
		if parent != nil && same(n, parent.node) {
			return true
		}
		switch n.Type() {
		case "for_statement", "for_in_statement", "while_statement", "do_statement":
			return false
		case "arrow_function", "function_expression", "function", "function_declaration",
			"generator_function", "generator_function_declaration", "method_definition":
			a := n.Parent()
			if parent == nil || a == nil || a.Type() != "arguments" || a.Parent() == nil || !same(a.Parent(), parent.node) {
				return false
			}
		}
	}
	return parent == nil
}

func same(a, b *sitter.Node) bool {
	return a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.Symbol() == b.Symbol()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// params lists a callback's simple parameter names.
func (w *walker) params(fn *sitter.Node) []string {
	if fn == nil {
		return nil
	}
	if p := fn.ChildByFieldName("parameter"); p != nil { // t => ...
		return []string{w.text(p)}
	}
	ps := fn.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	var out []string
	for i := 0; i < int(ps.NamedChildCount()); i++ {
		p := ps.NamedChild(i)
		if pat := p.ChildByFieldName("pattern"); pat != nil {
			p = pat
		}
		if p.Type() == "identifier" {
			out = append(out, w.text(p))
		}
	}
	return out
}
