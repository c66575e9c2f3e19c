package history

import (
	"fmt"
	"testing"
	"time"
)

// TestVerdicts: broken wins over flaky and names the commit its streak
// began on; a pass on a rerun is flaky, as a pass and a failure among one
// run's repeats are (even when the last repeat failed: no failing streak); a pass and a failure on one commit
// are flaky; a first failure is new; a run in which most tests failed is
// infrastructure and counts against none of them; the window bounds what
// counts.
func TestVerdicts(t *testing.T) {
	h := &History{Version: Version}
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	add := func(run int, commit string, id string, outcomes ...string) {
		rid := fmt.Sprintf("r%02d", run)
		found := false
		for _, r := range h.Runs {
			found = found || r.ID == rid
		}
		if !found {
			h.Runs = append(h.Runs, Run{ID: rid, Time: t0.Add(time.Duration(run) * time.Hour), Commit: commit})
		}
		for i, o := range outcomes {
			h.Attempts = append(h.Attempts, Attempt{Run: rid, ID: id, Attempt: i, Outcome: o, Duration: 1})
		}
	}
	for run := 1; run <= 6; run++ {
		c := fmt.Sprintf("c%d", run)
		add(run, c, "steady", Pass)
		switch {
		case run <= 3:
			add(run, c, "broken", Pass)
		default:
			add(run, c, "broken", Fail) // fails from c4 on
		}
		if run == 2 {
			add(run, c, "retried", Fail, Pass)
		} else {
			add(run, c, "retried", Pass)
		}
		switch run { // run --repeat 3: passed, failed, passed; then failed once and passed twice, last
		case 3:
			add(run, c, "repeated", Pass, Fail, Pass)
		case 6:
			add(run, c, "repeated", Pass, Pass, Fail)
		default:
			add(run, c, "repeated", Pass)
		}
		if run == 6 {
			add(run, c, "new", Fail)
		} else {
			add(run, c, "new", Pass)
		}
	}
	add(7, "c6", "mixed", Pass) // c6 passed in run 7 ...
	add(8, "c6", "mixed", Fail) // ... and failed in run 8
	add(7, "c6", "steady", Pass)
	add(8, "c6", "steady", Pass)
	// run 9: six tests fail at once: a crash, no test's failure
	for i := range 6 {
		add(9, "c7", fmt.Sprintf("crash%d", i), Fail)
	}
	add(9, "c7", "steady", Fail)
	add(10, "c7", "steady", Pass)

	v := h.Verdicts(VerdictOptions{})
	check := func(id, kind, text string) {
		t.Helper()
		if v[id].Kind != kind || text != "" && v[id].String() != text {
			t.Errorf("%s: %s (%q), want %s (%q); %+v", id, v[id].Kind, v[id].String(), kind, text, v[id])
		}
	}
	check("broken", Broken, "broken since c4 (failed the last 3 runs)")
	check("retried", Flaky, "flaky: failed 1 of 6 runs, passed on a rerun 1 times")
	check("new", NewFailure, "new failure")
	check("repeated", Flaky, "flaky: failed 2 of 6 runs, passed on a rerun 2 times")
	check("mixed", Flaky, "flaky: failed 1 of 2 runs")
	check("steady", OK, "ok")
	if v["steady"].Infra != 1 || v["steady"].Runs != 9 {
		t.Errorf("steady: %+v, want the crashed run left out as infra", v["steady"])
	}
	if w := h.Verdicts(VerdictOptions{Window: 2}); w["retried"].Kind != OK || w["broken"].Since != "c5" {
		t.Errorf("window 2: retried %+v, broken %+v", w["retried"], w["broken"])
	}
}
