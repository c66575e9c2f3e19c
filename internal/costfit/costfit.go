// Package costfit prices a runner's setup from the runs that paid it.
//
// A setup is what a batch's run cost beyond its tests' own durations: the
// process start, the collection of its files (pytest imports each test
// module), and what the runner spends around each test (hooks, reports,
// fixtures' bookkeeping). The history records, per run of a unit, that
// setup with the numbers of files and top-level tests the run held. Fit
// reads those records as Start + PerFile × files + PerTest × tests, so a
// split can price a shard by what it holds.
//
// Why three terms: on networkx (pytest, about 5,000 results) the setups of
// 21 shard runs fitted 1.1 s of start, 3.5 ms a file and 1.7 ms a test; a
// shard of 1,319 cheap parametrized rows paid 3.6 s where one of 601 rows
// from as many files paid 2.4 s. A start and a cost per file alone put
// the whole difference on the files and priced both shards alike.
package costfit

import "math"

// Run is one run of a setup unit: its setup in seconds (wall time less
// its top-level tests' durations) and the files and top-level tests it
// ran.
type Run struct {
	Setup        float64
	Files, Tests int
}

// Model is a unit's setup as Start + PerFile × files + PerTest × tests, in
// seconds; Runs is how many records it was read from.
type Model struct {
	Start, PerFile, PerTest float64
	Runs                    int
}

// Cost is the model's setup for a run of files and tests.
func (m Model) Cost(files, tests int) float64 {
	return m.Start + m.PerFile*float64(files) + m.PerTest*float64(tests)
}

// MinFitRuns is how many runs a fit of all three terms needs; with fewer,
// Fit reads each run as a start (up to maxStart) and its rest shared by
// its files, and averages them.
const MinFitRuns = 3

// Fit returns the model of runs (those with no file are left out; ok is
// false when none is left). With at least MinFitRuns runs it is the least
// squares fit with every term at least 0 and Start at most maxStart (the
// best of the fits over each subset of the terms, a term left out being
// 0, or Start held at maxStart); with fewer, or where no subset can be
// solved, each run's start is its setup up to maxStart and the rest is
// shared by its files, averaged over the runs.
func Fit(runs []Run, maxStart float64) (Model, bool) {
	var rs []Run
	for _, r := range runs {
		if r.Files > 0 {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return Model{}, false
	}
	if len(rs) >= MinFitRuns {
		if m, ok := bounded(rs, maxStart); ok {
			m.Runs = len(rs)
			return m, true
		}
	}
	var m Model
	for _, r := range rs {
		s := min(max(r.Setup, 0), maxStart)
		m.Start += s
		m.PerFile += (max(r.Setup, 0) - s) / float64(r.Files)
	}
	n := float64(len(rs))
	return Model{Start: m.Start / n, PerFile: m.PerFile / n, Runs: len(rs)}, true
}

// bounded is the least squares fit under the bounds, found by trying
// every subset of the terms (three terms: few enough to enumerate, and
// the bounded optimum is the unbounded one of some subset).
func bounded(rs []Run, maxStart float64) (Model, bool) {
	best, bestRSS, found := Model{}, math.Inf(1), false
	for mask := 0; mask < 8; mask++ {
		for _, fixed := range []float64{math.NaN(), 0, maxStart} {
			free := mask&1 != 0
			if free != math.IsNaN(fixed) {
				continue // the start is either fitted or held
			}
			m, ok := solve(rs, mask, fixed)
			if !ok || m.Start < 0 || m.Start > maxStart || m.PerFile < 0 || m.PerTest < 0 {
				continue
			}
			if rss := residual(rs, m); rss < bestRSS-1e-12 {
				best, bestRSS, found = m, rss, true
			}
		}
	}
	return best, found
}

// solve fits the terms mask names (1 start, 2 per file, 4 per test) by
// least squares, the start held at fixed when mask leaves it out.
func solve(rs []Run, mask int, fixed float64) (Model, bool) {
	var cols []func(Run) float64
	if mask&1 != 0 {
		cols = append(cols, func(Run) float64 { return 1 })
	}
	if mask&2 != 0 {
		cols = append(cols, func(r Run) float64 { return float64(r.Files) })
	}
	if mask&4 != 0 {
		cols = append(cols, func(r Run) float64 { return float64(r.Tests) })
	}
	start := fixed
	if mask&1 != 0 {
		start = 0
	}
	n := len(cols)
	// The normal equations, n ≤ 3, solved by Gaussian elimination.
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
		for _, r := range rs {
			y := r.Setup
			if mask&1 == 0 {
				y -= fixed
			}
			for j := range n {
				a[i][j] += cols[i](r) * cols[j](r)
			}
			a[i][n] += cols[i](r) * y
		}
	}
	c, ok := eliminate(a)
	if !ok {
		return Model{}, false
	}
	m := Model{Start: start}
	k := 0
	for bit, dst := range []*float64{&m.Start, &m.PerFile, &m.PerTest} {
		if mask&(1<<bit) != 0 {
			*dst = c[k]
			k++
		}
	}
	return m, true
}

// eliminate solves the augmented system a; ok is false when it is
// singular (the runs cannot tell the terms apart).
func eliminate(a [][]float64) ([]float64, bool) {
	n := len(a)
	scale := 0.0
	for i := range n {
		scale = max(scale, math.Abs(a[i][i]))
	}
	for i := range n {
		p := i
		for r := i + 1; r < n; r++ {
			if math.Abs(a[r][i]) > math.Abs(a[p][i]) {
				p = r
			}
		}
		if math.Abs(a[p][i]) <= 1e-10*scale {
			return nil, false
		}
		a[i], a[p] = a[p], a[i]
		for r := range n {
			if r != i {
				f := a[r][i] / a[i][i]
				for j := i; j <= n; j++ {
					a[r][j] -= f * a[i][j]
				}
			}
		}
	}
	out := make([]float64, n)
	for i := range n {
		out[i] = a[i][n] / a[i][i]
	}
	return out, true
}

// residual is the sum of squared differences between the runs' setups
// and the model's.
func residual(rs []Run, m Model) float64 {
	var sum float64
	for _, r := range rs {
		d := r.Setup - m.Cost(r.Files, r.Tests)
		sum += d * d
	}
	return sum
}
