package js

import (
	"regexp"
	"strings"
)

// Regular expressions are evaluated only where Go's engine decides a
// match as JavaScript's does: re.test(s) of a literal whose pattern uses
// characters, classes, groups without names or look-around, alternation,
// anchors, word boundaries and quantifiers, with no flag but i (then on
// ASCII text only), on a subject of the Basic Multilingual Plane (where a
// character is one UTF-16 code unit, as . and [^a] count them). The
// global and sticky flags keep state between calls and are refused, as
// are back references, named groups, look-around and \u or \x escapes.
// Matching (not capturing) is the same in both: leftmost-first against
// leftmost-longest never changes whether there is a match.

// regexTest is re.test(s); ok is false where the two engines may differ.
func regexTest(re *regexLit, s string) (match, ok bool) {
	for _, r := range s {
		if r > 0xffff || r == '\r' || r == '\u2028' || r == '\u2029' {
			return false, false // . and line ends count differently
		}
	}
	prefix := ""
	switch re.flags {
	case "":
	case "i":
		if !isASCII(s) || !isASCII(re.pattern) {
			return false, false // Unicode case folding differs
		}
		prefix = "(?i)"
	default:
		return false, false
	}
	p, ok := goPattern(re.pattern, isASCII(s))
	if !ok {
		return false, false
	}
	c, err := regexp.Compile(prefix + p)
	if err != nil {
		return false, false
	}
	return c.MatchString(s), true
}

// jsClassSpace is what \s matches in an ASCII subject.
const jsClassSpace = `\t\n\v\f\r `

// goPattern translates a JavaScript pattern to Go's syntax; ok is false
// for anything outside the subset regexTest describes. asciiSubject
// allows \s and \S, which match more than Go's outside ASCII.
func goPattern(p string, asciiSubject bool) (string, bool) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "", false
			}
			i++
			e, ok := goEscape(p[i], inClass, asciiSubject)
			if !ok {
				return "", false
			}
			b.WriteString(e)
		case inClass:
			if c == '[' {
				return "", false // [[:alpha:]] is a Go class, two characters in JavaScript
			}
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
		case c == '[':
			if strings.HasPrefix(p[i:], "[]") || strings.HasPrefix(p[i:], "[^]") {
				return "", false // matches nothing, or anything: Go refuses both
			}
			inClass = true
			b.WriteByte(c)
			if i+1 < len(p) && p[i+1] == '^' {
				i++
				b.WriteByte('^')
			}
		case c == '(':
			if strings.HasPrefix(p[i:], "(?") && !strings.HasPrefix(p[i:], "(?:") {
				return "", false // look-around, named groups, modifiers
			}
			b.WriteByte(c)
		case c == '{':
			n := quantifier(p[i:])
			if n == 0 {
				return "", false // a literal { in JavaScript, an error or a literal in Go
			}
			b.WriteString(p[i : i+n])
			i += n - 1
		case c >= 0x80:
			b.WriteByte(c) // a character of the pattern, UTF-8 in both
		default:
			b.WriteByte(c)
		}
	}
	if inClass {
		return "", false
	}
	return b.String(), true
}

// goEscape is the Go form of the escape \c.
func goEscape(c byte, inClass, asciiSubject bool) (string, bool) {
	switch {
	case c == 'd' || c == 'D' || c == 'w' || c == 'W':
		return `\` + string(c), true // ASCII in both without the u flag
	case c == 's' && asciiSubject:
		if inClass {
			return jsClassSpace, true
		}
		return "[" + jsClassSpace + "]", true
	case c == 'S' && asciiSubject && !inClass:
		return "[^" + jsClassSpace + "]", true
	case (c == 'b' || c == 'B') && !inClass:
		return `\` + string(c), true // ASCII word boundaries in both
	case controlEscapes[c] != 0:
		return `\` + string(c), true
	case strings.IndexByte(`\^$.*+?()[]{}|/-`, c) >= 0:
		return `\` + string(c), true
	}
	return "", false
}

// quantifier is the length of a {n}, {n,} or {n,m} quantifier at the
// start of s, 0 when s does not start with one.
func quantifier(s string) int {
	i, digits, comma := 1, 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == ',' && !comma && digits > 0:
			comma = true
		case c == '}' && digits > 0:
			return i + 1
		default:
			return 0
		}
	}
	return 0
}
