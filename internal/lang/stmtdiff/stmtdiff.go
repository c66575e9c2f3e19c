// Package stmtdiff narrows a changed function to the statements that
// changed, for the languages' lang.StatementDiffer implementations: it
// walks two versions of a function body in step, over tree-sitter trees,
// with the language's rules saying which statements are units (statements
// a test cannot reach without marking one of their lines as executed) and
// what a statement binds. Each language's implementation states why its
// rules are sound; the walk only requires that the two versions have the
// same block structure, with every difference inside units whose bindings
// are unchanged.
package stmtdiff

import (
	"slices"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Rules are a language's part of the walk.
type Rules struct {
	// Same reports whether two nodes, x in the old source and y in the
	// new, hold the same tokens (comments and spacing aside).
	Same func(old, cur []byte, x, y *sitter.Node) bool
	// Blocks are the node kinds that hold a list of statements.
	Blocks map[string]bool
	// Clauses are the parts of compound statements compared as statements
	// of their own (elif, else, catch, finally).
	Clauses map[string]bool
	// Unit reports whether a statement or clause is a unit.
	Unit func(n *sitter.Node, src []byte) bool
	// Bindings returns what a statement declares in its function's scope,
	// sorted; two versions of a unit must declare the same.
	Bindings func(n *sitter.Node, src []byte) []string
}

// Bodies compares two function bodies (Blocks kinds) and returns the old
// lines of the units that differ; ok is false when the bodies differ
// anywhere else, in structure or bindings.
func (r *Rules) Bodies(old, cur []byte, x, y *sitter.Node) (units []lang.Span, ok bool) {
	d := &diff{r: r, a: old, b: cur}
	if !d.block(x, y) {
		return nil, false
	}
	return d.units, true
}

// Functions parses two versions of a file with grammar l and returns the
// function find picks in each (old in oldSrc, cur in curSrc); ok is false
// when either version does not parse whole or find picks nothing in it.
// done closes both trees: call it once finished with the nodes (it is
// never nil).
func Functions(l *sitter.Language, oldSrc []byte, old lang.FuncSpan, curSrc []byte, cur lang.FuncSpan,
	find func(root *sitter.Node, src []byte, f lang.FuncSpan) *sitter.Node) (of, cf *sitter.Node, done func(), ok bool) {
	done = func() {}
	ot, err := tsgrammars.Parse(l, oldSrc)
	if err != nil || ot == nil {
		return nil, nil, done, false
	}
	ct, err := tsgrammars.Parse(l, curSrc)
	if err != nil || ct == nil {
		ot.Close()
		return nil, nil, done, false
	}
	done = func() { ot.Close(); ct.Close() }
	if ot.RootNode().HasError() || ct.RootNode().HasError() {
		return nil, nil, done, false
	}
	of, cf = find(ot.RootNode(), oldSrc, old), find(ct.RootNode(), curSrc, cur)
	return of, cf, done, of != nil && cf != nil
}

// SameHeader reports whether two versions of a function have the same
// children apart from their body (name, parameters and their defaults,
// modifiers), by Same.
func (r *Rules) SameHeader(old, cur []byte, x, y *sitter.Node) bool {
	if x.ChildCount() != y.ChildCount() {
		return false
	}
	for i := 0; i < int(x.ChildCount()); i++ {
		if x.FieldNameForChild(i) != "body" && !r.Same(old, cur, x.Child(i), y.Child(i)) {
			return false
		}
	}
	return true
}

type diff struct {
	r     *Rules
	a, b  []byte
	units []lang.Span
}

// statements are a block's statements, comments left out.
func statements(n *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// block compares two blocks statement by statement.
func (d *diff) block(x, y *sitter.Node) bool {
	if x == nil || y == nil || x.Type() != y.Type() {
		return false
	}
	xs, ys := statements(x), statements(y)
	if len(xs) != len(ys) {
		return false
	}
	for i := range xs {
		if !d.statement(xs[i], ys[i]) {
			return false
		}
	}
	return true
}

// statement compares two statements in the same place: equal, a compound
// statement whose header is equal and whose blocks compare, or a unit.
func (d *diff) statement(x, y *sitter.Node) bool {
	if d.r.Same(d.a, d.b, x, y) {
		return true
	}
	if x.Type() == y.Type() && d.compound(x, y) {
		return true
	}
	if !d.r.Unit(x, d.a) || !d.r.Unit(y, d.b) || !slices.Equal(d.r.Bindings(x, d.a), d.r.Bindings(y, d.b)) {
		return false
	}
	start, end := int(x.StartPoint().Row)+1, int(x.EndPoint().Row)+1
	if x.EndPoint().Column == 0 && end > start {
		end-- // a node ending at a line's start ends on the line before
	}
	d.units = append(d.units, lang.Span{Start: start, End: end})
	return true
}

// compound compares a compound statement (or clause) child by child: its
// blocks as blocks, its clauses as statements, everything else equal but
// for blocks nested in it. Units it finds are kept only when the whole
// compares.
//
// Differences confined to blocks inside an expression are sound to judge
// by the statements in those blocks: such a block is a nested function's
// body (or a class's static block), and evaluating the expression makes
// the same function whatever its body holds; its statements run only
// when it is called, and the units among them mark their lines then.
func (d *diff) compound(x, y *sitter.Node) bool {
	if x.ChildCount() != y.ChildCount() || x.NamedChildCount() == 0 {
		return false
	}
	keep := len(d.units)
	for i := 0; i < int(x.ChildCount()); i++ {
		cx, cy := x.Child(i), y.Child(i)
		ok := true
		switch {
		case cx.Type() != cy.Type():
			ok = false
		case d.r.Same(d.a, d.b, cx, cy):
		case d.r.Blocks[cx.Type()]:
			ok = d.block(cx, cy)
		case d.r.Clauses[cx.Type()]:
			ok = d.statement(cx, cy)
		default:
			// An expression or declaration: equal but for blocks inside
			// it (a nested function's body, a static block), whose
			// statements are compared as statements.
			ok = d.compound(cx, cy)
		}
		if !ok {
			d.units = d.units[:keep]
			return false
		}
	}
	return true
}

// Find returns the first node, in a walk of root's named nodes that skips
// those outside the lines start to end (1-based), that match accepts.
func Find(root *sitter.Node, start, end int, match func(*sitter.Node) bool) *sitter.Node {
	var found *sitter.Node
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if found != nil || int(n.StartPoint().Row)+1 > end || int(n.EndPoint().Row)+1 < start {
			return
		}
		if match(n) {
			found = n
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(root)
	return found
}
