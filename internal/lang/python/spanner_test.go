package python

import (
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/langtest"
)

const spanSrc = `import functools


def top(a, b):  # a comment
    return a + b


@functools.lru_cache(maxsize=None)
def cached(n):
    def inner(x):
        return x * 2
    return inner(n)


class Shape:
    @property
    def area(self):
        return 0

    async def grow(self, by):
        """Grows."""
        return by

    class Inner:
        def deep(self):
            return f"{self!r:>{10}}"
`

func spansOf(t *testing.T, src string) map[string]lang.FuncSpan {
	t.Helper()
	spans, err := Spanner.Spans("/p/m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]lang.FuncSpan{}
	for _, s := range spans {
		out[s.Name] = s
	}
	return out
}

// TestSpannerNamesAndLines: functions, methods, nested functions and
// classes by __qualname__, decorators inside the span, in source order.
func TestSpannerNamesAndLines(t *testing.T) {
	langtest.Spans(t, Spanner, "/p/m.py", spanSrc,
		"top 4-5", "cached 8-12", "cached.<locals>.inner 10-11",
		"Shape.area 16-18", "Shape.grow 20-22", "Shape.Inner.deep 25-26")
}

// TestSpannerHash: comments, blank lines, spacing, line breaks inside
// brackets and continuations keep a function's hash; a changed token,
// string text, decorator or block structure changes it, and only that
// function's.
func TestSpannerHash(t *testing.T) {
	base := spansOf(t, spanSrc)
	same := map[string][2]string{
		"comment":      {"    return a + b\n", "    # why\n    return a + b  # sum\n"},
		"spacing":      {"def top(a, b):  # a comment", "def top( a,b ) :"},
		"blank lines":  {"        return x * 2\n", "\n        return x * 2\n\n"},
		"wrapped call": {"@functools.lru_cache(maxsize=None)", "@functools.lru_cache(\n    maxsize=None  # unbounded\n)"},
		"continuation": {"        return x * 2", "        return x \\\n            * 2"},
	}
	for name, c := range same {
		got := spansOf(t, strings.Replace(spanSrc, c[0], c[1], 1))
		for fn, s := range base {
			if got[fn].Hash != s.Hash {
				t.Errorf("%s: %s's hash changed", name, fn)
			}
		}
	}
	changed := map[string]struct {
		old, new string
		fns      []string // the functions whose hash changes
	}{
		"body":        {"return a + b", "return a - b", []string{"top"}},
		"string":      {`"""Grows."""`, `"""Grows!"""`, []string{"Shape.grow"}},
		"decorator":   {"maxsize=None", "maxsize=2", []string{"cached"}},
		"f-string":    {"{10}", "{12}", []string{"Shape.Inner.deep"}},
		"nested":      {"return x * 2", "return x * 3", []string{"cached", "cached.<locals>.inner"}},
		"indent":      {"        return x * 2\n    return inner(n)", "        return x * 2\n        return inner(n)", []string{"cached", "cached.<locals>.inner"}},
		"string text": {`"""Grows."""`, `"""Grows ."""`, []string{"Shape.grow"}},
	}
	for name, c := range changed {
		got := spansOf(t, strings.Replace(spanSrc, c.old, c.new, 1))
		for fn, s := range base {
			want := false
			for _, f := range c.fns {
				want = want || f == fn
			}
			if g, ok := got[fn]; ok && (g.Hash != s.Hash) != want {
				t.Errorf("%s: %s's hash changed = %v, want %v", name, fn, g.Hash != s.Hash, want)
			}
		}
	}
}

// TestSpannerBroken: a syntax error is an error beside the functions
// read; a binary file has none.
func TestSpannerBroken(t *testing.T) {
	spans, err := Spanner.Spans("/p/m.py", []byte("def ok():\n    return 1\n\ndef bad(:\n    pass\n"))
	if err == nil || len(spans) == 0 || spans[0].Name != "ok" {
		t.Errorf("syntax error: %+v, %v", spans, err)
	}
	if spans, err := Spanner.Spans("/p/m.py", []byte("def a():\x00")); err == nil || spans != nil {
		t.Errorf("binary: %+v, %v", spans, err)
	}
}
