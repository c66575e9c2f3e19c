package run

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/plan"
)

// TestCoverRunGaps: after the run, a batch whose tests ran and recorded no
// line under the root gets one warning naming it, with its runner's notes
// as the reason (or what the core saw), and a gap; one that recorded
// something clears its gap, or keeps a partial one when its runner left
// notes; one that could not record keeps its reason as its gap, unwarned
// (newCoverRun said it); one whose tests did not run is left alone.
func TestCoverRunGaps(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "a.js")
	batch := func(dir string, fw testdex.Framework) *plan.Batch {
		return &plan.Batch{Name: dir + " " + string(fw), Dir: dir, Setup: &lang.Setup{Framework: fw, Runner: fakeCoverer{}}, Project: &lang.Project{Dir: filepath.Join(root, dir)}}
	}
	noted, silent, outside, good, partial, off, idle := batch("web", testdex.Jest), batch(".", testdex.Go), batch("py", testdex.Pytest),
		batch("m", testdex.Mocha), batch("v", testdex.Vitest), batch("u", testdex.Unittest), batch("n", testdex.NodeTest)
	p := &plan.Plan{Batches: []*plan.Batch{noted, silent, outside, good, partial, off, idle}}
	c := &coverRun{on: map[*plan.Batch]bool{}, off: map[*plan.Batch]string{off: "no coverage: coverage is not installed"},
		tests: map[string]*testCover{}, notes: map[*plan.Batch][]string{}}
	sum := NewSummary()
	for _, b := range p.Batches {
		if b != off {
			c.on[b] = true
		}
		for _, id := range []string{"x", "y"} {
			if b != idle {
				sum.Event(testdex.Event{Action: testdex.ActionPass, ID: b.Name + "::" + id, Batch: b.Name})
			}
		}
	}
	sum.Event(testdex.Event{Action: testdex.ActionSkip, ID: "n::z", Batch: idle.Name})
	c.add("", noted, lang.RunEvent{Message: "the recorder saw no test"})
	c.add("", noted, lang.RunEvent{Message: "the recorder saw no test"}) // said once
	c.add("py::x", outside, lang.RunEvent{Covered: []lang.CoveredFile{{File: "/elsewhere/x.py", Lines: []lang.Span{{Start: 1, End: 1}}}}})
	c.add("m::x", good, lang.RunEvent{Covered: []lang.CoveredFile{{File: in, Lines: []lang.Span{{Start: 1, End: 1}}}}})
	c.add("v::x", partial, lang.RunEvent{Covered: []lang.CoveredFile{{File: in, Lines: []lang.Span{{Start: 2, End: 2}}}}})
	c.add("", partial, lang.RunEvent{Message: "1 file ran without a source map"})
	when := time.Unix(1700000000, 0)
	gaps, warns := c.gaps(p, root, sum, when)

	var said []string
	for _, w := range warns {
		said = append(said, w.b.Name+": "+w.msg)
	}
	want := []string{
		"web jest: project web (jest): no coverage recorded for the 2 tests that ran: the recorder saw no test",
		". go: project . (go): no coverage recorded for the 2 tests that ran: " + unexplained(0),
		"py pytest: project py (pytest): no coverage recorded for the 2 tests that ran: " + unexplained(1),
		"v vitest: project v (vitest): coverage recorded for 1 of the 2 tests that ran, not all of what they executed: 1 file ran without a source map",
	}
	if strings.Join(said, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(said, "\n"), strings.Join(want, "\n"))
	}
	var got []string
	for _, g := range gaps {
		if !g.Recorded.Equal(when) || g.Tests != 2 {
			t.Errorf("gap %+v: want recorded %v, 2 tests", g, when)
		}
		got = append(got, g.Project+" "+g.Framework+" "+g.Reason+" partial="+map[bool]string{true: "yes", false: "no"}[g.Partial])
	}
	wantGaps := []string{
		"web jest the recorder saw no test partial=no",
		". go " + unexplained(0) + " partial=no",
		"py pytest " + unexplained(1) + " partial=no",
		"m mocha  partial=no", // cleared
		"v vitest 1 file ran without a source map partial=yes",
		"u unittest no coverage: coverage is not installed partial=no",
	}
	if strings.Join(got, "\n") != strings.Join(wantGaps, "\n") {
		t.Errorf("gaps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantGaps, "\n"))
	}
	// py recorded nothing under the root: its record would say its test
	// executed nothing; it is dropped. The others stay.
	if _, ok := c.tests["py::x"]; ok || len(c.tests) != 2 {
		t.Errorf("records kept: %v, want m::x and v::x", slices.Sorted(maps.Keys(c.tests)))
	}
}

// TestCoverRunSavesGaps: the gaps go to the index even when no test was
// recorded, a later run that records keeps the other project's gap, and
// a gap whose batch recorded is cleared (workspace's covering test reads
// them back as answers).
func TestCoverRunSavesGaps(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	for _, f := range []string{"web/a.js", "svc/s.go"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
		os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644)
	}
	gapsNow := func() []coverage.Gap {
		cix, err := coverage.Open(coverage.Path(cache, root), coverage.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer cix.Close()
		gs, err := cix.Gaps()
		if err != nil {
			t.Fatal(err)
		}
		return gs
	}
	when := time.Unix(1700000000, 0)
	gap := coverage.Gap{Project: "web", Framework: "jest", Reason: "the recorder saw no test", Tests: 2, Recorded: when}
	c := &coverRun{tests: map[string]*testCover{}}
	if n, err := c.save(cache, root, NewSummary(), when, []coverage.Gap{gap}, nil); n != 0 || err != nil {
		t.Fatalf("save: %d, %v", n, err)
	}
	if gs := gapsNow(); len(gs) != 1 || gs[0].Project != "web" || gs[0].Reason != gap.Reason {
		t.Fatalf("gaps after a run that recorded nothing: %+v", gs)
	}

	// Another batch records: the gap stays.
	b := &plan.Batch{Name: "svc go", Dir: "svc", Setup: &lang.Setup{Framework: testdex.Go, Runner: fakeCoverer{}}, Project: &lang.Project{Dir: filepath.Join(root, "svc")}}
	c = &coverRun{tests: map[string]*testCover{}}
	c.add("svc/s_test.go::TestS", b, lang.RunEvent{Covered: []lang.CoveredFile{{File: filepath.Join(root, "svc/s.go"), Lines: []lang.Span{{Start: 1, End: 1}}}}})
	if n, err := c.save(cache, root, NewSummary(), when, nil, nil); n != 1 || err != nil {
		t.Fatalf("save: %d, %v", n, err)
	}
	if gs := gapsNow(); len(gs) != 1 || gs[0].Project != "web" {
		t.Errorf("gaps after svc recorded: %+v, want web's alone", gs)
	}

	// web records this time: its gap is cleared.
	gap.Reason = ""
	if _, err := c.save(cache, root, NewSummary(), when, []coverage.Gap{gap}, nil); err != nil {
		t.Fatal(err)
	}
	for _, g := range gapsNow() {
		if g.Reason != "" {
			t.Errorf("gap left after web recorded: %+v", g)
		}
	}
}
