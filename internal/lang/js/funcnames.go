package js

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// A function's name property, where the source decides it, is what loupe
// prints of the function (Vitest's $variables and %o): [Function encode].
// JavaScript names an anonymous function or arrow by the property key it
// is written under ({ encode: () => x }), a function expression by its
// own name, a method by its key; the global functions below are named as
// themselves. An async or generator function prints another tag
// ([AsyncFunction f]) and is left unnamed, as is every other function:
// its rows stay dynamic.

// globalFunctions are the global functions whose name property is their
// own name, read where nothing in the file binds the name.
var globalFunctions = map[string]bool{"encodeURI": true, "encodeURIComponent": true, "decodeURI": true,
	"decodeURIComponent": true, "escape": true, "unescape": true, "parseInt": true, "parseFloat": true,
	"isNaN": true, "isFinite": true}

// plainFunction reports whether a function node is neither async nor a
// generator: a Function, as loupe tags it.
func plainFunction(n *sitter.Node) bool {
	switch n.Type() {
	case "arrow_function", "function_expression", "function":
	default:
		return false
	}
	for i := 0; i < int(n.ChildCount()); i++ {
		if t := n.Child(i).Type(); t == "async" || t == "*" {
			return false
		}
	}
	return true
}

// plainMethod reports whether a method definition is neither async nor a
// generator.
func plainMethod(m *sitter.Node) bool {
	for i := 0; i < int(m.ChildCount()); i++ {
		if t := m.Child(i).Type(); t == "async" || t == "*" {
			return false
		}
	}
	return true
}

// ownName is the name a function expression gives itself, "" for an
// arrow or an anonymous one.
func (w *evaluator) ownName(n *sitter.Node) string {
	if !plainFunction(n) || n.Type() == "arrow_function" {
		return ""
	}
	if id := n.ChildByFieldName("name"); id != nil {
		return w.text(id)
	}
	return ""
}

// keyName names v, the value of a property written under key, as
// JavaScript names an anonymous function there.
func keyName(v value, n *sitter.Node, key string) value {
	if v.fn && v.fname == "" && plainFunction(n) && (n.Type() == "arrow_function" || n.ChildByFieldName("name") == nil) {
		v.fname = key
	}
	return v
}

// bindingParents are the nodes under which an identifier may be bound or
// assigned; an identifier there, in any role, counts as bound.
var bindingParents = map[string]bool{"variable_declarator": true, "formal_parameters": true,
	"required_parameter": true, "optional_parameter": true, "rest_pattern": true, "assignment_pattern": true,
	"array_pattern": true, "pair_pattern": true, "object_pattern": true, "function_declaration": true,
	"function_expression": true, "function": true, "generator_function_declaration": true,
	"generator_function": true, "class_declaration": true, "class": true, "arrow_function": true,
	"catch_clause": true, "import_specifier": true, "import_clause": true, "namespace_import": true,
	"for_in_statement": true, "assignment_expression": true, "augmented_assignment_expression": true,
	"update_expression": true}

// globalFunction is the value of a global function named at n, when
// nothing in the file binds or assigns its name.
func (w *evaluator) globalFunction(n *sitter.Node, name string) (value, bool) {
	if !globalFunctions[name] || w.env.lookup(name) != nil {
		return value{}, false
	}
	if w.bound == nil {
		w.bound = map[string]bool{}
		q, err := cachedQuery(w.lang, `(identifier) @i (shorthand_property_identifier_pattern) @i`)
		if err != nil {
			return value{}, false
		}
		for c := range tsgrammars.CaptureNodes(q, w.root) {
			if p := c.Parent(); c.Type() != "identifier" || p == nil || bindingParents[p.Type()] {
				w.bound[w.text(c)] = true
			}
		}
	}
	if w.bound[name] {
		return value{}, false
	}
	return value{str: name, fn: true, fname: name}, true
}

// printable reports whether loupe prints v as the source decides: v is
// known but for functions whose names are (see fname).
func (v value) printable() bool {
	switch v.kind {
	case kUnknown:
		return v.fn && v.fname != ""
	case kArray:
		for _, e := range v.arr {
			if !e.printable() {
				return false
			}
		}
	case kObject:
		for _, e := range v.vals {
			if !e.printable() {
				return false
			}
		}
	}
	return true
}
