package changes

import (
	"bytes"
	"path"
	"strings"

	"github.com/testdex/testdex/coverage"
)

// skeleton returns a file's text outside its function bodies: every line
// that lies in no outermost function's body, trimmed, blank ones dropped.
// Two versions of a file whose skeletons are equal differ only inside
// function bodies, where the functions' canonical hashes tell what
// changed. The header of a function (Python's decorators and `def` line,
// evaluated at import; the first and last lines of a Go or JavaScript
// function, which may share a line with code outside it) stays in the
// skeleton, so a new, renamed or deleted function, a changed default or
// decorator, changes it.
func skeleton(file string, src []byte, funcs []coverage.Func) string {
	lines := strings.Split(string(src), "\n")
	inBody := make([]bool, len(lines)+2)
	for _, f := range funcs {
		lo, hi := body(file, lines, f)
		for l := max(lo, 1); l <= hi && l <= len(lines); l++ {
			inBody[l] = true
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if inBody[i+1] {
			continue
		}
		if t := strings.TrimSpace(l); t != "" {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// body returns the lines of f's body (lo > hi when it has none apart
// from its header).
func body(file string, lines []string, f coverage.Func) (lo, hi int) {
	if path.Ext(file) == ".py" || path.Ext(file) == ".pyi" {
		// A Python function's span is whole lines; its body starts after
		// the line that ends its def statement.
		return pyHeaderEnd(lines, f) + 1, f.End
	}
	return f.Start + 1, f.End - 1
}

// pyHeaderEnd returns the line ending the def statement of f (decorators
// before it); f.End when it cannot be told (the whole function then
// counts as header: safe).
func pyHeaderEnd(lines []string, f coverage.Func) int {
	l := f.Start
	for ; l <= f.End && l <= len(lines); l++ {
		t := strings.TrimSpace(lines[l-1])
		if strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async ") {
			break
		}
	}
	depth := 0
	for ; l <= f.End && l <= len(lines); l++ {
		code := pyCode(lines[l-1])
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

// pyCode strips a line's comment and its strings' contents (kept as
// empty quotes), so that brackets and colons in them are not counted.
func pyCode(line string) string {
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
