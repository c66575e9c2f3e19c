package js

import (
	"fmt"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// The functions of a local module an importer evaluates at its calls
// (see value.pure) carry what they read of their module that is known:
// its consts of literal values. The importer appends them after its own
// source (withHelpers), where they must parse whole.

// withModuleConsts puts, at the start of a pure function's body (see
// helperParts), the module's consts of literal values
// that the body reads (const RE = /^[A-Za-z]:\//, read by pathe's
// normalizeWindowsPath), under their renamed names: an importer then
// reads them as the module does. A const the function declares again, or
// of any other value, stays unknown there.
func (w *walker) withModuleConsts(fn *sitter.Node, params, body string) string {
	var names []string
	for name, d := range w.consts {
		r := "$m$" + name
		if !literalConst(d) || w.redeclared[name] || !mentions(body, r) || mentions(params, r) || w.bindsAgain(fn, name) {
			continue
		}
		names = append(names, name)
	}
	if len(names) == 0 || !strings.HasPrefix(body, "{") {
		return body
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("{")
	for _, name := range names {
		fmt.Fprintf(&b, " const $m$%s = %s;", name, w.text(w.consts[name]))
	}
	b.WriteString(body[1:])
	return b.String()
}

// literalConst reports whether a const's value is a literal of a
// primitive or a regular expression.
func literalConst(d *sitter.Node) bool {
	switch d.Type() {
	case "regex", "string", "number", "true", "false", "null":
		return true
	case "template_string":
		return d.NamedChildCount() == 0
	}
	return false
}

// mentions reports whether src holds the identifier id.
func mentions(src, id string) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], id)
		if j < 0 {
			return false
		}
		end := i + j + len(id)
		if end >= len(src) || !identByte(src[end]) {
			return true
		}
		i = end
	}
}

// bindsAgain reports whether the function fn binds name itself, which
// then is not the module's there: an identifier of the name where a
// declaration, a parameter or a pattern puts it.
func (w *walker) bindsAgain(fn *sitter.Node, name string) bool {
	q, err := cachedQuery(w.lang, `(identifier) @i (shorthand_property_identifier_pattern) @i`)
	if err != nil {
		return true
	}
	for c := range tsgrammars.CaptureNodes(q, fn) {
		if w.text(c) != name {
			continue
		}
		p := c.Parent()
		if p == nil {
			return true
		}
		switch p.Type() {
		case "member_expression", "call_expression", "arguments", "binary_expression", "unary_expression",
			"return_statement", "parenthesized_expression", "ternary_expression", "template_substitution",
			"subscript_expression", "array", "pair", "spread_element", "expression_statement":
			continue // a read
		case "variable_declarator", "assignment_pattern", "object_assignment_pattern":
			if p.ChildByFieldName("value") != nil && p.ChildByFieldName("value").ID() == c.ID() ||
				p.ChildByFieldName("right") != nil && p.ChildByFieldName("right").ID() == c.ID() {
				continue // a read on the right
			}
		}
		return true
	}
	return false
}

// identByte reports whether c may continue an identifier.
func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// appendedWhole reports whether the functions appended to a file that
// has a syntax error of its own (pathe's String.raw`.\undefined`, which
// tree-sitter refuses and node takes) are whole: n function declarations
// at the top level after the file's end, none holding an error.
func appendedWhole(root *sitter.Node, end, n int) bool {
	found := 0
	for i := 0; i < int(root.NamedChildCount()); i++ {
		c := root.NamedChild(i)
		if int(c.EndByte()) <= end {
			continue
		}
		if int(c.StartByte()) < end || c.Type() != "function_declaration" || c.HasError() {
			return false
		}
		found++
	}
	return found == n
}
