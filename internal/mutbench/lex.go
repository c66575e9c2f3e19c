package mutbench

import (
	"strings"
	"unicode/utf8"
)

// tokKind classifies a token of the generic lexer.
type tokKind int

const (
	tokIdent tokKind = iota
	tokNumber
	tokString // string, template, char and regex literals: never mutated
	tokOp
)

// lexTok is one token of a source file: its text, byte offset and 1-based
// line, and whether blank space lies right before and after it.
type lexTok struct {
	kind        tokKind
	text        string
	off, line   int
	spaceBefore bool
	spaceAfter  bool
}

// ops are the multi-character operators the lexer knows, longest first,
// so that `===` is never read as `==` and `=`, nor `<=` as `<`.
var ops = []string{
	">>>=", "===", "!==", "**=", "...", ">>>", "<<=", ">>=", "&&=", "||=", "??=",
	"==", "!=", "<=", ">=", "&&", "||", "??", "?.", "=>", "->", "::", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**", "..", ":=",
}

// lex splits src into tokens for lang ("python", "js", "ts", "rust" or
// "java"),
// leaving out comments and reading strings, templates, regex literals and
// chars as single string tokens, so that no mutation lands inside them.
// It is an approximation that errs towards skipping text: what it cannot
// read becomes a string token or an operator nobody mutates.
func lex(lang, src string) []lexTok {
	l := &lexer{lang: lang, src: src, line: 1}
	for l.pos < len(src) {
		l.next()
	}
	for i := range l.toks {
		end := l.toks[i].off + len(l.toks[i].text)
		l.toks[i].spaceAfter = end >= len(src) || isSpace(src[end])
	}
	return l.toks
}

type lexer struct {
	lang string
	src  string
	pos  int
	line int
	toks []lexTok
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// skip advances over n bytes, counting lines.
func (l *lexer) skip(n int) {
	end := min(l.pos+n, len(l.src))
	l.line += strings.Count(l.src[l.pos:end], "\n")
	l.pos = end
}

func (l *lexer) emit(kind tokKind, n int) {
	start, line := l.pos, l.line
	space := start == 0 || isSpace(l.src[start-1])
	l.skip(n)
	l.toks = append(l.toks, lexTok{kind: kind, text: l.src[start:l.pos], off: start, line: line, spaceBefore: space})
}

func (l *lexer) rest() string { return l.src[l.pos:] }

func (l *lexer) next() {
	c, rest := l.src[l.pos], l.rest()
	switch {
	case isSpace(c):
		l.skip(1)
	case l.lang == "python" && c == '#':
		l.skip(lineEnd(rest))
	case l.lang != "python" && strings.HasPrefix(rest, "//"):
		l.skip(lineEnd(rest))
	case l.lang != "python" && strings.HasPrefix(rest, "/*"):
		l.skip(blockCommentEnd(rest, l.lang == "rust"))
	case c >= '0' && c <= '9':
		l.emit(tokNumber, numberEnd(rest))
	case l.lang == "rust" && c == '\'':
		if n := rustChar(rest); n > 0 {
			l.emit(tokString, n)
		} else {
			l.emit(tokOp, 1) // a lifetime's quote; its name follows as an identifier
		}
	case c == '"' || c == '\'' || c == '`':
		l.emit(tokString, l.stringEnd(rest, 0))
	case isIdentStart(c):
		n := identEnd(rest)
		if p := l.stringPrefix(rest[:n], rest[n:]); p >= 0 {
			l.emit(tokString, n+l.stringEnd(rest[n:], p))
			return
		}
		l.emit(tokIdent, n)
	case c == '/' && (l.lang == "js" || l.lang == "ts") && l.regexAllowed():
		l.emit(tokString, regexEnd(rest))
	default:
		for _, op := range ops {
			if strings.HasPrefix(rest, op) {
				l.emit(tokOp, len(op))
				return
			}
		}
		_, n := utf8.DecodeRuneInString(rest)
		l.emit(tokOp, n)
	}
}

func lineEnd(s string) int {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return i
	}
	return len(s)
}

