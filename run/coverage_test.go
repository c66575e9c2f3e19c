package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/plan"
)

type plainRunner struct{ lang.Runner }

type fakeCoverer struct {
	lang.Runner
	err error
}

func (f fakeCoverer) CoverageCheck(*lang.Project, lang.RunOptions) error { return f.err }
func (fakeCoverer) Granularity() string                                  { return "test" }

type fakeSpanner struct{}

func (fakeSpanner) Spans(string, []byte) ([]lang.FuncSpan, error) {
	return []lang.FuncSpan{{Name: "F", Start: 1, End: 3, Hash: 9}}, nil
}

// TestCoverRunChoosesBatches: a Coverer whose check passes records; one
// whose tool is missing and a framework without coverage run without it,
// each said once.
func TestCoverRunChoosesBatches(t *testing.T) {
	batch := func(fw testdex.Framework, r lang.Runner) *plan.Batch {
		return &plan.Batch{Name: "x " + string(fw), Dir: "x", Setup: &lang.Setup{Framework: fw, Runner: r}, Project: &lang.Project{}}
	}
	ok := batch(testdex.Go, fakeCoverer{})
	missing := batch(testdex.Pytest, fakeCoverer{err: errors.New("coverage.py is not installed in .venv")})
	plain, plain2 := batch(testdex.Jest, plainRunner{}), batch(testdex.Jest, plainRunner{})
	var warned []string
	c := newCoverRun(&plan.Plan{Batches: []*plan.Batch{ok, missing, plain, plain2}}, Options{}, func(_ *plan.Batch, s string) { warned = append(warned, s) })
	if !c.enabled(ok) || c.enabled(missing) || c.enabled(plain) {
		t.Errorf("enabled: ok %v, missing %v, plain %v", c.enabled(ok), c.enabled(missing), c.enabled(plain))
	}
	want := []string{
		"project x (pytest): no coverage: coverage.py is not installed in .venv; its tests run without it",
		"project x (jest): jest has no coverage in testdex yet; its tests run without it",
	}
	if strings.Join(warned, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s", strings.Join(warned, "\n"))
	}
	var nilRun *coverRun
	if nilRun.enabled(ok) {
		t.Error("a run without coverage enabled a batch")
	}
}

// TestCoverRunRecords: events add up per test; files become root-relative
// with their hash and functions; files outside the root are dropped; the
// outcome is the test's final result.
func TestCoverRunRecords(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\nfunc F() {\n}\n"), 0o644)
	p := &lang.Project{Dir: root, Spanner: fakeSpanner{}}
	b := &plan.Batch{Project: p, Setup: &lang.Setup{Framework: testdex.Go, Runner: fakeCoverer{}}}
	c := &coverRun{on: map[*plan.Batch]bool{b: true}, tests: map[string]*testCover{}}
	c.add("a_test.go::TestA", b, lang.RunEvent{Covered: []lang.CoveredFile{{File: filepath.Join(root, "a.go"), Lines: []lang.Span{{Start: 2, End: 2}}}}})
	c.add("a_test.go::TestA", b, lang.RunEvent{Covered: []lang.CoveredFile{{File: filepath.Join(root, "a.go"), Lines: []lang.Span{{Start: 3, End: 3}}}, {File: "/elsewhere/x.go", Lines: []lang.Span{{Start: 1, End: 1}}}}})
	sum := NewSummary()
	sum.Event(testdex.Event{Action: testdex.ActionFail, ID: "a_test.go::TestA"})
	when := time.Unix(1700000000, 0)
	recs := c.records(root, sum, when, nil)
	if len(recs) != 1 || recs[0].Outcome != "fail" || recs[0].Granularity != "test" || !recs[0].Recorded.Equal(when) || len(recs[0].Files) != 1 {
		t.Fatalf("records: %+v", recs)
	}
	f := recs[0].Files[0]
	if f.Path != "a.go" || f.Hash == 0 || len(f.Lines) != 1 || f.Lines[0].Start != 2 || f.Lines[0].End != 3 || len(f.Funcs) != 1 || f.Funcs[0].Hash != 9 {
		t.Errorf("file: %+v", f)
	}
}

