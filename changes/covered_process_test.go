package changes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang/golang"
)

// procSrc is covSrc with F and G each mentioning the other: the static
// graph lets either reach the other, so what an earlier test executed in
// one counts for a test that ran the other.
const procSrc = `package v

const limit = 10

func F(s string) int {
	n := len(s)
	_ = G
	return n
}

func G(n int) bool {
	ok := n < limit
	_ = F
	return ok
}
`

// testSrc is the test file procProjectOf writes (procTest unless a test
// sets another).
var testSrc = procTest

// procTest is procSrc's tests as one process ran them: TestA executed F,
// the others G only.
const procTest = `package v

import "testing"

func TestD(t *testing.T) { G(1) }

func TestA(t *testing.T) { F("ab") }

func TestB(t *testing.T) { G(2) }

func TestC(t *testing.T) { G(3) }

func TestE(t *testing.T) { G(4) }
`

// procProject records procTest's tests, each in its process at its
// order (name -> process, order), and returns the listing, the index and
// the root.
func procProject(t *testing.T, where map[string]coverage.Record) (*index.Index, *coverage.Index, string) {
	t.Helper()
	return procProjectOf(t, procSrc, map[string]string{"TestA": "F"}, "G", where)
}

// procProjectOf writes src as v/v.go beside procTest and records each
// test of where as executing the function its runs names (else dflt),
// or, for a name with a slash, a file of that name's folder.
func procProjectOf(t *testing.T, src string, runs map[string]string, dflt string, where map[string]coverage.Record) (*index.Index, *coverage.Index, string) {
	t.Helper()
	root := t.TempDir()
	for rel, text := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "v/v.go": src, "v/v_test.go": testSrc, "w/w.go": "package w\n\nfunc W() {\n\tprintln()\n}\n"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755)
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := index.Build(context.Background(), index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]coverage.File{}
	for rel, text := range map[string]string{"v/v.go": src, "w/w.go": "package w\n\nfunc W() {\n\tprintln()\n}\n"} {
		spans, err := golang.Spanner.Spans(filepath.Join(root, rel), []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		f := coverage.File{Path: rel, Hash: xxh3.HashString(text), Content: []byte(text)}
		for _, s := range spans {
			f.Funcs = append(f.Funcs, coverage.Func{Name: s.Name, Start: s.Start, End: s.End, Hash: s.Hash})
		}
		files[rel] = f
	}
	when := time.Unix(1700000000, 0)
	var recs []coverage.Record
	for name, w := range where {
		run, ok := runs[name]
		if !ok {
			run = dflt
		}
		rel, fn := "v/v.go", run
		if strings.Contains(run, "/") {
			rel, fn = run, "W"
		}
		rf := files[rel]
		for _, f := range rf.Funcs {
			if f.Name == fn {
				rf.Lines = []coverage.Span{{Start: f.Start + 1, End: f.End - 1}}
			}
		}
		recs = append(recs, coverage.Record{ID: "v/v_test.go::" + name, Recorded: when, Outcome: "pass",
			Granularity: "test", Process: w.Process, Seq: w.Seq, Files: []coverage.File{rf}})
	}
	cov, err := coverage.Open(filepath.Join(t.TempDir(), "cov.db"), coverage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cov.Close() })
	if err := cov.Replace(recs); err != nil {
		t.Fatal(err)
	}
	return ix, cov, root
}

