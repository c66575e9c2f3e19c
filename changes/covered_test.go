package changes

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/golang"
	"github.com/testdex/testdex/internal/lang/js"
	"github.com/testdex/testdex/internal/languages"
)

const covSrc = `package v

const limit = 10

func F(s string) int {
	n := len(s)
	return n
}

func G(n int) bool {
	ok := n < limit
	return ok
}
`

const covTest = `package v

import "testing"

func TestF(t *testing.T) { F("ab") }

func TestG(t *testing.T) { G(3) }
`

// covProject writes a Go module whose TestF executed F's body (lines 6-7)
// and TestG G's (11-12), records them (outcomes as given; a test with
// outcome "" is not recorded), and returns the listing and the index.
func covProject(t *testing.T, outcomes map[string]string, keepText bool) (*index.Index, *coverage.Index, string) {
	t.Helper()
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("v/v.go", covSrc)
	write("v/v_test.go", covTest)
	ix, err := index.Build(context.Background(), index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	spans, err := golang.Spanner.Spans(filepath.Join(root, "v/v.go"), []byte(covSrc))
	if err != nil {
		t.Fatal(err)
	}
	var content []byte
	if keepText {
		content = []byte(covSrc)
	}
	lines := map[string][]coverage.Span{"TestF": {{Start: 5, End: 8}}, "TestG": {{Start: 10, End: 13}}}
	recorded := map[string][]coverage.Span{}
	for name := range outcomes {
		recorded["v/v_test.go::"+name] = lines[name]
	}
	return ix, record(t, "v/v.go", covSrc, content, spans, recorded, outcomes, "v/v_test.go::"), root
}

// record writes an index where each test of lines executed those lines
// of file (text src, its text kept when content is not nil), with the
// outcome outcomes[strings.TrimPrefix(id, prefix)] ("pass" when absent).
func record(t *testing.T, file, src string, content []byte, spans []lang.FuncSpan, lines map[string][]coverage.Span, outcomes map[string]string, prefix string) *coverage.Index {
	t.Helper()
	f := coverage.File{Path: file, Hash: xxh3.HashString(src), Content: content}
	for _, s := range spans {
		f.Funcs = append(f.Funcs, coverage.Func{Name: s.Name, Start: s.Start, End: s.End, Hash: s.Hash})
	}
	when := time.Unix(1700000000, 0)
	var recs []coverage.Record
	for id, l := range lines {
		out, ok := outcomes[strings.TrimPrefix(id, prefix)]
		if !ok {
			out = "pass"
		}
		rf := f
		rf.Lines = l
		recs = append(recs, coverage.Record{ID: id, Recorded: when, Outcome: out, Granularity: "test", Files: []coverage.File{rf}})
	}
	cov, err := coverage.Open(filepath.Join(t.TempDir(), "cov.db"), coverage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cov.Close() })
	if err := cov.Replace(recs); err != nil {
		t.Fatal(err)
	}
	return cov
}

// edit rewrites v/v.go with old replaced by new.
func edit(t *testing.T, root, old, new string) Set {
	t.Helper()
	return editOf(t, root, covSrc, old, new)
}

