package java

import "strings"

// javaTokens cuts Java source into tokens for the impact graph (lexJava)
// and the Spanner's canonical hash (canonicalHash), which keep different
// kinds of them: words (identifiers and keywords), numbers, string
// literals and text blocks (str is then the content, escapes as written),
// char literals, and punctuation a byte each. Comments and white space
// are dropped; an unterminated block comment ends the scan.
func javaTokens(src []byte, yield func(kind byte, tok []byte, str string)) {
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(string(src[i+2:]), "*/")
			if end < 0 {
				return
			}
			i += 2 + end + 2
		case c == '"':
			s, j := lexString(src, i)
			yield(tokString, src[i:j], s)
			i = j
		case c == '\'':
			j := i + 1
			for ; j < len(src) && src[j] != '\'' && src[j] != '\n'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			j = min(j+1, len(src))
			yield(tokChar, src[i:j], "")
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (isWordByte(src[j]) || src[j] == '.' || ((src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E' || src[j-1] == 'p' || src[j-1] == 'P'))) {
				j++
			}
			yield(tokNumber, src[i:j], "")
			i = j
		case isWordByte(c) || c >= 0x80:
			j := i
			for j < len(src) && (isWordByte(src[j]) || src[j] >= 0x80) {
				j++
			}
			yield(tokWord, src[i:j], "")
			i = j
		default:
			yield(tokPunct, src[i:i+1], "")
			i++
		}
	}
}
