package js

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// TestLiteralGolden lists testdata/literal's fixtures statically and
// compares the tests (not the suites) with what the real runners list
// for them, recorded in testdata/literal/*.golden.txt by regen.sh there.
// Every title is built from literal data, so none may be dynamic.
func TestLiteralGolden(t *testing.T) {
	for _, c := range []struct {
		fw     testdex.Framework
		file   string
		golden string
	}{
		{testdex.Jest, "jest/literal.test.js", "jest.golden.txt"},
		{testdex.Vitest, "vitest/literal.test.js", "vitest.golden.txt"},
		{testdex.Mocha, "mocha/literal.spec.js", "mocha.golden.txt"},
		{testdex.NodeTest, "node/literal.test.mjs", "node.golden.txt"},
	} {
		t.Run(string(c.fw), func(t *testing.T) {
			dir := filepath.Join("testdata", "literal")
			src, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, c.golden))
			if err != nil {
				t.Fatal(err)
			}
			res := ExtractorFor(c.fw).Extract(&lang.File{Rel: c.file, Data: src, Framework: c.fw})
			var got []string
			for _, r := range res.Tests {
				if r.Dynamic {
					t.Errorf("dynamic record %q (line %d)", r.Name, r.Line)
				}
				if r.Kind != testdex.KindSuite {
					got = append(got, r.Name)
				}
			}
			wantLines := strings.Split(strings.TrimRight(string(want), "\n"), "\n")
			sort.Strings(got)
			sort.Strings(wantLines)
			missing, extra := diffSorted(wantLines, got)
			for _, m := range missing {
				t.Errorf("the runner lists %q; the static listing does not", m)
			}
			for _, e := range extra {
				t.Errorf("the static listing has %q; the runner does not", e)
			}
		})
	}
}

// diffSorted returns what only a has and what only b has.
func diffSorted(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || (i < len(a) && a[i] < b[j]):
			onlyA = append(onlyA, a[i])
			i++
		case i >= len(a) || b[j] < a[i]:
			onlyB = append(onlyB, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return onlyA, onlyB
}
