package python

import (
	"bytes"
	"strings"
)

// The skeleton's tokenizer: Python's logical lines, strings (f-strings
// with their fields), numbers, brackets, and the grammar errors the
// tokens show.

// logicalLine reads tokens up to the end of a logical line (a line end
// outside brackets and not after a backslash), keeping the last one in
// s.last; it stops on the line end. It is false on what it does not
// follow, and on the errors of Python's grammar the order of the tokens
// shows (operand, operator).
func (s *skelScan) logicalLine() bool {
	s.last, s.first = skelTok{}, true
	lead := s.wordAt(s.pos)
	py2 := lead == "except" || lead == "raise" // except E, e: and raise E, v are Python 2's
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == '\n' || c == '\r':
			if len(s.depth) == 0 {
				return !s.last.dangling
			}
			s.pos++
		case c == ' ' || c == '\t' || c == '\f':
			s.pos++
		case c == '#':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' && s.src[s.pos] != '\r' {
				s.pos++
			}
		case c == '\\':
			s.pos++
			if s.pos >= len(s.src) || (s.src[s.pos] != '\n' && s.src[s.pos] != '\r') {
				return false
			}
			s.newline()
		case c == '\'' || c == '"':
			if !s.operand(true) || !s.str(s.pos, false, false) {
				return false
			}
		case c >= '0' && c <= '9' || c == '.' && s.pos+1 < len(s.src) && s.src[s.pos+1] >= '0' && s.src[s.pos+1] <= '9':
			if !s.number() {
				return false
			}
		case isWordByte(c):
			if !s.word() {
				return false
			}
		default:
			if !s.operator(c) || c == ',' && py2 && len(s.depth) == 0 {
				return false
			}
		}
		s.first = s.first && (c == ' ' || c == '\t' || c == '\f' || c == '#')
	}
	return !s.last.dangling
}

// skelTok is what the last token of a logical line was, for the grammar
// checks.
type skelTok struct {
	operand  bool // a name, number, string, ... or closing bracket
	soft     bool // a soft keyword (match, case, type): a name or a keyword
	str      bool // a string
	dangling bool // an operator or keyword that wants an operand after it
	colon    bool // ':' (not ':=')
	comma    bool // ','
	imports  bool // the keyword import
	from     bool // the keyword from
	dot      bool // '.'
}

// operand moves past an operand's start: false when the token before
// was an operand too (a missing operator or comma, Python 2's print "x"),
// but for strings after strings (implicit concatenation) and operands
// after soft keywords.
func (s *skelScan) operand(str bool) bool {
	if s.last.operand && !s.last.soft && !(str && s.last.str) {
		return false
	}
	s.last = skelTok{operand: true, str: str}
	return true
}

// opLen returns the length of the operator or delimiter at i: Python's
// two- and three-byte ones (** //= -> ... :=), else 1.
func opLen(src []byte, i int) int {
	var n1, n2 byte
	if i+1 < len(src) {
		n1 = src[i+1]
	}
	if i+2 < len(src) {
		n2 = src[i+2]
	}
	switch c := src[i]; c {
	case '*', '/', '>', '<':
		if n1 == c && n2 == '=' {
			return 3
		}
		if n1 == c || n1 == '=' {
			return 2
		}
	case '.':
		if n1 == '.' && n2 == '.' {
			return 3
		}
	case '-':
		if n1 == '>' || n1 == '=' {
			return 2
		}
	case ':', '=', '!', '+', '%', '&', '|', '^', '@':
		if n1 == '=' {
			return 2
		}
	}
	return 1
}

// operator reads one operator or delimiter. Brackets must balance; a
// closing one must not follow an operator that wants an operand; an
// operator that takes no operand on its left (=, ==, /, %, ...) must
// follow one; and bytes Python 3 has no use for (` $ ?, <> and a lone
// !) are refused.
func (s *skelScan) operator(c byte) bool {
	op := s.src[s.pos : s.pos+opLen(s.src, s.pos)]
	s.pos += len(op)
	prev, first := s.last, s.first
	s.last = skelTok{}
	switch string(op) {
	case "(", "[", "{":
		s.depth = append(s.depth, c)
	case ")", "]", "}":
		if prev.dangling || len(s.depth) == 0 || s.depth[len(s.depth)-1] != opening(c) {
			return false
		}
		s.depth = s.depth[:len(s.depth)-1]
		s.last.operand = true
	case ",":
		s.last.comma = true
	case ";":
	case ":":
		s.last.colon, s.colonAt = true, s.pos
	case "...", ".":
		if prev.from || prev.dot && !prev.operand { // from . import, from .. import
			s.last.dot, s.last.dangling = true, true
			return true
		}
		if len(op) == 3 {
			s.last = prev
			return s.operand(false) // Ellipsis
		}
		s.last.dot, s.last.dangling = true, true
		return prev.operand
	case "+", "-", "~", "*", "**":
		s.last.dangling = !(c == '*' && prev.imports) // unary or binary; from m import *
	case "@":
		s.last.dangling = true
		return first || prev.operand // a decorator, or matrix product
	case "/":
		if !prev.operand { // the positional-only marker: (a, /, b)
			return s.nextIs(',', ')', ':') // (a, /), lambda a, /: a
		}
		s.last.dangling = true
	case "`", "$", "?", "!":
		return false
	case "=":
		s.last.dangling = true
		return prev.operand || prev.comma // a, = x
	default: // operators that want an operand on each side
		s.last.dangling = true
		return prev.operand && !(c == '<' && s.pos < len(s.src) && s.src[s.pos] == '>')
	}
	return true
}

