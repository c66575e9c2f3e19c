package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// seqRepr is repr() of a list or tuple literal whose elements are ints,
// floats, bools, None, ASCII strs or such sequences; "" otherwise.
func (w *walker) seqRepr(n *sitter.Node, depth int) string {
	// The elements' own assumptions do not matter: a list's ID is
	// argname+index, and functions have no repr here.
	saved := w.assumed
	defer func() { w.assumed = saved }()
	var parts []string
	for _, c := range children(n) {
		r := reprOf(w.value(c, depth+1))
		if r == "" {
			return ""
		}
		parts = append(parts, r)
	}
	if n.Type() == "list" {
		return "[" + strings.Join(parts, ", ") + "]"
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// reprOf is repr() of a value, "" when not known here. A str's repr is
// only produced for ASCII text, where Python's isprintable is simple.
func reprOf(v pyVal) string {
	switch {
	case v.kind == vObject:
		return v.repr
	case v.kind != vText:
		return ""
	case v.isStr():
		return strRepr(v.raw)
	case v.scalar && v.num != numNone, v.scalar && (v.id == "True" || v.id == "False" || v.id == "None"):
		return v.id
	}
	return ""
}

// strRepr is repr() of an ASCII str: single quotes unless it holds a
// single quote and no double quote; backslash, the quote, \t \n \r and
// other control characters escaped.
func strRepr(s string) string {
	if !isASCII(s) {
		return ""
	}
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' || c == q:
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}
