package workspace

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// TestWarnerEvents: each warning goes to Warn and, as a warning event
// naming its batch when it has one, to the handler; a handler error is
// kept and stops further events.
func TestWarnerEvents(t *testing.T) {
	var said []string
	var evs []testdex.Event
	now := time.Unix(1700000000, 0)
	w := &warner{warn: func(s string) { said = append(said, s) }, now: func() time.Time { return now },
		h: run.HandlerFunc(func(e testdex.Event) error {
			evs = append(evs, e)
			if len(evs) == 2 {
				return errors.New("stdout closed")
			}
			return nil
		})}
	b := &plan.Batch{Name: "web jest", Framework: testdex.Jest}
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

// TestWarnProblems: a run of paths warns with the listing's problems of
// the files under them (a Rust file no target compiles runs none, and
// must not pass in silence), not those of other files; a whole-root run
// says how many there are, and the first.
func TestWarnProblems(t *testing.T) {
	orphan := testdex.Problem{Severity: testdex.SevWarning, Path: "tests/zz.rs", Message: "not in the module tree of any target"}
	other := testdex.Problem{Severity: testdex.SevWarning, Path: "testsuite/a.rs", Message: "elsewhere"}
	ix := &index.Index{Problems: []testdex.Problem{orphan, other}}
	said := func(pr testdex.Problem) string { return pr.Path + ": " + pr.Message }
	for _, c := range []struct {
		paths []string
		want  []string
	}{
		{[]string{"tests/zz.rs"}, []string{said(orphan)}},
		{[]string{"tests"}, []string{said(orphan)}},
		{[]string{"tests", "testsuite"}, []string{said(orphan), said(other)}},
		{[]string{"test"}, nil},
		{[]string{"."}, []string{"the listing has 2 problem(s), the first: " + said(orphan) + " (the listing shows them all)"}},
	} {
		var got []string
		warnProblems(ix, &index.Selection{Paths: c.paths}, func(s string) { got = append(got, s) })
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: warned %q, want %q", c.paths, got, c.want)
		}
	}
}
