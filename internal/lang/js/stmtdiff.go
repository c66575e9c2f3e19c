package js

import (
	"path"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/stmtdiff"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// ChangedStatements is JavaScript's lang.StatementDiffer: it narrows a
// function whose hash changed to the statements that changed, so that a
// test that executed the function but none of their lines is not
// affected. JavaScript files only (.js, .mjs, .cjs, .jsx): TypeScript's
// type-only statements compile to nothing and are left to the whole
// function.
//
// Why that is sound. The walk (internal/lang/stmtdiff) requires the same
// block structure in both versions, with every difference inside units
// whose declarations are unchanged. A test's lines come from V8's block
// coverage (runner_coverage.cjs): a line counts when code on it lies in a
// range that ran, nested ranges that did not run (an uncalled function, a
// branch not taken) cut out. A statement that is reached has its first
// code in the range of the block around it, which ran, so one of its
// lines counts; through a source map, the code generated for a statement
// starts with a mapping to it. The exceptions are not units: function and
// class declarations (their text lies in their own function range, whose
// count is zero until called or constructed, though the declaration binds
// its name when the block is entered), and string statements, which may
// be directives ("use strict" changes the whole function). Declarations a
// changed statement makes (var, hoisted to the function; let, const,
// function and class names, which shadow and have a dead zone) must be
// the same in both versions. A test that executed none of the units'
// lines never reached them; everything else being equal, the new code
// runs for it as the old one did, up to a unit it never reaches.
//
// Not covered, as with function-level selection: nondeterminism (another
// path next time), and line numbers read at run time (a stack trace in a
// snapshot).
func (spanner) ChangedStatements(file string, oldSrc []byte, old lang.FuncSpan, curSrc []byte, cur lang.FuncSpan) ([]lang.Span, bool) {
	switch path.Ext(file) {
	case ".js", ".mjs", ".cjs", ".jsx":
	default:
		return nil, false
	}
	of, cf, done, ok := stmtdiff.Functions(grammar(file), oldSrc, old, curSrc, cur, findFunction)
	defer done()
	if !ok || of.Type() != cf.Type() || !jsRules.SameHeader(oldSrc, curSrc, of, cf) {
		return nil, false
	}
	ob, cb := of.ChildByFieldName("body"), cf.ChildByFieldName("body")
	if ob == nil || cb == nil || ob.Type() != "statement_block" {
		return nil, false // an arrow's expression body: the whole function
	}
	return jsRules.Bodies(oldSrc, curSrc, ob, cb)
}

// findFunction is the function node spanning f's lines with f's hash.
func findFunction(root *sitter.Node, src []byte, f lang.FuncSpan) *sitter.Node {
	return stmtdiff.Find(root, f.Start, f.End, func(n *sitter.Node) bool {
		return functionKinds[n.Type()] && int(n.StartPoint().Row)+1 == f.Start && int(n.EndPoint().Row)+1 == f.End &&
			tokenHash(n, src) == f.Hash
	})
}

// jsStatements are the statement kinds; a compound statement's child of
// one of these kinds (an else's if, a loop's single statement) is
// compared as a statement.
var jsStatements = map[string]bool{
	"expression_statement": true, "return_statement": true, "throw_statement": true, "lexical_declaration": true,
	"variable_declaration": true, "if_statement": true, "for_statement": true, "for_in_statement": true,
	"while_statement": true, "do_statement": true, "switch_statement": true, "try_statement": true,
	"break_statement": true, "continue_statement": true, "labeled_statement": true, "empty_statement": true,
	"statement_block": true, "function_declaration": true, "generator_function_declaration": true,
	"class_declaration": true, "debugger_statement": true, "with_statement": true,
	"else_clause": true, "catch_clause": true, "finally_clause": true,
}

// jsRules are JavaScript's rules for the walk of internal/lang/stmtdiff.
var jsRules = &stmtdiff.Rules{
	Same:     func(a, b []byte, x, y *sitter.Node) bool { return tokenHash(x, a) == tokenHash(y, b) },
	Blocks:   map[string]bool{"statement_block": true},
	Clauses:  jsStatements,
	Unit:     jsUnit,
	Bindings: jsBindings,
}

// jsUnit reports whether a statement is a unit: a statement that marks
// one of its lines when reached (see ChangedStatements).
func jsUnit(n *sitter.Node, src []byte) bool {
	switch n.Type() {
	case "function_declaration", "generator_function_declaration", "class_declaration",
		"else_clause", "catch_clause", "finally_clause", "statement_block":
		return false
	case "expression_statement":
		e := n.NamedChild(0)
		return e != nil && e.Type() != "string"
	}
	return jsStatements[n.Type()]
}

// jsBindings are the declarations a statement makes in its function,
// sorted: var names (hoisted), let and const names, function and class
// names; not those inside nested functions and classes.
func jsBindings(n *sitter.Node, src []byte) []string {
	var out []string
	var names func(kind string, t *sitter.Node)
	names = func(kind string, t *sitter.Node) {
		switch t.Type() {
		case "identifier", "shorthand_property_identifier_pattern":
			out = append(out, kind+":"+t.Content(src))
			return
		case "pair_pattern": // {key: target}
			if v := t.ChildByFieldName("value"); v != nil {
				names(kind, v)
			}
			return
		case "assignment_pattern", "object_assignment_pattern": // target = default
			if l := t.ChildByFieldName("left"); l != nil {
				names(kind, l)
			}
			return
		}
		for i := 0; i < int(t.NamedChildCount()); i++ {
			names(kind, t.NamedChild(i))
		}
	}
	var walk func(m *sitter.Node) bool
	walk = func(m *sitter.Node) bool {
		switch m.Type() {
		case "function_declaration", "generator_function_declaration", "class_declaration":
			if id := m.ChildByFieldName("name"); id != nil {
				out = append(out, m.Type()+":"+id.Content(src))
			}
			return false
		case "function_expression", "function", "arrow_function", "generator_function", "class", "method_definition":
			return false
		case "for_in_statement": // for (const x of xs): the loop's declaration
			if k := m.ChildByFieldName("kind"); k != nil {
				if l := m.ChildByFieldName("left"); l != nil {
					names(k.Content(src), l)
				}
			}
		case "variable_declaration", "lexical_declaration":
			kind := "var"
			if m.Type() == "lexical_declaration" && m.ChildCount() > 0 {
				kind = m.Child(0).Content(src) // let or const
			}
			for i := 0; i < int(m.NamedChildCount()); i++ {
				if d := m.NamedChild(i); d.Type() == "variable_declarator" {
					if name := d.ChildByFieldName("name"); name != nil {
						names(kind, name)
					}
					if v := d.ChildByFieldName("value"); v != nil {
						tsgrammars.Walk(v, walk)
					}
				}
			}
			return false
		}
		return true
	}
	tsgrammars.Walk(n, walk)
	slices.Sort(out)
	return out
}