// blockCommentEnd is the length of the /* */ comment s starts with
// (Rust's nest).
func blockCommentEnd(s string, nested bool) int {
	depth := 0
	for i := 0; i < len(s)-1; i++ {
		switch {
		case s[i] == '/' && s[i+1] == '*':
			depth++
			i++
		case s[i] == '*' && s[i+1] == '/':
			if depth--; depth == 0 || !nested {
				return i + 2
			}
			i++
		}
	}
	return len(s)
}

// numberEnd is the length of the number s starts with: digits, one
// fraction, then any letters, digits and underscores (hex digits,
// exponents, suffixes such as 10n or 0u8), but not Rust's `..`.
func numberEnd(s string) int {
	i := 0
	for i < len(s) && (isIdentPart(s[i])) {
		i++
	}
	if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		for i < len(s) && isIdentPart(s[i]) {
			i++
		}
	}
	return i
}

func identEnd(s string) int {
	i := 1
	for i < len(s) && isIdentPart(s[i]) {
		i++
	}
	return i
}

// stringPrefix reports whether ident is a string prefix (Python's r, b, f,
// u and their pairs; Rust's b, r, br) directly followed by a string, and
// how many '#' a Rust raw string carries (-1: not a string).
func (l *lexer) stringPrefix(ident, after string) int {
	switch l.lang {
	case "python":
		p := strings.ToLower(ident)
		if len(p) <= 2 && strings.Trim(p, "rbfu") == "" && after != "" && (after[0] == '"' || after[0] == '\'') {
			return 0
		}
	case "rust":
		if ident != "b" && ident != "r" && ident != "br" {
			return -1
		}
		hashes := len(after) - len(strings.TrimLeft(after, "#"))
		if hashes < len(after) && after[hashes] == '"' && (hashes == 0 || strings.Contains(ident, "r")) {
			return hashes
		}
		if ident == "b" && strings.HasPrefix(after, "'") {
			return 0
		}
	}
	return -1
}

// stringEnd is the length of the string literal s starts with (its quote
// first, after any '#'s of a Rust raw string): Python triple quotes (an
// escaped quote right before the closing three is not handled: rare),
// JavaScript templates (their ${} parts included), backslash escapes.
func (l *lexer) stringEnd(s string, hashes int) int {
	s0 := len(s)
	s = s[hashes:]
	q := s[:1]
	triple := strings.HasPrefix(s, `"""`) || l.lang == "python" && strings.HasPrefix(s, `'''`)
	if triple && (l.lang == "python" || l.lang == "java") { // Java's text blocks too
		if i := strings.Index(s[3:], s[:3]); i >= 0 {
			return hashes + 3 + i + 3
		}
		return s0
	}
	closing := q + strings.Repeat("#", hashes)
	raw := hashes > 0
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && !raw:
			i++
		case strings.HasPrefix(s[i:], closing):
			return hashes + i + len(closing)
		case s[i] == '\n' && q != "`" && l.lang != "rust":
			return hashes + i // an unterminated line: stop at its end
		}
	}
	return s0
}

// rustChar is the length of the char literal s starts with ('a', '\n',
// '\u{1F600}'), or 0 when the quote starts a lifetime ('a, 'static).
func rustChar(s string) int {
	if strings.HasPrefix(s, `'\`) {
		if i := strings.IndexByte(s[2:], '\''); i >= 0 {
			return i + 3
		}
		return 0
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	if 1+n < len(s) && s[1+n] == '\'' {
		return n + 2
	}
	return 0
}

// regexAllowed reports whether a '/' here starts a regex literal rather
// than a division: after an operator, an opening bracket, a keyword or at
// the start of the file.
func (l *lexer) regexAllowed() bool {
	if len(l.toks) == 0 {
		return true
	}
	p := l.toks[len(l.toks)-1]
	switch p.kind {
	case tokNumber, tokString:
		return false
	case tokIdent:
		return jsKeywordsBeforeExpr[p.text]
	}
	return p.text != ")" && p.text != "]" && p.text != "}"
}

var jsKeywordsBeforeExpr = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
}

// regexEnd is the length of the regex literal s starts with, flags
// included; a '/' inside a [...] class does not end it.
func regexEnd(s string) int {
	class := false
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			class = true
		case ']':
			class = false
		case '\n':
			return i
		case '/':
			if !class {
				j := i + 1
				for j < len(s) && isIdentPart(s[j]) {
					j++
				}
				return j
			}
		}
	}
	return len(s)
}
