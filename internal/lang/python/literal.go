package python

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// valKind classifies a Python expression for pytest's ID rules.
type valKind int

const (
	vUnknown valKind = iota // cannot be known statically: the table becomes dynamic
	vText                   // str, bytes, numbers, bool, None, __name__: id is known
	vObject                 // an object without __name__: pytest uses argname+index
)

// pyVal is a statically evaluated value: its kind and, for vText, the ID
// pytest derives from it.
type pyVal struct {
	kind valKind
	id   string
	// raw is a str or bytes value itself (bytes as one rune per byte),
	// for pytest's long-string rule; str is true for both, bytes for bytes.
	raw   string
	str   bool
	bytes bool
	// scalar marks an int, float, complex, bool or None, whose str() is id.
	scalar bool
	// num tells an int or a float (f) apart, for arithmetic.
	num numKind
	f   float64
	// repr is a list's or tuple's repr() when every element's is known.
	repr string
	// deferred marks an imported constant whose str() the Linker reads
	// in its module: id is its dotted name (constPlaceholder in IDs).
	deferred bool
	// pattern marks a compiled regular expression (its ID is its
	// pattern; it has no __name__).
	pattern bool
}

// isStr reports a str (not bytes) value.
func (v pyVal) isStr() bool { return v.kind == vText && v.str && !v.bytes }

// strVal is a str or bytes value with the ID pytest's
// _ascii_escaped_by_config gives it.
func (w *evaluator) strVal(raw string, isBytes bool) pyVal {
	v := pyVal{kind: vText, raw: raw, str: true, bytes: isBytes}
	switch {
	case w.noEscape && isBytes:
		// The ini option hands the bytes themselves to "-".join, which
		// fails: pytest reports a collection error.
		v.kind = vUnknown
	case w.noEscape && !utf8.ValidString(raw):
		v.kind = vUnknown // a lone surrogate: pytest cannot print it either
	case w.noEscape:
		v.id = raw
	case isBytes:
		v.id = asciiEscapedBytes(raw)
	default:
		v.id = asciiEscaped(raw)
	}
	return v
}

// decodeString decodes one Python string literal's source text (prefix and
// quotes included). It reports whether it is bytes and false in ok for
// f-strings with replacement fields and escapes it does not know.
func decodeString(src string) (val string, isBytes, ok bool) {
	i := strings.IndexAny(src, `'"`)
	if i < 0 {
		return "", false, false
	}
	prefix := strings.ToLower(src[:i])
	raw := strings.Contains(prefix, "r")
	isBytes = strings.Contains(prefix, "b")
	body := src[i:]
	q := body[:1]
	if strings.HasPrefix(body, q+q+q) && len(body) >= 6 {
		q = q + q + q
	}
	if len(body) < 2*len(q) || !strings.HasSuffix(body, q) {
		return "", false, false
	}
	body = body[len(q) : len(body)-len(q)]
	if strings.Contains(prefix, "f") || strings.Contains(prefix, "t") {
		if strings.ContainsAny(body, "{}") {
			return "", false, false
		}
	}
	if raw {
		return body, isBytes, true
	}
	s, ok := unescape(body, isBytes)
	return s, isBytes, ok
}

// unescape applies Python's backslash escapes. Bytes literals keep each
// \xNN as one byte (a rune below 256 stands for a byte).
func unescape(s string, isBytes bool) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a', 'b', 'f', 'n', 'r', 't', 'v':
			b.WriteByte(map[byte]byte{'a': 7, 'b': 8, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11}[e])
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if e != 'x' && isBytes {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			if i+1+n > len(s) {
				return "", false
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil || v > utf8.MaxRune {
				return "", false
			}
			writeCodePoint(&b, rune(v))
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			b.WriteRune(rune(v))
			i = j - 1
		default:
			if e == 'N' && !isBytes {
				return "", false // \N{NAME}: needs the Unicode name table
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), true
}

// asciiEscaped is pytest's ascii_escaped for a str: unicode_escape, which
// escapes backslashes, \t \n \r, other control characters and all
// non-ASCII characters.
func asciiEscaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := decodeCodePoint(s[i:])
		i += size
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r >= 0x7f && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x100 && r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// asciiEscapedBytes is pytest's ascii_escaped for bytes: the decoded
// literal holds one rune per byte.
func asciiEscapedBytes(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r&0xff)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pyInt renders a Python integer literal as str() does: decimal, without
// underscores. ok is false for what is not an integer literal.
func pyInt(src string) (string, bool) {
	s := strings.ReplaceAll(strings.ToLower(src), "_", "")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0o"):
		base, s = 8, s[2:]
	case strings.HasPrefix(s, "0b"):
		base, s = 2, s[2:]
	}
	n, ok := new(big.Int).SetString(s, base)
	if !ok {
		return "", false
	}
	return n.String(), true
}

// floatRepr renders a float as Python's repr() does: the shortest
// round-tripping digits, exponent form below 1e-4 and from 1e16.
func floatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// numberValue evaluates an int, float or imaginary literal: str() of an
// imaginary number is its imaginary part's repr, without ".0" when
// integral, followed by j.
func numberValue(src string) pyVal {
	if strings.HasSuffix(src, "j") || strings.HasSuffix(src, "J") {
		f, err := strconv.ParseFloat(strings.ReplaceAll(src[:len(src)-1], "_", ""), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return pyVal{kind: vUnknown}
		}
		return pyVal{kind: vText, id: strings.TrimSuffix(floatRepr(f), ".0") + "j", scalar: true}
	}
	if s, ok := pyInt(src); ok {
		return pyVal{kind: vText, id: s, scalar: true, num: numInt}
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(src, "_", ""), 64)
	if err != nil && !math.IsInf(f, 0) {
		return pyVal{kind: vUnknown}
	}
	return floatVal(f)
}

// writeCodePoint writes a code point as UTF-8, and a lone surrogate
// (which a Python str may hold: "\udcbf") in the same three-byte form
// (WTF-8), which Go's WriteRune would replace by U+FFFD.
func writeCodePoint(b *strings.Builder, r rune) {
	if r < 0xd800 || r > 0xdfff {
		b.WriteRune(r)
		return
	}
	b.WriteByte(byte(0xe0 | r>>12))
	b.WriteByte(byte(0x80 | (r>>6)&0x3f))
	b.WriteByte(byte(0x80 | r&0x3f))
}

// decodeCodePoint reads one code point written by writeCodePoint.
func decodeCodePoint(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xed && s[1] >= 0xa0 && s[1] <= 0xbf && s[2] >= 0x80 && s[2] <= 0xbf {
		return rune(s[0]&0x0f)<<12 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), 3
	}
	return utf8.DecodeRuneInString(s)
}

// codePoints is len() of a str held as writeCodePoint writes it.
func codePoints(s string) int {
	n := 0
	for i := 0; i < len(s); n++ {
		_, size := decodeCodePoint(s[i:])
		i += size
	}
	return n
}