// nextIs reports whether the next byte but spaces is one of cs.
func (s *skelScan) nextIs(cs ...byte) bool {
	i := s.pos
	for i < len(s.src) && s.src[i] == ' ' {
		i++
	}
	return i < len(s.src) && bytes.IndexByte(cs, s.src[i]) >= 0
}

// word reads a name or number, or a string with its prefix.
func (s *skelScan) word() bool {
	i := s.pos
	for i < len(s.src) && isWordByte(s.src[i]) {
		i++
	}
	if i < len(s.src) && (s.src[i] == '\'' || s.src[i] == '"') {
		if raw, f, ok := skelPrefix(s.src[s.pos:i]); ok {
			return s.operand(true) && s.str(i, raw, f)
		}
	}
	w := s.src[s.pos:i]
	s.pos = i
	s.heed(w, s.last.dot)
	if k, ok := keyword(w); ok {
		switch k {
		case kwValue:
			return s.operand(false)
		case kwSoft:
			s.last = skelTok{operand: true, soft: true}
			return true
		}
		s.last = skelTok{dangling: k == kwWants, imports: string(w) == "import", from: string(w) == "from"}
		return true
	}
	return s.operand(false)
}

// number reads a number (an exponent's sign included); Python 2's 0777
// and 10L are refused.
func (s *skelScan) number() bool {
	i := s.pos
	for i < len(s.src) {
		c := s.src[i]
		if c == '+' || c == '-' {
			if p := s.src[i-1] | 0x20; p != 'e' || s.src[s.pos] == '0' && i-s.pos > 1 && s.src[s.pos+1]|0x20 == 'x' {
				break
			}
		} else if c != '.' && !isWordByte(c) {
			break
		}
		i++
	}
	w := s.src[s.pos:i]
	s.pos = i
	return numberOK(w) && s.operand(false)
}

// numberOK refuses Python 2's numbers: 0777 and 10L.
func numberOK(w []byte) bool {
	digits := true
	for _, c := range w[:len(w)-1] {
		digits = digits && c >= '0' && c <= '9'
	}
	if l := w[len(w)-1] | 0x20; l == 'l' && len(w) > 1 && (digits || len(w) > 2 && w[0] == '0' && w[1]|0x20 == 'x') {
		return false
	}
	if len(w) < 2 || w[0] != '0' || !digits || w[len(w)-1] < '0' || w[len(w)-1] > '9' {
		return true
	}
	return strings.Trim(string(w), "0") == ""
}

// Kinds of Python's keywords for the grammar checks: a value (True), one
// that wants an operand after it (and), the others (return), and the
// soft keywords (match), which are names too.
const (
	kwValue = iota
	kwWants
	kwOther
	kwSoft // a soft keyword: a name too
)

// keyword returns the kind of a Python 3 keyword or soft keyword.
func keyword(w []byte) (int, bool) {
	if len(w) < 2 || len(w) > 8 || w[0] < 'F' || w[0] > 'y' {
		return 0, false
	}
	switch string(w) {
	case "False", "None", "True":
		return kwValue, true
	case "and", "as", "assert", "async", "await", "class", "def", "del", "elif", "for", "from", "global",
		"if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "while", "with":
		return kwWants, true
	case "break", "continue", "else", "except", "finally", "pass", "raise", "return", "try", "yield":
		return kwOther, true
	case "match", "case", "type":
		return kwSoft, true
	}
	return 0, false
}

// skelPrefix reads a string prefix: r, u, b, f and their pairs br, rb,
// fr, rf in any case.
func skelPrefix(p []byte) (raw, f, ok bool) {
	if len(p) == 0 || len(p) > 2 {
		return false, false, false
	}
	var b, u bool
	for _, c := range p {
		switch c | 0x20 {
		case 'r':
			raw = !raw
			if !raw {
				return false, false, false
			}
		case 'b':
			b = true
		case 'u':
			u = true
		case 'f':
			f = true
		default:
			return false, false, false
		}
	}
	if u && len(p) > 1 || b && f {
		return false, false, false
	}
	return raw, f, true
}

