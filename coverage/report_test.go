package coverage

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeebo/xxh3"
)

// srcB has two functions: G (tested by TestG) and H (never executed).
const srcB = "package a\n\nfunc G() int {\n\treturn 1\n}\n\nfunc H() int {\n\treturn 2\n}\n"

var funcsB = []Func{{Name: "G", Start: 3, End: 5, Hash: 7}, {Name: "H", Start: 7, End: 9, Hash: 8}}

// world is a tree of files as they are now, for ReportOptions.Current.
type world map[string]struct {
	src   string
	funcs []Func
}

func (w world) current(p string) ([]byte, []Func, bool) {
	f, ok := w[p]
	if !ok {
		return nil, nil, false
	}
	return []byte(f.src), f.funcs, true
}

// summary renders a report as one line per function and per file:
// "a.go F 3-8 tests=A,B stale=C" and "a.go recorded 1/1".
func summary(r *Report) string {
	var b strings.Builder
	for _, f := range r.Files {
		fmt.Fprintf(&b, "%s %s %d/%d\n", f.Path, f.State, f.Covered, f.Total)
		for _, fn := range f.Functions {
			fmt.Fprintf(&b, "  %s %d-%d tests=%s", fn.Name, fn.Start, fn.End, strings.Join(fn.Tests, ","))
			if len(fn.Stale) > 0 {
				fmt.Fprintf(&b, " stale=%s", strings.Join(fn.Stale, ","))
			}
			b.WriteString("\n")
		}
		for _, t := range f.Tests {
			fmt.Fprintf(&b, "  %s lines=%s stale=%s\n", t.ID, String(t.Lines), String(t.Stale))
		}
	}
	return b.String()
}

