package costfit

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// TestFitRecovers checks that runs made by a known model give it back,
// and that a shard of many tests from few files is priced above one of
// few tests from as many files (what a start and a cost per file alone
// cannot tell apart).
func TestFitRecovers(t *testing.T) {
	want := Model{Start: 1.1, PerFile: 0.0035, PerTest: 0.0017}
	var runs []Run
	for _, ft := range [][2]int{{30, 682}, {32, 559}, {36, 1287}, {34, 860}, {217, 4970}} {
		runs = append(runs, Run{Setup: want.Cost(ft[0], ft[1]), Files: ft[0], Tests: ft[1]})
	}
	m, ok := Fit(runs, 2)
	if !ok || !near(m.Start, want.Start) || !near(m.PerFile, want.PerFile) || !near(m.PerTest, want.PerTest) || m.Runs != 5 {
		t.Fatalf("Fit = %+v, %v; want %+v", m, ok, want)
	}
	if many, few := m.Cost(36, 1319), m.Cost(36, 601); many-few < 1 {
		t.Errorf("1,319 tests cost %.2f s, 601 tests %.2f s: want the difference their tests make", many, few)
	}
}

// TestFitBounds checks the terms stay within their bounds: no negative
// cost, a start at most maxStart, even where the unbounded fit would
// leave them.
func TestFitBounds(t *testing.T) {
	// Setups that fall as files grow: unbounded, the cost per file is
	// negative.
	runs := []Run{{Setup: 3, Files: 1, Tests: 10}, {Setup: 2.5, Files: 5, Tests: 10}, {Setup: 2, Files: 9, Tests: 10}}
	m, ok := Fit(runs, 10)
	if !ok || m.PerFile < 0 || m.PerTest < 0 || m.Start < 0 || m.Start > 10 {
		t.Fatalf("Fit = %+v, %v: a term out of bounds", m, ok)
	}
	// A start beyond maxStart is held at it.
	runs = []Run{{Setup: 9, Files: 1, Tests: 1}, {Setup: 9.1, Files: 2, Tests: 3}, {Setup: 9.2, Files: 3, Tests: 5}}
	m, _ = Fit(runs, 2)
	if m.Start > 2 {
		t.Errorf("Start = %.2f, above maxStart 2", m.Start)
	}
	// Within the bounds it fits the runs at least as well as reading
	// each as a start and the rest per file.
	var fallback Model
	for _, r := range runs {
		fallback.Start += 2.0 / 3
		fallback.PerFile += (r.Setup - 2) / float64(r.Files) / 3
	}
	if fit, per := residual(runs, m), residual(runs, fallback); fit > per {
		t.Errorf("the fit's squared error %.3f is above a start and the rest per file's %.3f", fit, per)
	}
}

// TestFitFew checks the reading of fewer runs than a fit needs, and of
// runs that cannot tell the terms apart: a start up to maxStart and the
// rest per file, as before there were three terms.
func TestFitFew(t *testing.T) {
	m, ok := Fit([]Run{{Setup: 12, Files: 200, Tests: 5000}}, 2)
	if !ok || !near(m.Start, 2) || !near(m.PerFile, 0.05) || m.PerTest != 0 || m.Runs != 1 {
		t.Fatalf("one run: %+v, %v", m, ok)
	}
	m, _ = Fit([]Run{{Setup: 1, Files: 2, Tests: 4}, {Setup: 3, Files: 4, Tests: 8}}, 2)
	if !near(m.Start, 1.5) || !near(m.PerFile, 0.125) {
		t.Errorf("two runs: %+v, want the mean of (1, 0) and (2, 0.25)", m)
	}
	if _, ok := Fit([]Run{{Setup: 5}}, 2); ok {
		t.Error("a run of no file: want no model")
	}
	// Three identical runs: the fit is exact with the start alone, or
	// any split; whatever it picks must price that run as it was.
	same := []Run{{Setup: 4, Files: 10, Tests: 100}, {Setup: 4, Files: 10, Tests: 100}, {Setup: 4, Files: 10, Tests: 100}}
	m, ok = Fit(same, 2)
	if !ok || math.Abs(m.Cost(10, 100)-4) > 1e-6 {
		t.Errorf("identical runs: %+v prices them at %.3f, want 4", m, m.Cost(10, 100))
	}
}
