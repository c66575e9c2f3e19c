package changes

import (
	"strings"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/internal/lang"
)

// skeleton returns a file's text outside its function bodies: every line
// that lies in no outermost function's body, trimmed, blank ones dropped.
// Two versions of a file whose skeletons are equal differ only inside
// function bodies, where the functions' canonical hashes tell what
// changed. The header of a function (what the language's rule,
// lang.Bodies, leaves out of its body: a decorator or a default evaluated
// at import, a first or last line shared with code outside it) stays in
// the skeleton, so a new, renamed or deleted function, a changed default
// or decorator, changes it.
func skeleton(rule *lang.Bodies, file string, src []byte, funcs []coverage.Func) string {
	lines := strings.Split(string(src), "\n")
	inBody := make([]bool, len(lines)+2)
	bodyOf := rule.For(file, src)
	for _, f := range funcs {
		lo, hi := bodyOf(lines, span(f))
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
