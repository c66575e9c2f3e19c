package rust

import (
	"strings"
	"unicode/utf8"
)

// tok is one Rust token tree as macro_rules! sees it. Groups hold their
// contents in sub; in a macro's matcher or body `$x` is a metavariable
// (kind 'v', with frag set in a matcher) and `$( ... ) sep op` a
// repetition (kind 'r').
type tok struct {
	k    byte   // 'i' ident or keyword, 'l' literal, 'p' punctuation, 'g' group, 'v' metavariable, 'r' repetition
	t    string // the text; a group's open delimiter; a metavariable's name
	frag string // a matcher metavariable's fragment specifier (ident, expr, tt, ...)
	sep  *tok   // a repetition's separator, nil when none
	op   byte   // a repetition's operator: '*', '+' or '?'
	sub  []tok
	line int // 0-based line within the tokenized text
}

// multiPunct are the punctuation pairs kept as one token: a matcher's
// `=>` separator and path `::` must not be split.
var multiPunct = []string{"=>", "::", "->", "==", "!=", "<=", ">=", "&&", "||", "..", "+=", "-="}

// closer maps a group's open delimiter to its close.
var closer = map[byte]byte{'(': ')', '[': ']', '{': '}'}

// tokenize splits Rust source into token trees. Comments are dropped;
// an unbalanced close delimiter ends the current group. It never fails:
// malformed text gives some tokens, and a caller that needs exactness
// checks what it gets.
func tokenize(src string) []tok {
	lx := &lexer{src: src}
	return lx.group(0)
}

type lexer struct {
	src  string
	i    int
	line int
}

// group reads tokens up to the close delimiter end (0 for the end of text).
func (lx *lexer) group(end byte) []tok {
	var out []tok
	for {
		lx.space()
		if lx.i >= len(lx.src) {
			return out
		}
		c := lx.src[lx.i]
		line := lx.line
		switch {
		case c == ')' || c == ']' || c == '}':
			lx.i++
			if c == end || end == 0 {
				return out
			}
			return out // unbalanced: close the group anyway
		case c == '(' || c == '[' || c == '{':
			lx.i++
			out = append(out, tok{k: 'g', t: string(c), sub: lx.group(closer[c]), line: line})
		case c == '"' || (c == 'b' && lx.peek(1) == '"'):
			out = append(out, tok{k: 'l', t: lx.str(), line: line})
		case c == 'r' && (lx.peek(1) == '#' || lx.peek(1) == '"') || c == 'b' && lx.peek(1) == 'r' && (lx.peek(2) == '#' || lx.peek(2) == '"'):
			out = append(out, tok{k: 'l', t: lx.raw(), line: line})
		case c == '\'' || (c == 'b' && lx.peek(1) == '\''):
			out = append(out, lx.quote())
		case isIdentStart(c):
			out = append(out, tok{k: 'i', t: lx.word(), line: line})
		case c >= '0' && c <= '9':
			out = append(out, tok{k: 'l', t: lx.number(), line: line})
		default:
			out = append(out, tok{k: 'p', t: lx.punct(), line: line})
		}
	}
}

func (lx *lexer) peek(n int) byte {
	if lx.i+n < len(lx.src) {
		return lx.src[lx.i+n]
	}
	return 0
}

// space skips whitespace and comments, counting lines.
func (lx *lexer) space() {
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == '\n':
			lx.line++
			lx.i++
		case c == ' ' || c == '\t' || c == '\r':
			lx.i++
		case c == '/' && lx.peek(1) == '/':
			for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
				lx.i++
			}
		case c == '/' && lx.peek(1) == '*':
			depth := 0
			for lx.i < len(lx.src) {
				switch {
				case strings.HasPrefix(lx.src[lx.i:], "/*"):
					depth++
					lx.i += 2
				case strings.HasPrefix(lx.src[lx.i:], "*/"):
					depth--
					lx.i += 2
				default:
					lx.advance()
				}
				if depth == 0 {
					break
				}
			}
		default:
			return
		}
	}
}

// advance moves one byte, counting newlines.
func (lx *lexer) advance() {
	if lx.src[lx.i] == '\n' {
		lx.line++
	}
	lx.i++
}

func (lx *lexer) str() string {
	start := lx.i
	if lx.src[lx.i] == 'b' {
		lx.i++
	}
	lx.i++ // opening quote
	for lx.i < len(lx.src) && lx.src[lx.i] != '"' {
		if lx.src[lx.i] == '\\' {
			lx.i++
		}
		if lx.i < len(lx.src) {
			lx.advance()
		}
	}
	lx.i++
	lx.suffix()
	return lx.src[start:min(lx.i, len(lx.src))]
}

