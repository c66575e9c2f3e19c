package python

import (
	"fmt"
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
)

// seqRepr is repr() of a list or tuple literal whose elements are ints,
// floats, bools, None, strs or such sequences; "" otherwise.
func (w *evaluator) seqRepr(n *sitter.Node, depth int) string {
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

// reprOf is repr() of a value, "" when not known here.
func reprOf(v pyVal) string {
	switch {
	case v.kind == vObject:
		return v.repr
	case v.kind != vText, v.deferred:
		return ""
	case v.isStr():
		return strRepr(v.raw)
	case v.scalar && v.num != numNone, v.scalar && (v.id == "True" || v.id == "False" || v.id == "None"):
		return v.id
	}
	return ""
}

// strRepr is repr() of a str: single quotes unless it holds a single
// quote and no double quote; backslash, the quote, \t \n \r and the
// characters str.isprintable refuses escaped. Outside the Basic
// Multilingual Plane the Unicode versions of Go and Python may disagree
// on what is printable: such text gives "" (unknown).
func strRepr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for i := 0; i < len(s); {
		r, size := decodeCodePoint(s[i:])
		i += size
		switch {
		case r == '\\' || r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r >= 0x10000:
			return ""
		case r < 0x20 || r == 0x7f || r >= 0x80 && !unicode.IsPrint(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
