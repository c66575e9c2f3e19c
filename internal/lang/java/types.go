package java

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// typeParams maps a type variable to the simple name of its erasure.
type typeParams map[string]string

// with returns the type variables of a type_parameters node added to t
// (t itself is not modified). A variable erases to its first bound, or to
// Object when it has none.
func (t typeParams) with(n *sitter.Node, src []byte) typeParams {
	if n == nil {
		return t
	}
	out := make(typeParams, len(t)+int(n.NamedChildCount()))
	for k, v := range t {
		out[k] = v
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		p := n.NamedChild(i)
		if p.Type() != "type_parameter" {
			continue
		}
		name, erasure := "", "Object"
		for j := 0; j < int(p.NamedChildCount()); j++ {
			c := p.NamedChild(j)
			switch c.Type() {
			case "type_identifier", "identifier":
				name = c.Content(src)
			case "type_bound":
				if c.NamedChildCount() > 0 {
					erasure = out.simple(c.NamedChild(0), src)
				}
			}
		}
		if name != "" {
			out[name] = erasure
		}
	}
	return out
}

// simple renders a type node as java.lang.Class.getSimpleName renders its
// erasure: generic arguments dropped, qualifiers dropped, type variables
// replaced by their bound, arrays as Elem[].
func (t typeParams) simple(n *sitter.Node, src []byte) string {
	if n == nil {
		return "?"
	}
	switch n.Type() {
	case "type_identifier", "identifier":
		name := n.Content(src)
		if e, ok := t[name]; ok {
			return e
		}
		return name
	case "scoped_type_identifier", "scoped_identifier":
		return lastSegment(stripAnnotations(n.Content(src)))
	case "generic_type":
		return t.simple(n.NamedChild(0), src)
	case "array_type":
		return t.simple(n.ChildByFieldName("element"), src) + dims(n.ChildByFieldName("dimensions"), src)
	case "annotated_type":
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			if c := n.NamedChild(i); !isAnnotation(c) {
				return t.simple(c, src)
			}
		}
	}
	return strings.Join(strings.Fields(n.Content(src)), "")
}

// dims renders a dimensions node ([] [] or @A []) as "[][]".
func dims(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	return strings.Repeat("[]", strings.Count(n.Content(src), "["))
}

// params renders a method's formal parameters as the display name lists
// them: "int, String[], List".
func (t typeParams) params(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	var out []string
	for i := 0; i < int(n.NamedChildCount()); i++ {
		p := n.NamedChild(i)
		switch p.Type() {
		case "formal_parameter":
			out = append(out, t.simple(p.ChildByFieldName("type"), src)+dims(p.ChildByFieldName("dimensions"), src))
		case "spread_parameter":
			for j := 0; j < int(p.NamedChildCount()); j++ {
				c := p.NamedChild(j)
				if c.Type() != "modifiers" && c.Type() != "variable_declarator" && !isAnnotation(c) {
					out = append(out, t.simple(c, src)+"[]")
					break
				}
			}
		}
		// receiver_parameter (Foo this) is not a parameter.
	}
	return strings.Join(out, ", ")
}

// rawName renders a type as written without generic arguments or
// annotations: "com.y.Base", "Outer.Inner", "Base".
func rawName(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	if n.Type() == "generic_type" {
		return rawName(n.NamedChild(0), src)
	}
	s := n.Content(src)
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(stripAnnotations(s)), "")
}

// stripAnnotations drops type annotations (@NonNull) from a qualified
// type's text.
func stripAnnotations(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' }) {
		fs := strings.Fields(f)
		if len(fs) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(fs[len(fs)-1])
	}
	return b.String()
}

func lastSegment(s string) string {
	if i := strings.LastIndexAny(s, ".$"); i >= 0 {
		return s[i+1:]
	}
	return s
}

func isAnnotation(n *sitter.Node) bool {
	return n.Type() == "annotation" || n.Type() == "marker_annotation"
}
