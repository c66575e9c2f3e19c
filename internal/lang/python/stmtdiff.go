package python

import (
	"slices"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/stmtdiff"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// ChangedStatements is Python's lang.StatementDiffer: it narrows a function
// whose canonical hash changed to the statements that changed, so that a
// test that executed the function but none of those statements is not
// affected.
//
// Why that is sound. The two versions must have the same block structure:
// every block holds as many statements as before, in the same places, and
// a statement that differs is either a compound statement whose header is
// unchanged (then its blocks are compared the same way) or a "unit": a
// statement that CPython cannot reach without raising a line event on one
// of its own lines (coverage.py records those as executed). A test that
// executed none of a unit's lines never reached it; with every unit
// unreached and everything else equal, the new code runs, for that test,
// the very instructions the old one ran, up to a unit it never reaches.
// What a statement can change without being reached is ruled out: the
// names a function binds (an assignment anywhere makes a name local in the
// whole function; global, nonlocal), whether it is a generator (yield
// anywhere), and statements that compile to nothing or may not raise a
// line event when reached (pass, break, continue, try and its clauses,
// constant expressions such as docstrings, and if/while on a constant,
// which the compiler folds) are never units: a change there keeps the
// whole function. A unit's lines are all of its lines, so a statement
// spanning several lines (coverage.py records the first) and a nested
// function executed elsewhere (its body's lines) are both caught.
//
// Not covered, as with function-level selection: nondeterminism (the
// recorded run took another path than the next will), line numbers read
// at run time (a traceback in a snapshot).
func (spanner) ChangedStatements(file string, oldSrc []byte, old lang.FuncSpan, curSrc []byte, cur lang.FuncSpan) ([]lang.Span, bool) {
	of, cf, done, ok := stmtdiff.Functions(tsgrammars.Python, oldSrc, old, curSrc, cur, findFunc)
	defer done()
	if !ok || !sameDecorators(oldSrc, curSrc, of, cf) || !pyRules.SameHeader(oldSrc, curSrc, of, cf) {
		return nil, false
	}
	return pyRules.Bodies(oldSrc, curSrc, of.ChildByFieldName("body"), cf.ChildByFieldName("body"))
}

// sameDecorators reports whether two functions' decorators are the same.
func sameDecorators(a, b []byte, x, y *sitter.Node) bool {
	px, py := x.Parent(), y.Parent()
	dx, dy := px != nil && px.Type() == "decorated_definition", py != nil && py.Type() == "decorated_definition"
	if dx != dy {
		return false
	}
	if !dx {
		return true
	}
	if px.ChildCount() != py.ChildCount() {
		return false
	}
	for i := 0; i < int(px.ChildCount()); i++ {
		if cx := px.Child(i); cx.Type() == "decorator" && !pyRules.Same(a, b, cx, py.Child(i)) {
			return false
		}
	}
	return true
}

// findFunc is the function_definition whose span is f's.
func findFunc(root *sitter.Node, src []byte, f lang.FuncSpan) *sitter.Node {
	return stmtdiff.Find(root, f.Start, f.End, func(n *sitter.Node) bool {
		if n.Type() != "function_definition" {
			return false
		}
		s := funcSpan(n, src)
		return s.Start == f.Start && s.End == f.End && s.Name == f.Name
	})
}

// pyRules are Python's rules for the walk of internal/lang/stmtdiff.
var pyRules = &stmtdiff.Rules{
	Same: func(a, b []byte, x, y *sitter.Node) bool {
		return canonicalHash(a[x.StartByte():x.EndByte()], int(x.StartPoint().Column)) ==
			canonicalHash(b[y.StartByte():y.EndByte()], int(y.StartPoint().Column))
	},
	Blocks:   map[string]bool{"block": true},
	Clauses:  clauses,
	Unit:     unit,
	Bindings: bindings,
}

// clauses are the parts of compound statements compared as statements of
// their own: an elif is a unit (its condition raises a line event when
// reached); the others only compare inside.
var clauses = map[string]bool{"elif_clause": true, "else_clause": true, "except_clause": true,
	"except_group_clause": true, "finally_clause": true, "case_clause": true}

// unit reports whether CPython raises a line event on one of a statement's
// lines whenever it is reached.
func unit(n *sitter.Node, src []byte) bool {
	switch n.Type() {
	case "return_statement", "raise_statement", "delete_statement", "import_statement", "import_from_statement",
		"assert_statement", "for_statement", "with_statement", "match_statement", "function_definition",
		"decorated_definition", "class_definition":
		return true
	case "expression_statement":
		return computed(n, src)
	case "if_statement", "elif_clause", "while_statement":
		return computed(n.ChildByFieldName("condition"), src)
	}
	return false
}

// computed reports whether an expression cannot be folded to a constant
// by the compiler: it names something (a name other than __debug__, an
// attribute, a call).
func computed(n *sitter.Node, src []byte) bool {
	if n == nil {
		return false
	}
	if n.Type() == "identifier" {
		return n.Content(src) != "__debug__"
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if computed(n.NamedChild(i), src) {
			return true
		}
	}
	return false
}

// bindings are what a statement declares in its function's scope, sorted:
// the names it binds (assignment and for targets, as-names, imports, def
// and class names, walrus targets, deleted names, global and nonlocal),
// and "yield" when it makes the function a generator. Nested functions,
// lambdas and classes bind in scopes of their own (only their names count
// here).
func bindings(n *sitter.Node, src []byte) []string {
	var out []string
	var targets func(t *sitter.Node)
	targets = func(t *sitter.Node) {
		if t == nil {
			return
		}
		switch t.Type() {
		case "identifier":
			out = append(out, t.Content(src))
		case "attribute", "subscript":
			return // stores into an object, no name bound
		default:
			for i := 0; i < int(t.NamedChildCount()); i++ {
				targets(t.NamedChild(i))
			}
		}
	}
	var walk func(m *sitter.Node) bool
	walk = func(m *sitter.Node) bool {
		switch m.Type() {
		case "function_definition", "class_definition":
			targets(m.ChildByFieldName("name"))
			for i := 0; i < int(m.NamedChildCount()); i++ { // decorators, defaults and bases run here
				if c := m.NamedChild(i); m.FieldNameForChild(i) != "body" && c.Type() != "identifier" {
					tsgrammars.Walk(c, walk)
				}
			}
			return false
		case "lambda":
			return false
		case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
			targets(m.ChildByFieldName("left"))
		case "named_expression":
			targets(m.ChildByFieldName("name"))
		case "as_pattern_target", "case_pattern", "delete_statement", "global_statement", "nonlocal_statement", "dotted_name", "aliased_import":
			targets(m)
			return false
		case "yield", "await":
			out = append(out, "<"+m.Type()+">")
		case "string", "comment":
			return false
		}
		return true
	}
	tsgrammars.Walk(n, walk)
	slices.Sort(out)
	return out
}
