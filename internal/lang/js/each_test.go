package js

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// TestEachInvalidUTF8 is an .each table with invalid UTF-8 in its
// headings and title: the rows are listed (their $variables filled as
// jest-each fills them), the file's other tests stay, and the one Problem
// is the file's invalid UTF-8 at its line, not an internal error.
func TestEachInvalidUTF8(t *testing.T) {
	for _, c := range []struct {
		fw   testdex.Framework
		src  string
		want []string
		line int
	}{
		{testdex.Jest, "test('ok', () => {})\ntest.each`\n a\xff | b\n ${1} | ${2}\n`('$a\xff $b', () => {})\ntest('after', () => {})\n",
			[]string{"ok", "1 2", "after"}, 3},
		{testdex.Jest, "test('ok', () => {})\ntest.each([{'k\xfe': 'v'}])('x $k\xfe y', () => {})\ntest('after', () => {})\n",
			[]string{"ok", "x v y", "after"}, 2},
		// Vitest's /\$([$\w.]+)/ stops at the bad byte (U+FFFD in Node).
		{testdex.Vitest, "test('ok', () => {})\ntest.each([{'k\xfe': 'v', k: 1}])('x $k\xfe \xc3', () => {})\ntest('after', () => {})\n",
			[]string{"ok", "x 1\xfe \xc3", "after"}, 2},
		{testdex.Jest, "test('ok', () => {})\ntest.each([['\xff%']])('%s %% \xe2\x82', () => {})\ntest('after', () => {})\n",
			[]string{"ok", "\xff% % \xe2\x82", "after"}, 2},
	} {
		res := extract(t, c.fw, "a.test.js", c.src)
		if got := names(res); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: tests %q, want %q", c.fw, c.src, got, c.want)
		}
		if len(res.Problems) != 1 || res.Problems[0].Line != c.line || !strings.Contains(res.Problems[0].Message, "invalid UTF-8") {
			t.Errorf("%s %q: problems %+v, want the file's invalid UTF-8 on line %d", c.fw, c.src, res.Problems, c.line)
		}
	}
}

// TestVariableAt checks the byte matcher against jest-each's RegExp: the
// first key that fits wins, then [.\w]* extends the match.
func TestVariableAt(t *testing.T) {
	for _, c := range []struct {
		s    string
		keys []string
		want int
	}{
		{"$a.b c", []string{"a"}, 4},
		{"$ab", []string{"a", "ab"}, 3}, // "a" fits first, \w* takes the b
		{"$b", []string{"a"}, 0},
		{"$", nil, 1},
		{"$x.y", nil, 4},
		{"a$", []string{"a"}, 0},
		{"$k\xfe!", []string{"k\xfe"}, 3},
		{"$é", []string{"é"}, 3},
	} {
		if got := variableAt(c.s, c.keys); got != c.want {
			t.Errorf("variableAt(%q, %q) = %d, want %d", c.s, c.keys, got, c.want)
		}
	}
}