// str reads a string literal whose quote is at i, to its end.
func (s *skelScan) str(i int, raw, f bool) bool {
	q := s.src[i]
	triple := i+2 < len(s.src) && s.src[i+1] == q && s.src[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	last := s.last
	end, ok := s.strBody(i, q, triple, raw, f)
	s.pos, s.last = end, last
	return ok
}

// strBody reads a string's contents from i and returns the offset after
// its closing quote.
func (s *skelScan) strBody(i int, q byte, triple, raw, f bool) (int, bool) {
	for i < len(s.src) {
		c := s.src[i]
		switch {
		case c == '\\':
			i = s.escape(i, raw, f)
		case c == q:
			if !triple {
				return i + 1, true
			}
			if i+2 < len(s.src) && s.src[i+1] == q && s.src[i+2] == q {
				return i + 3, true
			}
			i++
		case (c == '\n' || c == '\r') && !triple:
			return i, false
		case f && c == '{':
			if i+1 < len(s.src) && s.src[i+1] == '{' {
				i += 2
				continue
			}
			next, ok := s.field(i+1, triple)
			if !ok {
				return next, false
			}
			i = next
		case f && c == '}':
			if i+1 < len(s.src) && s.src[i+1] == '}' {
				i += 2
				continue
			}
			return i, false // a single '}'
		default:
			i++
		}
	}
	return i, false
}

// escape steps over a backslash in a string and what it escapes (in a raw
// string too, for the closing quote); in an f-string a brace after it is
// still a brace, but \N{NAME} is one escape when the string is not raw.
func (s *skelScan) escape(i int, raw, f bool) int {
	i++
	if i >= len(s.src) {
		return i
	}
	switch c := s.src[i]; {
	case f && (c == '{' || c == '}'):
		return i
	case f && !raw && c == 'N' && i+1 < len(s.src) && s.src[i+1] == '{':
		for i < len(s.src) && s.src[i] != '}' && s.src[i] != '\n' {
			i++
		}
		return i + 1
	case c == '\r' && i+1 < len(s.src) && s.src[i+1] == '\n':
		return i + 2
	}
	return i + 1
}

// field reads an f-string's replacement field from i (after its '{') and
// returns the offset after its '}': an expression (strings and brackets
// in it as in code), then an optional !conversion and :format spec (text
// with nested fields). Backslashes and comments in the expression, and
// line ends in a field of a single-quoted string, are refused.
func (s *skelScan) field(i int, triple bool) (int, bool) {
	var depth int
	s.last = skelTok{} // the expression's own tokens
	for i < len(s.src) {
		c := s.src[i]
		switch {
		case c == '\n' || c == '\r':
			if !triple {
				return i, false
			}
			i++
		case c == '#' || c == '\\':
			return i, false
		case c == '\'' || c == '"' || isWordByte(c):
			j := i
			for j < len(s.src) && isWordByte(s.src[j]) {
				j++
			}
			raw, f, ok := skelPrefix(s.src[i:j])
			if j == len(s.src) || s.src[j] != '\'' && s.src[j] != '"' {
				s.heed(s.src[i:j], true) // a name or number (after a '.' or not: unknown here)
				i = j
				continue
			}
			if j > i && !ok {
				return j, false
			}
			if !s.str(j, raw, f) {
				return s.pos, false
			}
			i = s.pos
		case c == '(' || c == '[' || c == '{':
			depth++
			i++
		case (c == ')' || c == ']') && depth > 0:
			depth--
			i++
		case c == '}':
			if depth == 0 {
				return i + 1, true
			}
			depth--
			i++
		case depth == 0 && (c == ':' || c == '!' && (i+1 >= len(s.src) || s.src[i+1] != '=')):
			return s.spec(i+1, triple)
		default:
			i++
		}
	}
	return i, false
}

// spec reads a field's conversion and format spec from i to the field's
// closing '}' and returns the offset after it.
func (s *skelScan) spec(i int, triple bool) (int, bool) {
	for i < len(s.src) {
		switch c := s.src[i]; {
		case c == '}':
			return i + 1, true
		case c == '{':
			next, ok := s.field(i+1, triple)
			if !ok {
				return next, false
			}
			i = next
		case c == '\'' || c == '"' || c == '\\':
			return i, false // the string's own quote may end here
		case (c == '\n' || c == '\r') && !triple:
			return i, false
		default:
			i++
		}
	}
	return i, false
}

// heed notes, in the body of a module-level function, a name the walker
// looks for there (functions): class, type, setattr, or test* after a '.'
// (an attribute of that name may be set).
func (s *skelScan) heed(w []byte, afterDot bool) {
	if s.fn == "" || s.blankAt < 0 || s.says {
		return
	}
	switch string(w) {
	case "class", "type", "setattr":
		s.says = true
	default:
		s.says = afterDot && bytes.HasPrefix(w, []byte("test"))
	}
}
