package python

import (
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// TestBodies: a Python function's body starts after the line that ends
// its def statement (decorators, a signature over several lines, a
// comment with a colon); a one-line function has no body apart from its
// header.
func TestBodies(t *testing.T) {
	src := "@deco(\n    x=1)\ndef f(a,\n      b=(1, 2)):  # note\n    return a\n\ndef g(): return 1\n\nasync def h(s=\"):(\"):\n    pass\n"
	lines := strings.Split(src, "\n")
	for _, c := range []struct {
		f      lang.FuncSpan
		lo, hi int
	}{
		{lang.FuncSpan{Name: "f", Start: 1, End: 5}, 5, 5},
		{lang.FuncSpan{Name: "g", Start: 7, End: 7}, 8, 7},
		{lang.FuncSpan{Name: "h", Start: 9, End: 10}, 10, 10},
	} {
		if lo, hi := bodies.BodyOf(lines, c.f); lo != c.lo || hi != c.hi {
			t.Errorf("%s's body is lines %d-%d, want %d-%d", c.f.Name, lo, hi, c.lo, c.hi)
		}
	}
	if !strings.Contains(strings.Join(bodies.Extensions, " "), ".py") {
		t.Errorf("Extensions = %v, want .py", bodies.Extensions)
	}
}
