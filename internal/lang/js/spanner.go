package js

import (
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/lang"
)

// Spanner cuts JavaScript and TypeScript files into their functions for the
// coverage index (lang.Spanner): function declarations and expressions,
// generators, methods, getters and setters, and arrow functions, each its
// own span, nested ones included. A function is named as code names it:
// its own name, else the name it is assigned to (`const f = () => {}`,
// `exports.f = function () {}`, `{ f: () => {} }`, a class field), else
// "<anonymous>" (a callback); qualified by the enclosing functions and
// classes, dot-separated ("Cart.total", "outer.inner", "<anonymous>" for
// a test's callback, "<anonymous>.helper" for a function inside it). Its
// hash is of its tokens, each a leaf's kind and text, without positions,
// white space or comments; a string, template or regular expression is one
// token, with its text as written.
var Spanner lang.Spanner = spanner{}

type spanner struct{}

// functionKinds are the tree-sitter node kinds of functions.
var functionKinds = map[string]bool{
	"function_declaration": true, "function_expression": true, "function": true, "generator_function": true,
	"generator_function_declaration": true, "method_definition": true, "arrow_function": true,
}

// Spans returns the functions of file, in source order.
func (spanner) Spans(file string, src []byte) ([]lang.FuncSpan, error) {
	spans, _, err := spansOf(file, src)
	return spans, err
}

// spansOf returns the functions of file, in source order, and the line
// each one's body starts on (its block's brace, an arrow's expression).
func spansOf(file string, src []byte) ([]lang.FuncSpan, []int, error) {
	tree, err := parse(grammar(file), src)
	if err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", file, err)
	}
	defer tree.Close()
	var out []lang.FuncSpan
	var bodies []int
	var walk func(n *sitter.Node, scope string)
	walk = func(n *sitter.Node, scope string) {
		kind := n.Type()
		inner := scope
		switch {
		case functionKinds[kind]:
			inner = qualify(scope, funcName(n, src))
			out = append(out, lang.FuncSpan{Name: inner, Start: int(n.StartPoint().Row) + 1,
				End: int(n.EndPoint().Row) + 1, Hash: tokenHash(n, src)})
			body := int(n.EndPoint().Row) + 1 // none found: the whole function is header (safe)
			if b := n.ChildByFieldName("body"); b != nil {
				body = int(b.StartPoint().Row) + 1
			}
			bodies = append(bodies, body)
		case kind == "class_declaration" || kind == "class" || kind == "abstract_class_declaration":
			name := "<anonymous>"
			if id := n.ChildByFieldName("name"); id != nil {
				name = id.Content(src)
			} else if assigned := assignedName(n, src); assigned != "" {
				name = assigned
			}
			inner = qualify(scope, name)
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			walk(n.NamedChild(i), inner)
		}
	}
	walk(tree.RootNode(), "")
	return out, bodies, nil
}

func qualify(scope, name string) string {
	if scope == "" {
		return name
	}
	return scope + "." + name
}

// funcName is a function's own name, or the name it is assigned to.
func funcName(n *sitter.Node, src []byte) string {
	if id := n.ChildByFieldName("name"); id != nil {
		return id.Content(src)
	}
	if name := assignedName(n, src); name != "" {
		return name
	}
	return "<anonymous>"
}

// assignedName is the name a function or class expression is given where
// it stands: a variable, an assignment's target, an object's key, a class
// field; "" elsewhere (an argument).
func assignedName(n *sitter.Node, src []byte) string {
	p := n.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		n, p = p, p.Parent()
	}
	if p == nil {
		return ""
	}
	var target *sitter.Node
	switch p.Type() {
	case "variable_declarator":
		target = p.ChildByFieldName("name")
	case "assignment_expression", "augmented_assignment_expression":
		target = p.ChildByFieldName("left")
	case "pair":
		target = p.ChildByFieldName("key")
	case "public_field_definition", "field_definition":
		target = p.ChildByFieldName("name")
		if target == nil {
			target = p.ChildByFieldName("property")
		}
	}
	if target == nil || target.Equal(n) {
		return ""
	}
	return target.Content(src)
}

// literals are the nodes hashed whole: a template's text between its
// substitutions is no node of its own.
var literals = map[string]bool{"string": true, "template_string": true, "regex": true}

// tokenHash hashes a node's leaves (kind and text), comments left out.
func tokenHash(n *sitter.Node, src []byte) uint64 {
	h := xxh3.New()
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.Type() == "comment" {
			return
		}
		if n.ChildCount() == 0 || literals[n.Type()] {
			h.WriteString(n.Type())
			h.Write([]byte{0})
			h.Write(src[n.StartByte():n.EndByte()])
			h.Write([]byte{0})
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i))
		}
	}
	walk(n)
	return h.Sum64()
}
