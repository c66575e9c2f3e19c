package plan

import (
	"path"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/costfit"
)

// Recorded are Durations read from runs' events (`testdex run --json`
// streams, one or several: the shards' of one run, fed to Event one at a
// time): each test's elapsed time (summed over the times one ID ran), and
// each batch's setup, taken as its wall time less the elapsed times of
// its outermost reported tests (those whose parent reported no result of
// its own: a Go test, not its subtests; a pytest row, whose function
// reports none) (never below zero; a batch running its tests in parallel
// shows less setup than it has), the mean over the times the batch ran
// (once per shard that touched it). Recorded is a FileDurations: each
// run of a batch also counts the files its outermost tests belong to.
type Recorded struct {
	tests   map[string]time.Duration
	results map[string][]result // of the batch's current run
	setups  map[string][]time.Duration
	files   map[string][]int // per run of setups, its files
	folders map[string][]int // and its files' folders
	counts  map[string][]int // and its outermost tests
}

// result is one test's final result in a batch's run.
type result struct {
	id, parent string
	d          time.Duration
}

// NewRecorded returns an empty Recorded.
func NewRecorded() *Recorded {
	return &Recorded{tests: map[string]time.Duration{}, results: map[string][]result{}, setups: map[string][]time.Duration{},
		files: map[string][]int{}, folders: map[string][]int{}, counts: map[string][]int{}}
}

// Event takes one event of a run: a batch's start, a test's final
// result, or a batch's.
func (r *Recorded) Event(e testdex.Event) error {
	d := time.Duration(e.Elapsed * float64(time.Second))
	switch {
	case e.Action == testdex.ActionStart && e.ID == "":
		r.results[e.Batch] = nil
	case e.Action != testdex.ActionPass && e.Action != testdex.ActionFail && e.Action != testdex.ActionSkip:
	case e.ID == "" && e.Batch != "" && e.Action != testdex.ActionSkip:
		tests, count, files, folders := r.outermost(e.Batch)
		r.setups[e.Batch] = append(r.setups[e.Batch], max(d-tests, 0))
		r.counts[e.Batch] = append(r.counts[e.Batch], count)
		r.files[e.Batch] = append(r.files[e.Batch], files)
		r.folders[e.Batch] = append(r.folders[e.Batch], folders)
		r.results[e.Batch] = nil
	case e.ID != "":
		r.tests[e.ID] += d
		r.results[e.Batch] = append(r.results[e.Batch], result{e.ID, e.Parent, d})
	}
	return nil
}

// outermost is the time and number of a batch's outermost reported tests
// (those whose parent reported no result in the run: their time holds
// their children's) and the numbers of files and folders they belong to.
func (r *Recorded) outermost(batch string) (time.Duration, int, int, int) {
	reported := map[string]bool{}
	for _, res := range r.results[batch] {
		reported[res.id] = true
	}
	var sum time.Duration
	count := 0
	files, folders := map[string]bool{}, map[string]bool{}
	for _, res := range r.results[batch] {
		if res.parent == "" || !reported[res.parent] {
			sum += res.d
			count++
			file, _ := testdex.SplitID(res.id)
			files[file], folders[path.Dir(file)] = true, true
		}
	}
	return sum, count, len(files), len(folders)
}

// Len is the number of tests with a recorded duration.
func (r *Recorded) Len() int { return len(r.tests) }

// Test returns a test's recorded duration.
func (r *Recorded) Test(id string) (time.Duration, bool) {
	d, ok := r.tests[id]
	return d, ok
}

// Setup returns a batch's setup: the mean over its runs of its wall time
// less its top-level tests'.
func (r *Recorded) Setup(unit string) (time.Duration, bool) {
	runs := r.setups[unit]
	if len(runs) == 0 {
		return 0, false
	}
	var sum time.Duration
	for _, d := range runs {
		sum += d
	}
	return sum / time.Duration(len(runs)), true
}

// SetupFiles returns a batch's setup as a start (at most DefaultSetup), a
// cost per file and one per top-level test, fitted to its runs
// (costfit.Fit: with fewer than three, each run's setup up to
// DefaultSetup is its start and the rest is shared by its files). A shard
// that ran a few of a batch's files and a run of them all then price a
// file and a test alike.
func (r *Recorded) SetupFiles(unit string) (SetupCost, bool) {
	runs := make([]costfit.Run, len(r.setups[unit]))
	for i, d := range r.setups[unit] {
		runs[i] = costfit.Run{Setup: d.Seconds(), Files: r.files[unit][i], Tests: r.counts[unit][i]}
	}
	m, ok := costfit.Fit(runs, DefaultSetup.Seconds())
	return setupCost(m), ok
}

// SetupPerFolder returns a batch's setup per folder its tests belong
// to: the mean over its runs of each run's setup over its folders.
func (r *Recorded) SetupPerFolder(batch string) (time.Duration, bool) {
	var sum time.Duration
	n := 0
	for i, d := range r.setups[batch] {
		if f := r.folders[batch][i]; f > 0 {
			sum += d / time.Duration(f)
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / time.Duration(n), true
}

// Predict returns a batch's predicted time with d: its setup and the
// predicted durations of its selected records (as Split prices them).
func Predict(b *Batch, d Durations) time.Duration {
	if d == nil {
		d = noDurations{}
	}
	in := newBatchInfo(b, d)
	return in.setup + in.wholeItem(0).cost
}