// TestCoverRunSharedSpans: a slice of spans a runner gives to several
// tests (what loading a file ran) is kept by each, and a test that adds
// its own lines to it later never changes the others' (the slice has room
// to grow in place).
func TestCoverRunSharedSpans(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\nfunc F() {\n}\n"), 0o644)
	p := &lang.Project{Dir: root, Spanner: fakeSpanner{}}
	b := &plan.Batch{Project: p, Setup: &lang.Setup{Framework: testdex.Go, Runner: fakeCoverer{}}}
	c := &coverRun{on: map[*plan.Batch]bool{b: true}, tests: map[string]*testCover{}}
	a := filepath.Join(root, "a.go")
	loaded := make([]lang.Span, 1, 8)
	loaded[0] = lang.Span{Start: 1, End: 1}
	for _, id := range []string{"a_test.go::TestA", "a_test.go::TestB"} {
		c.add(id, b, lang.RunEvent{Covered: []lang.CoveredFile{{File: a, Lines: loaded}}})
	}
	c.add("a_test.go::TestA", b, lang.RunEvent{Covered: []lang.CoveredFile{{File: a, Lines: []lang.Span{{Start: 3, End: 3}}}}})
	c.add("a_test.go::TestB", b, lang.RunEvent{Covered: []lang.CoveredFile{{File: a, Lines: []lang.Span{{Start: 2, End: 2}, {Start: 9, End: 9}}}}})
	recs := c.records(root, NewSummary(), time.Unix(1700000000, 0), nil)
	got := map[string]string{}
	for _, r := range recs {
		got[r.ID] = coverage.String(r.Files[0].Lines)
	}
	if got["a_test.go::TestA"] != "1,3" || got["a_test.go::TestB"] != "1-2,9" || loaded[0] != (lang.Span{Start: 1, End: 1}) {
		t.Errorf("lines: %v; the shared slice now %v", got, loaded)
	}
	// Unsorted or overlapping spans are merged, not kept as given.
	c.add("a_test.go::TestC", b, lang.RunEvent{Covered: []lang.CoveredFile{{File: a, Lines: []lang.Span{{Start: 3, End: 3}, {Start: 1, End: 2}}}}})
	recs = c.records(root, NewSummary(), time.Unix(1700000000, 0), nil)
	if l := coverage.String(recs[2].Files[0].Lines); l != "1-3" {
		t.Errorf("TestC: %s", l)
	}
}

// TestCoverRunRecordsKnownFuncs: a file version the index already cut
// into functions (same path and content hash) takes those, uncut again; a
// version it does not know is cut by the Spanner.
func TestCoverRunRecordsKnownFuncs(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\nfunc F() {\n}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.go"), []byte("package a\nfunc G() {\n}\n"), 0o644)
	p := &lang.Project{Dir: root, Spanner: fakeSpanner{}}
	b := &plan.Batch{Project: p, Setup: &lang.Setup{Framework: testdex.Go, Runner: fakeCoverer{}}}
	c := &coverRun{on: map[*plan.Batch]bool{b: true}, tests: map[string]*testCover{}}
	c.add("a_test.go::TestA", b, lang.RunEvent{Covered: []lang.CoveredFile{
		{File: filepath.Join(root, "a.go"), Lines: []lang.Span{{Start: 2, End: 2}}},
		{File: filepath.Join(root, "b.go"), Lines: []lang.Span{{Start: 2, End: 2}}},
	}})
	asked := map[string]uint64{}
	known := func(rel string, hash uint64) []coverage.Func {
		asked[rel] = hash
		if rel == "a.go" {
			return []coverage.Func{{Name: "F", Start: 2, End: 3, Hash: 42}}
		}
		return nil
	}
	recs := c.records(root, NewSummary(), time.Unix(1700000000, 0), known)
	if len(recs) != 1 || len(recs[0].Files) != 2 {
		t.Fatalf("records: %+v", recs)
	}
	for _, f := range recs[0].Files {
		want := map[string]uint64{"a.go": 42, "b.go": 9}[f.Path]
		if len(f.Funcs) != 1 || f.Funcs[0].Hash != want || asked[f.Path] != f.Hash {
			t.Errorf("%s: funcs %+v (asked with hash %d, file hash %d), want the one of hash %d", f.Path, f.Funcs, asked[f.Path], f.Hash, want)
		}
	}
}

// A record keeps the process its runner named, made unique by the batch,
// and its order there; a test whose events name two processes has no one
// order (Unordered); a test that ran alone keeps "".
func TestCoverRunRecordsProcess(t *testing.T) {
	root := t.TempDir()
	p := &lang.Project{Dir: root}
	b := &plan.Batch{Name: ". go", Project: p, Setup: &lang.Setup{Framework: testdex.Go, Runner: fakeCoverer{}}}
	c := &coverRun{on: map[*plan.Batch]bool{b: true}, tests: map[string]*testCover{}}
	c.add("a_test.go::TestA", b, lang.RunEvent{Process: "p1", Seq: 0})
	c.add("a_test.go::TestB", b, lang.RunEvent{Process: "p1", Seq: 1})
	c.add("a_test.go::TestC", b, lang.RunEvent{Process: "p1", Seq: 2})
	c.add("a_test.go::TestC", b, lang.RunEvent{Process: "p2", Seq: 0})
	c.add("a_test.go::TestD", b, lang.RunEvent{})
	c.add("a_test.go::TestE", b, lang.RunEvent{})
	c.add("a_test.go::TestE", b, lang.RunEvent{Process: "p2", Seq: 1})
	got := map[string]string{}
	for _, r := range c.records(root, NewSummary(), time.Unix(1700000000, 0), nil) {
		got[strings.TrimPrefix(r.ID, "a_test.go::")] = fmt.Sprintf("%q/%d", r.Process, r.Seq)
	}
	want := map[string]string{"TestA": `". go\x00p1"/0`, "TestB": `". go\x00p1"/1`, "TestC": `". go\x00p1"/-1`, "TestD": `""/0`, "TestE": `". go\x00p2"/-1`}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %s, want %s", id, got[id], w)
		}
	}
}
