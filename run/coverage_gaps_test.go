package run

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
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
	batch := func(dir string, fw testdex.Framework) *index.Batch {
		return &index.Batch{Name: dir + " " + string(fw), Dir: dir, Setup: &lang.Setup{Framework: fw, Runner: fakeCoverer{}}, Project: &lang.Project{Dir: filepath.Join(root, dir)}}
	}
	noted, silent, outside, good, partial, off, idle := batch("web", testdex.Jest), batch(".", testdex.Go), batch("py", testdex.Pytest),
		batch("m", testdex.Mocha), batch("v", testdex.Vitest), batch("u", testdex.Unittest), batch("n", testdex.NodeTest)
	plan := &index.Plan{Batches: []*index.Batch{noted, silent, outside, good, partial, off, idle}}
	c := &coverRun{on: map[*index.Batch]bool{}, off: map[*index.Batch]string{off: "no coverage: coverage is not installed"},
		tests: map[string]*testCover{}, notes: map[*index.Batch][]string{}}
	sum := NewSummary()
	for _, b := range plan.Batches {
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
	gaps, warns := c.gaps(plan, root, sum, when)

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
// recorded, a later run that records clears them, and Covering answers a
// file of a gap's project with a GapError (an ErrNoData) that says why;
// a file of another project keeps the plain answers.
func TestCoverRunSavesGaps(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	for _, f := range []string{"web/a.js", "svc/s.go"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
		os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644)
	}
	ix := &index.Index{Root: root}
	when := time.Unix(1700000000, 0)
	gap := coverage.Gap{Project: "web", Framework: "jest", Reason: "the recorder saw no test", Tests: 2, Recorded: when}
	c := &coverRun{tests: map[string]*testCover{}}
	if n, err := c.save(cache, root, NewSummary(), when, []coverage.Gap{gap}, nil); n != 0 || err != nil {
		t.Fatalf("save: %d, %v", n, err)
	}
	_, err := Covering(ix, CoveringRequest{File: "web/a.js", CacheDir: cache})
	var ge *coverage.GapError
	if !errors.As(err, &ge) || !errors.Is(err, coverage.ErrNoData) || len(ge.Gaps) != 1 ||
		!strings.Contains(err.Error(), "recorded nothing for project web (jest): the recorder saw no test") {
		t.Fatalf("covering web/a.js: %v", err)
	}
	if _, err := Covering(ix, CoveringRequest{File: "svc/s.go", CacheDir: cache}); !errors.Is(err, coverage.ErrNoData) || errors.As(err, &ge) {
		t.Errorf("covering svc/s.go, outside the gap: %v, want plain ErrNoData", err)
	}

	// Another batch records: the gap stays for web's files only.
	b := &index.Batch{Name: "svc go", Dir: "svc", Setup: &lang.Setup{Framework: testdex.Go, Runner: fakeCoverer{}}, Project: &lang.Project{Dir: filepath.Join(root, "svc")}}
	c = &coverRun{tests: map[string]*testCover{}}
	c.add("svc/s_test.go::TestS", b, lang.RunEvent{Covered: []lang.CoveredFile{{File: filepath.Join(root, "svc/s.go"), Lines: []lang.Span{{Start: 1, End: 1}}}}})
	if n, err := c.save(cache, root, NewSummary(), when, nil, nil); n != 1 || err != nil {
		t.Fatalf("save: %d, %v", n, err)
	}
	if _, err := Covering(ix, CoveringRequest{File: "web/a.js", CacheDir: cache}); !errors.As(err, &ge) {
		t.Errorf("covering web/a.js with other records: %v, want the gap", err)
	}
	if ans, err := Covering(ix, CoveringRequest{File: "svc/s.go", CacheDir: cache}); err != nil || len(ans.Tests) != 1 {
		t.Errorf("covering svc/s.go: %+v, %v", ans, err)
	}

	// web records this time: its gap is cleared.
	gap.Reason = ""
	if _, err := c.save(cache, root, NewSummary(), when, []coverage.Gap{gap}, nil); err != nil {
		t.Fatal(err)
	}
	if ans, err := Covering(ix, CoveringRequest{File: "web/a.js", CacheDir: cache}); err != nil || len(ans.Tests) != 0 {
		t.Errorf("covering web/a.js after the gap cleared: %+v, %v, want no test and no error", ans, err)
	}
}

// TestWarnerEvents: each warning goes to Warn and, as a warning event
// naming its batch when it has one, to the handler; a handler error is
// kept and stops further events.
func TestWarnerEvents(t *testing.T) {
	var said []string
	var evs []testdex.Event
	now := time.Unix(1700000000, 0)
	w := &warner{warn: func(s string) { said = append(said, s) }, now: func() time.Time { return now },
		h: HandlerFunc(func(e testdex.Event) error {
			evs = append(evs, e)
			if len(evs) == 2 {
				return errors.New("stdout closed")
			}
			return nil
		})}
	b := &index.Batch{Name: "web jest", Setup: &lang.Setup{Framework: testdex.Jest}}
	w.say(nil, "a failure no longer listed")
	w.say(b, "project web (jest): no coverage recorded")
	w.say(b, "a third")
	if len(said) != 3 || len(evs) != 2 || w.err == nil {
		t.Fatalf("said %q, events %+v, err %v", said, evs, w.err)
	}
	if e := evs[0]; e.Action != testdex.ActionWarning || e.Batch != "" || e.Message != "a failure no longer listed" || !e.Time.Equal(now) {
		t.Errorf("event 0: %+v", e)
	}
	if e := evs[1]; e.Action != testdex.ActionWarning || e.Batch != "web jest" || e.Framework != testdex.Jest || e.Message != said[1] {
		t.Errorf("event 1: %+v", e)
	}
}