func reportIndex(t *testing.T) *Index {
	t.Helper()
	ix := openT(t, filepath.Join(t.TempDir(), "c.db"), Options{})
	err := ix.Replace([]Record{
		{ID: "TestA", Recorded: t0, Outcome: "pass", Granularity: "test", Files: []File{
			{Path: "a.go", Hash: xxh3.HashString(srcA), Lines: []Span{{3, 5}}, Funcs: funcsA},
			{Path: "b.go", Hash: xxh3.HashString(srcB), Lines: []Span{{3, 5}}, Funcs: funcsB},
		}},
		{ID: "TestB", Recorded: t0, Outcome: "fail", Granularity: "file", Files: []File{
			{Path: "a.go", Hash: xxh3.HashString(srcA), Lines: []Span{{3, 4}, {7, 8}}, Funcs: funcsA},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestReportAsRecorded(t *testing.T) {
	ix := reportIndex(t)
	w := world{"a.go": {srcA, funcsA}, "b.go": {srcB, funcsB}, "c.go": {"package a\n\nfunc C() {}\n", []Func{{Name: "C", Start: 3, End: 3}}}}
	rep, err := ix.Report(ReportOptions{Current: w.current, Files: []string{"c.go", "b.go", "gone.go"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `a.go recorded 1/1
  F 3-8 tests=TestA,TestB
  TestA lines=3-5 stale=
  TestB lines=3-4,7-8 stale=
b.go recorded 1/2
  G 3-5 tests=TestA
  H 7-9 tests=
  TestA lines=3-5 stale=
c.go unrecorded 0/1
  C 3-3 tests=
`
	if got := summary(rep); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	var untested []string
	for _, u := range rep.Untested() {
		untested = append(untested, fmt.Sprintf("%s:%d %s", u.Path, u.Func.Start, u.Func.Name))
	}
	if got := strings.Join(untested, " "); got != "b.go:7 H c.go:3 C" {
		t.Errorf("untested: %s", got)
	}
	if len(rep.Tests) != 2 || rep.Tests[1].ID != "TestB" || rep.Tests[1].Outcome != "fail" || rep.Tests[1].Granularity != "file" || rep.Tests[0].Granularity != "" {
		t.Errorf("tests: %+v", rep.Tests)
	}
	if rep.Files[0].Lines != 8 || !rep.Files[0].FuncsKnown {
		t.Errorf("a.go: lines %d, functions known %v", rep.Files[0].Lines, rep.Files[0].FuncsKnown)
	}
	// Match keeps some files, the extra ones included.
	rep, _ = ix.Report(ReportOptions{Current: w.current, Files: []string{"c.go"}, Match: func(p string) bool { return p != "a.go" }})
	if len(rep.Files) != 2 || rep.Files[0].Path != "b.go" || rep.Files[1].Path != "c.go" {
		t.Errorf("matched: %s", summary(rep))
	}
}

func TestReportChangedFile(t *testing.T) {
	ix := reportIndex(t)
	// A comment moves F two lines down (same hash); in b.go, G changed
	// and H did not.
	moved := "package a\n\n// F is F.\n// It is.\nfunc F(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
	b2 := "package a\n\nfunc G() int {\n\treturn 1 + 0\n}\n\nfunc H() int {\n\treturn 2\n}\n"
	w := world{
		"a.go": {moved, []Func{{Name: "F", Start: 5, End: 10, Hash: 42}}},
		"b.go": {b2, []Func{{Name: "G", Start: 3, End: 5, Hash: 70}, {Name: "H", Start: 7, End: 9, Hash: 8}}},
	}
	rep, err := ix.Report(ReportOptions{Current: w.current})
	if err != nil {
		t.Fatal(err)
	}
	want := `a.go changed 1/1
  F 5-10 tests=TestA,TestB
  TestA lines=5-7 stale=
  TestB lines=5-6,9-10 stale=
b.go changed 0/2
  G 3-5 tests= stale=TestA
  H 7-9 tests=
  TestA lines= stale=3-5
`
	if got := summary(rep); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	// No functions now (no Spanner): the whole changed file is stale.
	w["a.go"] = struct {
		src   string
		funcs []Func
	}{moved, nil}
	rep, _ = ix.Report(ReportOptions{Current: w.current, Match: func(p string) bool { return p == "a.go" }})
	if got := summary(rep); got != "a.go changed 0/0\n  TestA lines= stale=1-10\n  TestB lines= stale=1-10\n" {
		t.Errorf("no functions now:\n%s", got)
	}
}

func TestReportGoneFileAndNoData(t *testing.T) {
	ix := reportIndex(t)
	rep, err := ix.Report(ReportOptions{Current: world{"a.go": {srcA, funcsA}}.current})
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Files[1]; f.Path != "b.go" || f.State != StateGone || f.Total != 0 || len(f.Tests) != 1 || String(f.Tests[0].Stale) != "3-5" {
		t.Errorf("gone file: %+v", f)
	}
	// A file with no Spanner now but unchanged: its recorded functions.
	rep, _ = ix.Report(ReportOptions{Current: world{"a.go": {srcA, nil}}.current, Match: func(p string) bool { return p == "a.go" }})
	if got := summary(rep); !strings.HasPrefix(got, "a.go recorded 1/1\n  F 3-8 tests=TestA,TestB\n") {
		t.Errorf("recorded functions: %s", got)
	}
	empty := openT(t, filepath.Join(t.TempDir(), "e.db"), Options{})
	if _, err := empty.Report(ReportOptions{}); !errors.Is(err, ErrNoData) {
		t.Errorf("empty index: %v", err)
	}
}

func TestSubtract(t *testing.T) {
	got := subtract([]Span{{1, 10}, {20, 30}}, []Span{{1, 2}, {5, 6}, {10, 21}, {30, 40}})
	if s := String(got); s != "3-4,7-9,22-29" {
		t.Errorf("subtract: %s", s)
	}
}

// TestReportImportTimeLinesProveNothing: a decorated Python function's
// decorator and def lines run when its module loads; only a line of its
// body makes it covered.
func TestReportImportTimeLinesProveNothing(t *testing.T) {
	src := "import functools\n\n@functools.cache\ndef used(x):  # doc: a colon\n    return x\n\n@functools.cache\ndef unused(\n    x,\n):\n    return x\n\ndef one(): return 1\n"
	funcs := []Func{{Name: "used", Start: 3, End: 5, Hash: 1}, {Name: "unused", Start: 7, End: 11, Hash: 2}, {Name: "one", Start: 13, End: 13, Hash: 3}}
	ix := openT(t, filepath.Join(t.TempDir(), "c.db"), Options{})
	err := ix.Replace([]Record{{ID: "test_m.py::test_used", Recorded: t0, Files: []File{
		{Path: "m.py", Hash: xxh3.HashString(src), Lines: []Span{{1, 1}, {3, 5}, {7, 8}, {13, 13}}, Funcs: funcs},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ix.Report(ReportOptions{Current: world{"m.py": {src, funcs}}.current})
	if err != nil {
		t.Fatal(err)
	}
	want := "m.py recorded 2/3\n  used 3-5 tests=test_m.py::test_used\n  unused 7-11 tests=\n  one 13-13 tests=test_m.py::test_used\n  test_m.py::test_used lines=1,3-5,7-8,13 stale=\n"
	if got := summary(rep); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
}
