package mcpserver

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/testdex/testdex"
)

// TestProgressCadence drives run_tests' progress on a fake clock: one
// notification at the start, at most one per tick however many tests end
// between ticks, none on a tick where nothing changed, and one after
// progressMax of silence (a long test), naming the test that runs
// longest.
func TestProgressCadence(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	var sent []string
	p := newProgress(3, func() time.Time { return clock }, func(done, total int, msg string) {
		sent = append(sent, fmt.Sprintf("%d/%d %s", done, total, msg))
	})
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	ev := func(s float64, a testdex.Action, id string) {
		clock = at(s)
		p.event(testdex.Event{Action: a, ID: id})
	}

	p.tick(at(0))
	p.tick(at(1))
	ev(1.5, testdex.ActionRun, "a_test.go::TestA")
	ev(1.6, testdex.ActionRun, "a_test.go::TestB")
	ev(1.7, testdex.ActionOutput, "a_test.go::TestB")
	p.tick(at(2))
	ev(2.5, testdex.ActionPass, "a_test.go::TestA")
	ev(2.6, testdex.ActionFail, "a_test.go::TestB")
	ev(2.7, testdex.ActionRun, "a_test.go::TestC")
	for i := range 50 { // output is not progress
		ev(2.8, testdex.ActionOutput, fmt.Sprintf("a_test.go::TestC/%d", i))
	}
	for s := 3.0; s <= 14; s++ {
		p.tick(at(s))
	}
	ev(14.5, testdex.ActionPass, "a_test.go::TestC")
	ev(14.6, testdex.ActionPass, "a_test.go::TestD") // reported by the runner only: total grows
	p.tick(at(15))
	p.tick(at(16))

	want := []string{
		"0/3 0/3 tests finished, 0 failed",
		"0/3 0/3 tests finished, 0 failed; running: a_test.go::TestA (0s) and 1 more",
		"2/3 2/3 tests finished, 1 failed; running: a_test.go::TestC (0s)",
		"2/3 2/3 tests finished, 1 failed; running: a_test.go::TestC (10s)", // at 13: 10 s after the last
		"4/4 4/4 tests finished, 1 failed; last finished: a_test.go::TestD",
	}
	if !slices.Equal(sent, want) {
		t.Errorf("notifications:\n%q\nwant:\n%q", sent, want)
	}
}
