package globs

import "testing"

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		patterns []string
		ignore   bool
		yes, no  []string
	}{
		{[]string{"**/*_test.go"}, false, []string{"a_test.go", "x/y/a_test.go"}, []string{"a.go", "a_test.go.txt"}},
		{[]string{"**/*.spec.md", "**/*.test.md"}, false, []string{"a.spec.md", "d/b.test.md"}, []string{"a.md"}},
		{[]string{"node_modules", "dist"}, true, []string{"node_modules/x.js", "a/dist/b", "dist"}, []string{"distx/a", "a/node_modules2/b"}},
		{[]string{"**/testdata/**"}, true, []string{"a/testdata/b", "testdata/x"}, []string{"a/testdata2/b"}},
		{[]string{"gen/*.go"}, true, []string{"gen/a.go", "gen/a.go/inner"}, []string{"x/gen/a.go"}},
		{[]string{"*.tmp"}, true, []string{"a.tmp", "d/a.tmp", "x.tmp/y"}, []string{"a.tmpx"}},
		{[]string{"src/**/*.{test,spec}.ts"}, false, []string{"src/a.test.ts", "src/x/b.spec.ts"}, []string{"a.test.ts"}},
	} {
		s, err := compile(tc.patterns, tc.ignore)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tc.yes {
			if !s.Match(p) {
				t.Errorf("%q (ignore=%v) does not match %q", tc.patterns, tc.ignore, p)
			}
		}
		for _, p := range tc.no {
			if s.Match(p) {
				t.Errorf("%q (ignore=%v) matches %q", tc.patterns, tc.ignore, p)
			}
		}
	}
	if _, err := Compile([]string{"[unclosed"}); err == nil {
		t.Error("bad pattern accepted")
	}
	var nilSet *Set
	if nilSet.Match("x") || !nilSet.Empty() {
		t.Error("nil set matches")
	}
}