// editOf is edit of src, the recorded v/v.go.
func editOf(t *testing.T, root, src, old, new string) Set {
	t.Helper()
	if !strings.Contains(src, old) {
		t.Fatalf("%q not in the source", old)
	}
	if err := os.WriteFile(filepath.Join(root, "v/v.go"), []byte(strings.Replace(src, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return Set{{Path: "v/v.go", Status: Modified}}
}

// picks renders a selection as ID -> reason.
func picks(t *testing.T, g *Graph, ix *index.Index, set Set, cov CoverageIndex) map[string]string {
	t.Helper()
	affected, err := g.SelectCovered(ix, set, cov)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, a := range affected {
		for i, tt := range a.Tests {
			out[tt.ID] = a.ReasonOf(i).String()
		}
	}
	return out
}

func TestSelectCovered(t *testing.T) {
	both := map[string]string{"TestF": "pass", "TestG": "pass"}
	for _, c := range []struct {
		name     string
		outcomes map[string]string
		keepText bool
		old, new string
		want     map[string]string // ID -> a part of its reason
	}{
		{"a change of G selects only the test that executed G", both, true, "ok := n < limit", "ok := n <= limit",
			map[string]string{"v/v_test.go::TestG": "covered: TestG executed G (changed) in v/v.go"}},
		{"a change of F selects only the test that executed F", both, true, "n := len(s)", "n := len(s) + 1",
			map[string]string{"v/v_test.go::TestF": "covered: TestF executed F (changed) in v/v.go"}},
		{"a comment inside F selects nothing", both, true, "n := len(s)", "n := len(s) // the length", map[string]string{}},
		{"a change outside functions keeps the static evidence", both, true, "limit = 10", "limit = 11", map[string]string{
			"v/v_test.go::TestF": "(static evidence: v/v.go changed outside its function bodies)",
			"v/v_test.go::TestG": "(static evidence: v/v.go changed outside its function bodies)"}},
		{"a new function keeps the static evidence", both, true, "func G(", "func H() {}\n\nfunc G(", map[string]string{
			"v/v_test.go::TestF": "changed outside its function bodies",
			"v/v_test.go::TestG": "changed outside its function bodies"}},
		{"a test without coverage keeps the static evidence", map[string]string{"TestF": "pass"}, true, "n := len(s)", "n := len(s) + 1", map[string]string{
			"v/v_test.go::TestF": "covered: TestF executed F",
			"v/v_test.go::TestG": "(same package) go:example.com/m/v → (changed) v/v.go"}},
		{"a failed test's record keeps the static evidence", map[string]string{"TestF": "pass", "TestG": "fail"}, true, "n := len(s)", "n := len(s) + 1", map[string]string{
			"v/v_test.go::TestF": "covered: TestF executed F",
			"v/v_test.go::TestG": "(same package) go:example.com/m/v → (changed) v/v.go"}},
		// A build failure runs nothing: whatever each test executed, every
		// test of the package fails (lang.BuildChecker).
		{"a type error inside F selects every test of the package", both, true, "n := len(s)", "n := len(s) + undefinedLen(s)", map[string]string{
			"v/v_test.go::TestF": "v/v.go does not type-check: v/v.go:6:16: undefined: undefinedLen; every test of example.com/m/v and its importers",
			"v/v_test.go::TestG": "v/v.go does not type-check"}},
		{"a stale record whose text was not kept keeps the static evidence", both, false, "ok := n < limit", "ok := n <= limit", map[string]string{
			"v/v_test.go::TestF": "that version's text was not kept",
			"v/v_test.go::TestG": "that version's text was not kept"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ix, cov, root := covProject(t, c.outcomes, c.keepText)
			set := edit(t, root, c.old, c.new)
			got := picks(t, Build(ix), ix, set, cov)
			if len(got) != len(c.want) {
				t.Errorf("selected %v, want %v", got, c.want)
			}
			for id, part := range c.want {
				if !strings.Contains(got[id], part) {
					t.Errorf("%s: reason %q, want it to contain %q", id, got[id], part)
				}
			}
		})
	}
}

func TestSelectCoveredNoIndex(t *testing.T) {
	ix, _, root := covProject(t, map[string]string{"TestF": "pass"}, true)
	empty, err := coverage.Open(filepath.Join(t.TempDir(), "empty.db"), coverage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	set := edit(t, root, "n := len(s)", "n := len(s) + 1")
	if got := picks(t, Build(ix), ix, set, empty); len(got) != 2 {
		t.Errorf("no coverage: selected %v, want both tests by the static evidence", got)
	}
}

// TestSkeletonPython: Python's rule for bodies (python's body.go) keeps
// a function's decorators and def statement in the skeleton.
func TestSkeletonPython(t *testing.T) {
	src := "@deco(\n    x=1)\ndef f(a,\n      b=(1, 2)):  # note\n    return a\n\ndef g(): return 1\n"
	rule := languages.Bodies("m.py")
	if rule == nil {
		t.Fatal("no rule for bodies in .py files")
	}
	// A changed default is outside the body: the skeleton changes.
	funcs := []coverage.Func{{Name: "f", Start: 1, End: 5}, {Name: "g", Start: 7, End: 7}}
	a := skeleton(rule, "m.py", []byte(src), funcs)
	if b := skeleton(rule, "m.py", []byte(strings.Replace(src, "b=(1, 2)", "b=(1, 3)", 1)), funcs); a == b {
		t.Error("a changed default did not change the skeleton")
	}
	if b := skeleton(rule, "m.py", []byte(strings.Replace(src, "return a", "return -a", 1)), funcs); a != b {
		t.Error("a changed body changed the skeleton")
	}
}

const pySrc = `def f(x):
    if x > 0:
        return x + 1
    return 0
`

// pyCovProject writes a pytest project (pyproject.toml, m.py = pySrc,
// tests/test_m.py = test) and records each test of lines as executing
// those lines of m.py, passed.
func pyCovProject(t *testing.T, test string, lines map[string][]coverage.Span) (*index.Index, *coverage.Index, string) {
	t.Helper()
	root := t.TempDir()
	for rel, text := range map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\n", "m.py": pySrc, "tests/test_m.py": test} {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := index.Build(context.Background(), index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	p := index.InnermostProject(ix.ProjectFiles(), "m.py")
	if p == nil || p.Spanner == nil {
		t.Fatal("no Python project with a Spanner holds m.py")
	}
	spans, err := p.Spanner.Spans(filepath.Join(root, "m.py"), []byte(pySrc))
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string][]coverage.Span{}
	for name, l := range lines {
		recorded["tests/test_m.py::"+name] = l
	}
	return ix, record(t, "m.py", pySrc, []byte(pySrc), spans, recorded, nil, ""), root
}

// selectedAfter edits m.py (old replaced by new) and returns the IDs
// SelectCovered picks, sorted and joined by spaces.
func selectedAfter(t *testing.T, ix *index.Index, cov CoverageIndex, root, old, new string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, "m.py"), []byte(strings.Replace(pySrc, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	got := picks(t, Build(ix), ix, Set{{Path: "m.py", Status: Modified}}, cov)
	var ids []string
	for id := range got {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return strings.Join(ids, " ")
}

// TestSelectCoveredStatements: a Python test that executed a changed
// function but none of its changed statements is not affected (the
// language's StatementDiffer); one that executed the changed statement
// is. Of a pytest test whose rows are named at run time (a dynamic
// record: its table reads the environment, which the listing leaves
// unknown), only the rows that executed the change are selected, by the
// IDs pytest reported; all of them select the test.
func TestSelectCoveredStatements(t *testing.T) {
	type edit struct{ old, new, want string }
	for _, p := range []struct {
		name, test string
		lines      map[string][]coverage.Span
		edits      []edit
	}{
		{"two tests", "from m import f\n\ndef test_pos():\n    assert f(1) == 2\n\ndef test_neg():\n    assert f(-1) == 0\n",
			map[string][]coverage.Span{"test_pos": {{Start: 1, End: 3}}, "test_neg": {{Start: 1, End: 2}, {Start: 4, End: 4}}},
			[]edit{
				{"return x + 1", "return x - 1", "tests/test_m.py::test_pos"},
				{"return 0", "return 1", "tests/test_m.py::test_neg"},
				{"if x > 0:", "if x >= 0:", "tests/test_m.py::test_neg tests/test_m.py::test_pos"},
			}},
		{"rows named at run time", "import os\nimport pytest\nfrom m import f\n\ndef cases():\n    return [1, -1] if os.environ.get('NEVER_SET') is None else []\n\n@pytest.mark.parametrize(\"x\", cases())\ndef test_p(x):\n    assert f(x) is not None\n",
			map[string][]coverage.Span{"test_p[1]": {{Start: 1, End: 3}}, "test_p[-1]": {{Start: 1, End: 2}, {Start: 4, End: 4}}},
			[]edit{
				{"return x + 1", "return x - 1", "tests/test_m.py::test_p[1]"},
				{"return 0", "return 1", "tests/test_m.py::test_p[-1]"},
				{"if x > 0:", "if x >= 0:", "tests/test_m.py::test_p"},
			}},
	} {
		t.Run(p.name, func(t *testing.T) {
			ix, cov, root := pyCovProject(t, p.test, p.lines)
			for _, c := range p.edits {
				if got := selectedAfter(t, ix, cov, root, c.old, c.new); got != c.want {
					t.Errorf("%s -> %s: selected %s, want %s", c.old, c.new, got, c.want)
				}
			}
		})
	}
}

// TestSelectCoveredContainer: a class is no test of its own; of its
// recorded methods only the affected one is selected, not the class
// (which would run them all).
func TestSelectCoveredContainer(t *testing.T) {
	test := "from m import f\n\nclass TestC:\n    def test_a(self):\n        assert f(1) == 2\n\n    def test_b(self):\n        assert f(-1) == 0\n"
	ix, cov, root := pyCovProject(t, test,
		map[string][]coverage.Span{"TestC::test_a": {{Start: 1, End: 3}}, "TestC::test_b": {{Start: 1, End: 2}, {Start: 4, End: 4}}})
	if got := selectedAfter(t, ix, cov, root, "return x + 1", "return x - 1"); got != "tests/test_m.py::TestC::test_a" {
		t.Errorf("selected %s, want tests/test_m.py::TestC::test_a alone", got)
	}
}

// TestSkeletonJS: JavaScript's rule for bodies (js's body.go) keeps a
// parameter list written over several lines in the skeleton: a call can
// throw in its pattern before the body's counter is set, so a change to
// it is the static evidence's to decide. A change inside the body is not
// in the skeleton, nor one to a function whose body starts on its first
// line.
func TestSkeletonJS(t *testing.T) {
	src := "function f(\n  {a, b},\n  c,\n) {\n  return a + c;\n}\n\nconst g = ({x}) => {\n  return x;\n};\n"
	rule := languages.Bodies("m.js")
	if rule == nil {
		t.Fatal("no rule for bodies in .js files")
	}
	cut := func(src string) []coverage.Func {
		spans, err := js.Spanner.Spans("m.js", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var out []coverage.Func
		for _, s := range spans {
			out = append(out, coverage.Func{Name: s.Name, Start: s.Start, End: s.End, Hash: s.Hash})
		}
		return out
	}
	skel := func(src string) string { return skeleton(rule, "m.js", []byte(src), cut(src)) }
	a := skel(src)
	if b := skel(strings.Replace(src, "{a, b},", "{a, b} = {},", 1)); a == b {
		t.Error("a changed parameter pattern on the list's second line did not change the skeleton")
	}
	if b := skel(strings.Replace(src, "return a + c", "return a - c", 1)); a != b {
		t.Error("a changed body changed the skeleton")
	}
	if b := skel(strings.Replace(src, "return x", "return -x", 1)); a != b {
		t.Error("a changed arrow body changed the skeleton")
	}
}