// A test whose own record lacks a changed function that an earlier test
// of its process executed is selected, saying so; a test of another
// process, or one that started before, is not; a test whose earlier tests
// are not all recorded keeps the static evidence.
func TestSelectCoveredEarlierInProcess(t *testing.T) {
	ix, cov, root := procProject(t, map[string]coverage.Record{
		"TestD": {Process: "p", Seq: 0},
		"TestA": {Process: "p", Seq: 1},
		"TestB": {Process: "p", Seq: 2},
		"TestE": {Process: "p", Seq: 4}, // 3 is missing: recorded again since, or never ended
		"TestC": {Process: "q", Seq: 0},
	})
	got := picks(t, Build(ix), ix, editOf(t, root, procSrc, "n := len(s)", "n := len(s) + 1"), cov)
	want := map[string]string{
		"v/v_test.go::TestA": "covered: TestA executed F (changed) in v/v.go",
		"v/v_test.go::TestB": "covered: an earlier test of its process, TestA, executed F (changed) in v/v.go",
		"v/v_test.go::TestE": "v/v_test.go → (same package) go:example.com/m/v → (changed) v/v.go",
	}
	if len(got) != len(want) {
		t.Errorf("selected %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}

	// A change of G: each test executed it itself, but TestA, which
	// TestD ran before (it may have filled something TestA reads).
	got = picks(t, Build(ix), ix, editOf(t, root, procSrc, "ok := n < limit", "ok := n <= limit"), cov)
	if r := got["v/v_test.go::TestB"]; r != "covered: TestB executed G (changed) in v/v.go" {
		t.Errorf("TestB on a change of G: %q (%v)", r, got)
	}
	if r := got["v/v_test.go::TestA"]; r != "covered: an earlier test of its process, TestD, executed G (changed) in v/v.go" {
		t.Errorf("TestA on a change of G: %q (%v)", r, got)
	}
}

// A test that ran in several processes (Unordered) keeps the static
// evidence, and counts as earlier than every test of its process.
func TestSelectCoveredUnordered(t *testing.T) {
	ix, cov, root := procProject(t, map[string]coverage.Record{
		"TestA": {Process: "p", Seq: coverage.Unordered},
		"TestB": {Process: "p", Seq: 0},
		"TestC": {Process: "q", Seq: 0},
	})
	got := picks(t, Build(ix), ix, editOf(t, root, procSrc, "n := len(s)", "n := len(s) + 1"), cov)
	if r := got["v/v_test.go::TestA"]; !strings.HasPrefix(r, "v/v_test.go → (same package)") {
		t.Errorf("TestA (unordered): %q", r)
	}
	if r := got["v/v_test.go::TestB"]; r != "covered: an earlier test of its process, TestA, executed F (changed) in v/v.go" {
		t.Errorf("TestB: %q", r)
	}
	if _, ok := got["v/v_test.go::TestC"]; ok || len(got) != 4 { // TestD and TestE: no record
		t.Errorf("selected %v", got)
	}
}

// Unaffected judges a test against the changes since the baselines of
// its file and of the files of the earlier tests of its process: what
// those executed may serve it. With one of those baselines missing,
// nothing vouches for it.
func TestSinceBaselinesOfEarlierTests(t *testing.T) {
	when := time.Unix(1700000000, 0)
	c := &covSel{tests: map[string]coverage.TestInfo{
		"a_test.go::TestA": {ID: "a_test.go::TestA", Recorded: when, Outcome: "pass", Process: "p", Seq: 0},
		"b_test.go::TestB": {ID: "b_test.go::TestB", Recorded: when, Outcome: "pass", Process: "p", Seq: 1},
	}}
	base := map[string][]Baseline{
		"a_test.go": {{Recorded: when, Deps: Manifest{"a_test.go": 1, "x.go": 1}}},
		"b_test.go": {{Recorded: when, Deps: Manifest{"b_test.go": 1, "b.go": 1}}},
	}
	cur := map[string]Manifest{"a_test.go": {"a_test.go": 1, "x.go": 2}, "b_test.go": {"b_test.go": 1, "b.go": 1}}
	set, ok := c.sinceBaselines("b_test.go", []string{"b_test.go::TestB"}, when, base, cur)
	if !ok || len(set) != 1 || set[0].Path != "x.go" || set[0].Status != Modified {
		t.Errorf("TestB: %v %v, want x.go modified (TestA's closure)", set, ok)
	}
	if set, ok := c.sinceBaselines("a_test.go", []string{"a_test.go::TestA"}, when, base, cur); !ok || len(set) != 1 {
		t.Errorf("TestA: %v %v, want its own x.go", set, ok)
	}
	delete(base, "a_test.go")
	if _, ok := c.sinceBaselines("b_test.go", []string{"b_test.go::TestB"}, when, base, cur); ok {
		t.Error("TestB vouched for without TestA's baseline")
	}
}

// reachSrc has a cache in front of F (Lookup reaches F; G does not): a
// test that ran Lookup may have been served what an earlier test's F
// computed, one that ran G only cannot have been.
const reachSrc = `package v

var cache = map[string]int{}

func F(s string) int {
	n := len(s)
	cache[s] = n
	return n
}

func Lookup(s string) int {
	if n, ok := cache[s]; ok {
		return n
	}
	return F(s)
}

func G(n int) bool {
	ok := n < 10
	return ok
}
`

// The earlier test's changed function counts for a later test of its
// process only when the static graph reaches it from a function the
// later test ran: TestB (Lookup) is selected, TestC (G) is not, and
// TestE, which ran only code outside the graph (w/w.go: no test imports
// it), keeps the wide rule.
func TestSelectCoveredEarlierReachable(t *testing.T) {
	ix, cov, root := procProjectOf(t, reachSrc, map[string]string{"TestA": "F", "TestB": "Lookup", "TestE": "w/w.go"}, "G", map[string]coverage.Record{
		"TestD": {Process: "p", Seq: 0},
		"TestA": {Process: "p", Seq: 1},
		"TestB": {Process: "p", Seq: 2},
		"TestC": {Process: "p", Seq: 3},
		"TestE": {Process: "p", Seq: 4},
	})
	got := picks(t, Build(ix), ix, editOf(t, root, reachSrc, "n := len(s)", "n := len(s) + 1"), cov)
	want := map[string]string{
		"v/v_test.go::TestA": "covered: TestA executed F (changed) in v/v.go",
		"v/v_test.go::TestB": "covered: an earlier test of its process, TestA, executed F (changed) in v/v.go",
		"v/v_test.go::TestE": "covered: an earlier test of its process, TestA, executed F (changed) in v/v.go",
	}
	if len(got) != len(want) {
		t.Errorf("selected %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}
}

// A test's own function is a start of the narrowing: TestB's record holds
// only G (its test file's memo answered it, and test files are not
// instrumented), but run alone its helper would call F; so a change to F
// selects it through TestA, while TestC, whose body calls only G, is not.
func TestSelectCoveredEarlierFromTestBody(t *testing.T) {
	defer func(old string) { testSrc = old }(testSrc)
	testSrc = `package v

import "testing"

var memo int

func lookupMemo() int {
	if memo == 0 {
		memo = F("ab")
	}
	return memo
}

func TestA(t *testing.T) { lookupMemo() }

func TestB(t *testing.T) { lookupMemo() }

func TestC(t *testing.T) { G(3) }
`
	ix, cov, root := procProjectOf(t, reachSrc, map[string]string{"TestA": "F"}, "G", map[string]coverage.Record{
		"TestA": {Process: "p", Seq: 0},
		"TestB": {Process: "p", Seq: 1},
		"TestC": {Process: "p", Seq: 2},
	})
	got := picks(t, Build(ix), ix, editOf(t, root, reachSrc, "n := len(s)", "n := len(s) + 1"), cov)
	want := map[string]string{
		"v/v_test.go::TestA": "covered: TestA executed F (changed) in v/v.go",
		"v/v_test.go::TestB": "covered: an earlier test of its process, TestA, executed F (changed) in v/v.go",
	}
	if len(got) != len(want) {
		t.Errorf("selected %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}
}
