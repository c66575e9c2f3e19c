package workspace

import (
	"strings"
	"testing"

	"github.com/testdex/testdex/history"
)

// TestCoverageCost: a coverage run above twice the median wall time of the
// plain runs of the same batch and test count says so; the history's
// coverage runs, runs of another count and a cost within 2x say nothing.
func TestCoverageCost(t *testing.T) {
	past := &history.History{
		Runs: []history.Run{{ID: "p1"}, {ID: "p2"}, {ID: "p3"}, {ID: "c1", Coverage: true}, {ID: "p4"}},
		Units: []history.Unit{
			{Run: "p1", Unit: "a go", Wall: 1.0, Count: 3},
			{Run: "p2", Unit: "a go", Wall: 1.4, Count: 3},
			{Run: "p3", Unit: "a go", Wall: 1.2, Count: 3},
			{Run: "c1", Unit: "a go", Wall: 0.1, Count: 3}, // a coverage run: not a plain cost
			{Run: "p4", Unit: "a go", Wall: 0.1, Count: 2}, // other tests
		},
	}
	this := func(wall float64, count int) *history.History {
		return &history.History{Runs: []history.Run{{ID: "now", Coverage: true}},
			Units: []history.Unit{{Run: "now", Unit: "a go", Wall: wall, Count: count}}}
	}
	got := coverageCost(past, this(6.0, 3))
	if len(got) != 1 || !strings.HasPrefix(got[0], "coverage cost 5.0x the run: a go took 6.00s with --coverage, 1.20s in the median of 3 plain runs of the same 3 top-level tests") {
		t.Errorf("6s against a median of 1.2s: %q", got)
	}
	if got := coverageCost(past, this(2.3, 3)); len(got) != 0 {
		t.Errorf("within 2x: %q", got)
	}
	if got := coverageCost(past, this(6.0, 5)); len(got) != 0 {
		t.Errorf("no plain run of 5 tests: %q", got)
	}
	if got := coverageCost(&history.History{}, this(6.0, 3)); len(got) != 0 {
		t.Errorf("an empty history: %q", got)
	}
}
