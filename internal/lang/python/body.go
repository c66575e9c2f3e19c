package python

import (
	"bytes"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// bodies is Python's rule for where a function's body lies: a function's
// span is whole lines, its decorators and def statement (evaluated at
// import: a default, a decorator) its header, its body the lines after the
// one that ends the def statement.
var bodies = &lang.Bodies{
	Extensions: []string{".py"},
	Body: func(lines []string, f lang.FuncSpan) (lo, hi int) {
		return headerEnd(lines, f) + 1, f.End
	},
}

// headerEnd returns the line ending the def statement of f (decorators
// before it); f.End when it cannot be told (the whole function then
// counts as header: safe).
func headerEnd(lines []string, f lang.FuncSpan) int {
	l := f.Start
	for ; l <= f.End && l <= len(lines); l++ {
		t := strings.TrimSpace(lines[l-1])
		if strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async ") {
			break
		}
	}
	depth := 0
	for ; l <= f.End && l <= len(lines); l++ {
		code := codeOf(lines[l-1])
		for _, c := range code {
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		}
		if depth <= 0 {
			if strings.HasSuffix(strings.TrimSpace(code), ":") {
				return l
			}
			return f.End // a body on the def's own line, or unreadable
		}
	}
	return f.End
}

// codeOf strips a line's comment and its strings' contents (kept as
// empty quotes), so that brackets and colons in them are not counted.
func codeOf(line string) string {
	var b bytes.Buffer
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				b.WriteByte(c)
				quote = 0
			}
		case c == '#':
			return b.String()
		case c == '"' || c == '\'':
			quote = c
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
