package js

// closers returns the brackets an unfinished file needs at its end: a
// scan that skips strings, template literals and comments and pairs ( [ {.
// It returns "" when the brackets do not nest (a real syntax error, not a
// file cut short). Regular expression literals are not recognised; a
// bracket inside one makes the guess wrong, and the reparse then simply
// fails to help.
func closers(src []byte) string {
	var stack []byte
	pair := map[byte]byte{'(': ')', '[': ']', '{': '}'}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '\'', '"', '`':
			i = skipString(src, i, c)
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				i += 2
				for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
					i++
				}
				i++
			}
		case '(', '[', '{':
			stack = append(stack, pair[c])
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return ""
			}
			stack = stack[:len(stack)-1]
		}
	}
	out := make([]byte, 0, len(stack)+1)
	out = append(out, '\n')
	for i := len(stack) - 1; i >= 0; i-- {
		out = append(out, stack[i])
	}
	if len(stack) == 0 {
		return ""
	}
	return string(out)
}

// skipString returns the index of the quote closing the string opened at
// i (template substitutions are skipped whole, unnested).
func skipString(src []byte, i int, q byte) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case q:
			return i
		case '\n':
			if q != '`' {
				return i
			}
		}
	}
	return i
}
