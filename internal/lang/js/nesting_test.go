package js

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// nested is n describe blocks, one in the other, with a test at the bottom.
func nested(n int) string {
	return strings.Repeat("describe('d', () => {\n", n) + "it('x', () => {})\n" + strings.Repeat("})\n", n)
}

// TestDeepNesting is a deeply nested describe: the first
// maxNesting levels are listed, the call at the next level is one dynamic
// record standing for everything in it, a warning names its line, and a
// test after the nest is still listed.
func TestDeepNesting(t *testing.T) {
	const depth = 5000
	res := extract(t, testdex.Jest, "a.test.js", "test('first', () => {})\n"+nested(depth)+"test('last', () => {})\n")
	if len(res.Tests) != maxNesting+3 {
		t.Fatalf("%d records, want %d", len(res.Tests), maxNesting+3)
	}
	cut := res.Tests[maxNesting+1]
	if !cut.Dynamic || cut.Line != maxNesting+2 || cut.Parent != res.Tests[maxNesting].Name || res.Tests[maxNesting].Dynamic {
		t.Errorf("record past the limit: %+v (parent %q)", cut, res.Tests[maxNesting].Name)
	}
	if res.Tests[0].Name != "first" || res.Tests[len(res.Tests)-1].Name != "last" {
		t.Errorf("tests around the nest lost: %q ... %q", res.Tests[0].Name, res.Tests[len(res.Tests)-1].Name)
	}
	if len(res.Problems) != 1 || res.Problems[0].Severity != testdex.SevWarning || res.Problems[0].Line != maxNesting+2 {
		t.Errorf("problems %+v, want one warning at line %d", res.Problems, maxNesting+2)
	}
	if res := extract(t, testdex.Jest, "a.test.js", nested(maxNesting-1)); len(res.Problems) != 0 || len(res.Tests) != maxNesting {
		t.Errorf("%d levels: %d records, problems %+v; want all, none", maxNesting-1, len(res.Tests), res.Problems)
	}
}

// BenchmarkExtractNested measures deeply nested describes: the time per
// level should stay flat past deepPath (it grew with the depth, 2.2 s at
// 1,000 levels and 8.6 s at 2,000, when every step asked tree-sitter for a
// parent or a query cursor rescanned its enclosing matches).
//
//	go test ./internal/lang/js -run '^$' -bench ExtractNested
func BenchmarkExtractNested(b *testing.B) {
	for _, n := range []int{1250, 2500, 5000, 10000, 20000} {
		src := []byte(nested(n))
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				ExtractorFor(testdex.Jest).Extract(&lang.File{Rel: "a.test.js", Data: src})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/level")
		})
	}
}

// TestWalkAfterAgrees lists the JavaScript and TypeScript files of the
// fixtures (the test files only, under node_modules) twice: with the query cursor, and with the cursor walk taking
// over after the first call. Both must give the same records.
func TestWalkAfterAgrees(t *testing.T) {
	n := 0
	filepath.WalkDir("../../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !hasExt(p, []string{"js", "mjs", "cjs", "ts", "mts", "cts", "tsx", "jsx"}) {
			return nil
		}
		if underNodeModules(p) && !strings.Contains(d.Name(), ".test.") && !strings.Contains(d.Name(), ".spec.") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, fw := range []testdex.Framework{testdex.Jest, testdex.Vitest, testdex.Mocha, testdex.NodeTest} {
			f := &lang.File{Rel: p, Data: data, Framework: fw}
			query := (&Extractor{fw: fw}).Extract(f)
			walk := (&Extractor{fw: fw, deepPath: 1}).Extract(f)
			if !reflect.DeepEqual(query, walk) {
				t.Errorf("%s (%s): the walk lists\n%+v\nthe query\n%+v", p, fw, walk, query)
			}
		}
		n++
		return nil
	})
	if n < 20 {
		t.Errorf("only %d files compared; is testdata missing?", n)
	}
}

// TestLocalConstScopes checks the const lookup that replaced the walk up
// the parents: the innermost block declaring the name wins, a declaration
// after the use does not count, and an outer describe's const is seen from
// a nested one.
func TestLocalConstScopes(t *testing.T) {
	src := `const A = 'module';
describe('d', () => {
  const A = 'outer';
  const B = 'b';
  describe('e', () => {
    const A = 'inner';
    it(A, () => {});
    it(B, () => {});
    it(C, () => {});
    const C = 'late';
  });
  it(A, () => {});
});
it(A, () => {});
`
	want := []string{"d", "d > e", "d > e > inner", "d > e > b", "dynamic d > e > {C}", "d > outer", "module"}
	for _, deep := range []int{0, 1} {
		got := names((&Extractor{fw: testdex.Jest, deepPath: deep}).Extract(&lang.File{Rel: "a.test.js", Data: []byte(src)}))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("deepPath %d: got %q, want %q", deep, got, want)
		}
	}
}
