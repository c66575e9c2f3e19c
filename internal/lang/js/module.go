package js

import (
	"strings"

	"github.com/testdex/testdex"

	sitter "github.com/smacker/go-tree-sitter"
)

// scanModule reads the top level of the file: imports and requires of the
// test modules (aliases such as import { test as t } from 'node:test') and
// const bindings that .each tables and titles may name.
func (w *walker) scanModule() {
	for i := 0; i < int(w.root.NamedChildCount()); i++ {
		n := w.root.NamedChild(i)
		if n.Type() == "export_statement" {
			if d := n.ChildByFieldName("declaration"); d != nil {
				n = d
			}
		}
		switch n.Type() {
		case "function_declaration", "generator_function_declaration":
			if id := n.ChildByFieldName("name"); id != nil {
				w.functions[w.text(id)] = true
				if _, dup := w.fnDecls[w.text(id)]; dup || w.consts[w.text(id)] != nil || w.vars[w.text(id)] != nil {
					w.redeclared[w.text(id)] = true
				}
				if n.Type() == "function_declaration" {
					w.fnDecls[w.text(id)] = n
				}
			}
		case "import_statement":
			w.importAliases(n)
		case "lexical_declaration", "variable_declaration":
			isConst := n.ChildCount() > 0 && w.text(n.Child(0)) == "const"
			for j := 0; j < int(n.NamedChildCount()); j++ {
				if d := n.NamedChild(j); d.Type() == "variable_declarator" {
					w.declarator(d, isConst)
				}
			}
		}
	}
}

func (w *walker) importAliases(n *sitter.Node) {
	src := n.ChildByFieldName("source")
	if src != nil && relative(unescape(w.text(src), 1)) {
		w.importBindings(n, unescape(w.text(src), 1))
		return
	}
	if src == nil {
		return
	}
	if spec := unescape(w.text(src), 1); !testModules[spec] {
		if !builtin(spec) && !strings.HasPrefix(spec, "node:") {
			w.importBindings(n, spec) // a mapped path (src/x) or a package: the linker resolves it
		}
		return
	}
	isNode := unescape(w.text(src), 1) == "node:test" || unescape(w.text(src), 1) == "test"
	if isNode && w.fw == testdex.Vitest {
		// node:test's functions in a Vitest file register with node's
		// runner, not Vitest's: not tests of this file, and the tests
		// their callbacks declare through Vitest are Vitest's, at the
		// level the call is (Vitest lists them so).
		w.eachImport(n, func(local, imported string) {
			w.aliases[local] = ""
			w.foreignSuites[local] = imported == "describe" || imported == "suite"
		})
		return
	}
	w.eachImport(n, func(local, imported string) {
		switch imported {
		case "default": // import test from 'node:test'
			if isNode {
				w.aliases[local] = "test"
			}
		case "*": // import * as t from 'vitest'
			w.namespace(local)
		default:
			w.alias(local, imported)
		}
	})
}

// testNames are the test functions a test module may export.
var testNames = []string{"describe", "fdescribe", "xdescribe", "it", "fit", "xit", "test", "xtest", "suite", "context", "specify", "xcontext", "xspecify"}

// alias records a local name for a test function when the imported name
// is one.
func (w *walker) alias(local, imported string) {
	if contains(testNames, imported) {
		w.aliases[local] = imported
	}
}

// namespace records a binding of a whole test module, such as the
// globals_1 of TypeScript's CommonJS output (const globals_1 =
// require("@jest/globals"); (0, globals_1.test)(...)): ns.describe and
// the like are aliases.
func (w *walker) namespace(ns string) {
	for _, name := range testNames {
		w.aliases[ns+"."+name] = name
	}
}

func (w *walker) declarator(d *sitter.Node, isConst bool) {
	name, val := d.ChildByFieldName("name"), d.ChildByFieldName("value")
	if name == nil || val == nil {
		return
	}
	if spec := w.requiredLocal(val); spec != "" {
		w.requireBindings(name, spec)
		return
	}
	if spec, member := w.requiredMember(val); spec != "" && name.Type() == "identifier" {
		w.addImport(w.text(name), spec, member)
		return
	}
	if mod := w.requiredTestModule(val); mod != "" {
		switch name.Type() {
		case "identifier":
			if mod == "node:test" || mod == "test" {
				w.aliases[w.text(name)] = "test"
			}
			w.namespace(w.text(name))
		case "object_pattern":
			for k := 0; k < int(name.NamedChildCount()); k++ {
				p := name.NamedChild(k)
				switch p.Type() {
				case "shorthand_property_identifier_pattern":
					w.alias(w.text(p), w.text(p))
				case "pair_pattern":
					if key, v := p.ChildByFieldName("key"), p.ChildByFieldName("value"); key != nil && v != nil {
						w.alias(w.text(v), w.text(key))
					}
				}
			}
		}
		return
	}
	if name.Type() != "identifier" {
		return
	}
	id := w.text(name)
	if isConst && w.calleeAlias(id, val) {
		return
	}
	if isFunction(val.Type()) {
		w.functions[id] = true
	}
	if _, dup := w.vars[id]; dup || w.consts[id] != nil {
		w.redeclared[id] = true
	}
	if isConst {
		w.consts[id] = val
	} else {
		w.vars[id] = val
	}
}

// calleeAlias records const t = test, const t = test.skip and
// const t = cond ? test.skip : test: a local name for a test function,
// possibly one of two chosen at run time.
func (w *walker) calleeAlias(id string, val *sitter.Node) bool {
	switch val.Type() {
	case "identifier", "member_expression", "ternary_expression", "parenthesized_expression":
	default:
		return false
	}
	bs, ok := w.branches(val, 0)
	if !ok {
		return false
	}
	for _, b := range bs {
		if _, ok := w.canonical(b.base); !ok {
			return false
		}
	}
	w.calleeAliases[id] = val
	return true
}

// requiredTestModule returns the test module a require call loads, or "".
func (w *walker) requiredTestModule(call *sitter.Node) string {
	if call.Type() != "call_expression" {
		return ""
	}
	fn, args := call.ChildByFieldName("function"), call.ChildByFieldName("arguments")
	if fn == nil || args == nil || w.text(fn) != "require" || args.NamedChildCount() == 0 {
		return ""
	}
	a := args.NamedChild(0)
	if mod := unescape(w.text(a), 1); a.Type() == "string" && testModules[mod] {
		return mod
	}
	return ""
}
