package java

import "strings"

// gtoken is one token of a Gradle settings script (Groovy or Kotlin DSL).
// There is no Groovy parser to be had here, so the settings reader works
// on this small lexer's tokens: it knows the languages' comments and
// string forms, which is what keeps an include in a comment or a string
// from being read, and nothing else of their grammars.
type gtoken struct {
	kind gkind
	text string // an identifier, a punctuation character, a string's content
	line int
	// literal is false for a string with a template ($x, ${x}): its value
	// is only known when the script runs.
	literal bool
}

type gkind int

const (
	gIdent   gkind = iota // a name or keyword (include, project, file, new)
	gString               // a quoted string, its content in text
	gPunct                // one character: ( ) , . = [ ] { } ; and others
	gNewline              // a line end, which ends a Groovy command call
	gOther                // a number or anything else
)

// lexGradle splits a settings script into tokens, dropping blanks and
// comments.
func lexGradle(src string) []gtoken {
	var out []gtoken
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			out = append(out, gtoken{kind: gNewline, line: line})
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case c == '\'' || c == '"':
			t, n := lexGString(src[i:])
			t.line = line
			out = append(out, t)
			line += strings.Count(src[i:i+n], "\n")
			i += n
		case isIdentByte(c):
			j := i
			for j < len(src) && (isIdentByte(src[j]) || (src[j] >= '0' && src[j] <= '9')) {
				j++
			}
			out = append(out, gtoken{kind: gIdent, text: src[i:j], line: line})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isIdentByte(src[j]) || (src[j] >= '0' && src[j] <= '9') || src[j] == '.') {
				j++
			}
			out = append(out, gtoken{kind: gOther, text: src[i:j], line: line})
			i = j
		default:
			out = append(out, gtoken{kind: gPunct, text: src[i : i+1], line: line})
			i++
		}
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// lexGString reads the string at the start of s: single-, double- or
// triple-quoted (either quote). It returns the token and the bytes it took. Backslash
// escapes are kept as the character they escape; a $ outside an escape
// makes a double-quoted string a template (Groovy's GString, Kotlin's
// string template), not literal. Groovy's single-quoted strings never
// interpolate. An unterminated string is not literal.
func lexGString(s string) (gtoken, int) {
	quote := s[:1]
	if strings.HasPrefix(s, strings.Repeat(quote, 3)) {
		quote = s[:3]
	}
	t := gtoken{kind: gString, literal: true}
	var b strings.Builder
	i := len(quote)
	for i < len(s) {
		if strings.HasPrefix(s[i:], quote) {
			t.text = b.String()
			return t, i + len(quote)
		}
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '$' && quote[0] == '"':
			t.literal = false
		case c == '\n' && len(quote) == 1:
			// A one-quote string cannot span lines: the script is broken
			// here; stop so the rest still lexes.
			t.text, t.literal = b.String(), false
			return t, i
		}
		b.WriteByte(c)
		i++
	}
	t.text, t.literal = b.String(), false
	return t, i
}
