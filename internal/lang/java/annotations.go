package java

import (
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// annotation is one annotation on a declaration.
type annotation struct {
	name string // as written: Test, org.junit.Test
	node *sitter.Node
	args map[string]*sitter.Node // element name -> value; a lone value is "value"
}

// simpleName is the annotation's name without its package.
func (a *annotation) simpleName() string { return lastSegment(a.name) }

// modifiersOf returns a declaration's annotations and modifier keywords
// (public, static, abstract, default, ...).
func modifiersOf(decl *sitter.Node, src []byte) (anns []annotation, kw map[string]bool) {
	kw = map[string]bool{}
	for i := 0; i < int(decl.NamedChildCount()); i++ {
		m := decl.NamedChild(i)
		if m.Type() != "modifiers" {
			continue
		}
		for j := 0; j < int(m.ChildCount()); j++ {
			c := m.Child(j)
			if isAnnotation(c) {
				anns = append(anns, parseAnnotation(c, src))
			} else if !c.IsNamed() {
				kw[c.Type()] = true
			}
		}
	}
	return anns, kw
}

func parseAnnotation(n *sitter.Node, src []byte) annotation {
	a := annotation{node: n, args: map[string]*sitter.Node{}}
	if nm := n.ChildByFieldName("name"); nm != nil {
		a.name = strings.Join(strings.Fields(nm.Content(src)), "")
	}
	args := n.ChildByFieldName("arguments")
	if args == nil {
		return a
	}
	for i := 0; i < int(args.NamedChildCount()); i++ {
		c := args.NamedChild(i)
		switch c.Type() {
		case "element_value_pair":
			if k := c.ChildByFieldName("key"); k != nil {
				a.args[k.Content(src)] = c.ChildByFieldName("value")
			}
		case "line_comment", "block_comment":
		default:
			a.args["value"] = c
		}
	}
	return a
}

// elements returns the elements of an annotation value: the items of an
// array initializer {a, b}, or the value itself.
func elements(v *sitter.Node) []*sitter.Node {
	if v == nil {
		return nil
	}
	if v.Type() != "element_value_array_initializer" {
		return []*sitter.Node{v}
	}
	var out []*sitter.Node
	for i := 0; i < int(v.NamedChildCount()); i++ {
		c := v.NamedChild(i)
		if c.Type() != "line_comment" && c.Type() != "block_comment" {
			out = append(out, c)
		}
	}
	return out
}

// stringValue returns a string literal's value (escapes left as written,
// text blocks with their indentation removed), ok false for anything else.
func stringValue(v *sitter.Node, src []byte) (string, bool) {
	if v == nil || v.Type() != "string_literal" {
		return "", false
	}
	s := v.Content(src)
	if strings.HasPrefix(s, `"""`) && strings.HasSuffix(s, `"""`) && len(s) >= 6 {
		return s[3 : len(s)-3], true
	}
	if uq, err := strconv.Unquote(s); err == nil {
		return uq, true
	}
	return strings.Trim(s, `"`), true
}

// intValue returns a decimal integer literal's value.
func intValue(v *sitter.Node, src []byte) (int, bool) {
	if v == nil || v.Type() != "decimal_integer_literal" {
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v.Content(src), "_", ""))
	return n, err == nil
}

// tagsOf reads @Tag("x"), @Tags({@Tag("x"), ...}) and JUnit 4's
// @Category(X.class) (resolved to a class name by resolve).
func tagsOf(anns []annotation, src []byte, resolve func(string) string) []string {
	var tags []string
	for i := range anns {
		a := &anns[i]
		switch a.simpleName() {
		case "Tag":
			if s, ok := stringValue(a.args["value"], src); ok {
				tags = append(tags, strings.TrimSpace(s))
			}
		case "Tags":
			for _, e := range elements(a.args["value"]) {
				if isAnnotation(e) {
					tags = append(tags, tagsOf([]annotation{parseAnnotation(e, src)}, src, resolve)...)
				}
			}
		case "Category":
			for _, e := range elements(a.args["value"]) {
				if e.Type() == "class_literal" && e.NamedChildCount() > 0 {
					tags = append(tags, resolve(rawName(e.NamedChild(0), src)))
				}
			}
		}
	}
	return tags
}

// sourceText is an annotation's source with its whitespace collapsed and
// its length capped, for a dynamic record's {placeholder}.
func sourceText(n *sitter.Node, src []byte) string {
	s := strings.Join(strings.Fields(n.Content(src)), " ")
	if len(s) > 80 {
		s = strings.ToValidUTF8(s[:77], "") + "..."
	}
	return s
}