// raw reads r"..", r#".."#, br"..": or the identifier r#name.
func (lx *lexer) raw() string {
	start := lx.i
	for lx.src[lx.i] != 'r' {
		lx.i++
	}
	lx.i++
	hashes := 0
	for lx.i < len(lx.src) && lx.src[lx.i] == '#' {
		hashes++
		lx.i++
	}
	if lx.i >= len(lx.src) || lx.src[lx.i] != '"' { // r#ident
		return lx.src[start:lx.i] + lx.word()
	}
	end := "\"" + strings.Repeat("#", hashes)
	lx.i++
	for lx.i < len(lx.src) && !strings.HasPrefix(lx.src[lx.i:], end) {
		lx.advance()
	}
	lx.i = min(lx.i+len(end), len(lx.src))
	return lx.src[start:lx.i]
}

// quote reads a char literal ('a', '\n', b'x') or a lifetime ('a): one
// character then a quote is a char, anything else a lifetime.
func (lx *lexer) quote() tok {
	start, line := lx.i, lx.line
	if lx.src[lx.i] == 'b' {
		lx.i++
	}
	lx.i++
	if lx.i < len(lx.src) && lx.src[lx.i] == '\\' {
		lx.i++
		for lx.i < len(lx.src) && lx.src[lx.i] != '\'' {
			lx.i++
		}
		lx.i = min(lx.i+1, len(lx.src))
		return tok{k: 'l', t: lx.src[start:lx.i], line: line}
	}
	_, size := utf8.DecodeRuneInString(lx.src[min(lx.i, len(lx.src)):])
	if j := lx.i + size; j < len(lx.src) && lx.src[j] == '\'' {
		lx.i = j + 1
		return tok{k: 'l', t: lx.src[start:lx.i], line: line}
	}
	return tok{k: 'i', t: "'" + lx.word(), line: line}
}

func (lx *lexer) word() string {
	start := lx.i
	for lx.i < len(lx.src) && isIdentChar(lx.src[lx.i]) {
		lx.i++
	}
	return lx.src[start:lx.i]
}

func (lx *lexer) number() string {
	start := lx.i
	for lx.i < len(lx.src) && (isIdentChar(lx.src[lx.i]) || lx.src[lx.i] == '.' && lx.peek(1) >= '0' && lx.peek(1) <= '9') {
		lx.i++
	}
	return lx.src[start:lx.i]
}

// suffix reads a literal's type suffix ("x"u8 is not Rust, but 1u8 is).
func (lx *lexer) suffix() {
	for lx.i < len(lx.src) && isIdentChar(lx.src[lx.i]) {
		lx.i++
	}
}

func (lx *lexer) punct() string {
	for _, p := range multiPunct {
		if strings.HasPrefix(lx.src[lx.i:], p) {
			lx.i += len(p)
			return p
		}
	}
	lx.i++
	return lx.src[lx.i-1 : lx.i]
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// render prints tokens back as text, one space between tokens.
func render(ts []tok) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch t.k {
		case 'g':
			b.WriteString(t.t + render(t.sub) + string(closer[t.t[0]]))
		case 'v':
			b.WriteString("$" + t.t)
		case 'r':
			b.WriteString("$(" + render(t.sub) + ")")
		default:
			b.WriteString(t.t)
		}
	}
	return b.String()
}

// metavars turns `$name`, `$name:frag` (matcher only) and `$( ... ) sep
// op` into metavariable and repetition tokens, recursively. `$crate`
// stays an identifier.
func metavars(ts []tok, matcher bool) []tok {
	var out []tok
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.k == 'g' {
			t.sub = metavars(t.sub, matcher)
			out = append(out, t)
			continue
		}
		if t.k != 'p' || t.t != "$" || i+1 >= len(ts) {
			out = append(out, t)
			continue
		}
		n := ts[i+1]
		switch {
		case n.k == 'i' && n.t == "crate":
			out = append(out, tok{k: 'i', t: "$crate", line: t.line})
			i++
		case n.k == 'i':
			v := tok{k: 'v', t: n.t, line: t.line}
			i++
			if matcher && i+2 < len(ts) && ts[i+1].t == ":" && ts[i+2].k == 'i' {
				v.frag = ts[i+2].t
				i += 2
			}
			out = append(out, v)
		case n.k == 'g' && n.t == "(":
			r := tok{k: 'r', sub: metavars(n.sub, matcher), line: t.line}
			i++
			if i+1 < len(ts) && isRepOp(ts[i+1]) {
				r.op = ts[i+1].t[0]
				i++
			} else if i+2 < len(ts) && ts[i+1].k != 'g' && isRepOp(ts[i+2]) {
				s := ts[i+1]
				r.sep, r.op = &s, ts[i+2].t[0]
				i += 2
			}
			out = append(out, r)
		default:
			out = append(out, t)
		}
	}
	return out
}

func isRepOp(t tok) bool { return t.k == 'p' && (t.t == "*" || t.t == "+" || t.t == "?") }
