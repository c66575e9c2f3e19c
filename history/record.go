package history

import (
	"crypto/rand"
	"encoding/hex"
	"path"
	"time"

	"github.com/testdex/testdex"
)

// NewRunID returns a new run ID: the time t (UTC, to the second) and a
// random suffix, so that IDs sort by time and never collide across
// machines.
func NewRunID(t time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return t.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// Recorder is a run's handler (run.Handler) that keeps what the history
// records of it: each test's final results (pass, fail, skip: a test
// "unreported" or "unchanged" did not run) and each batch's costs.
// Suites are left out: their time is their tests'.
type Recorder struct {
	run      Run
	attempts map[attemptKey]Attempt
	order    []attemptKey
	batches  map[string]*batch
	names    []string // batches in the order they began
}

// batch is what a Recorder keeps of one batch: its results' parents and
// durations, and its wall time once it ended.
type batch struct {
	parent  map[string]string
	elapsed map[attemptKey]float64
	wall    float64
	ended   bool
}

// NewRecorder returns a Recorder for the run r (its ID, time, commit and
// profile).
func NewRecorder(r Run) *Recorder {
	return &Recorder{run: r, attempts: map[attemptKey]Attempt{}, batches: map[string]*batch{}}
}

// Event implements run.Handler.
func (r *Recorder) Event(e testdex.Event) error {
	if e.Batch == "" {
		return nil
	}
	b := r.batches[e.Batch]
	if b == nil {
		b = &batch{parent: map[string]string{}, elapsed: map[attemptKey]float64{}}
		r.batches[e.Batch] = b
		r.names = append(r.names, e.Batch)
	}
	var outcome string
	switch e.Action {
	case testdex.ActionPass:
		outcome = Pass
	case testdex.ActionFail:
		outcome = Fail
	case testdex.ActionSkip:
		outcome = Skip
	default:
		return nil
	}
	if e.ID == "" { // the batch's own end
		b.wall, b.ended = e.Elapsed, true
		return nil
	}
	if e.Kind == testdex.KindSuite {
		return nil
	}
	a := Attempt{Run: r.run.ID, ID: e.ID, Occurrence: e.Occurrence, Attempt: e.Attempt, Outcome: outcome, Duration: e.Elapsed}
	k := a.key()
	if _, ok := r.attempts[k]; !ok {
		r.order = append(r.order, k)
	}
	r.attempts[k] = a // a result reported again: the later one, as the Summary keeps it
	b.parent[e.ID], b.elapsed[k] = e.Parent, e.Elapsed
	return nil
}

// History returns the run's records: the run, its attempts, and a unit
// per batch that ended with its wall time.
func (r *Recorder) History() *History {
	h := &History{Version: Version, Runs: []Run{r.run}}
	for _, k := range r.order {
		h.Attempts = append(h.Attempts, r.attempts[k])
	}
	for _, name := range r.names {
		b := r.batches[name]
		if !b.ended {
			continue
		}
		u := Unit{Run: r.run.ID, Unit: name, Wall: b.wall}
		files, folders := map[string]bool{}, map[string]bool{}
		for k, d := range b.elapsed {
			if _, nested := b.parent[b.parent[k.id]]; !nested {
				u.Tests += d
				u.Count++
				file, _ := testdex.SplitID(k.id)
				files[file], folders[path.Dir(file)] = true, true
			}
		}
		u.Files, u.Folders = len(files), len(folders)
		u.Setup = max(0, u.Wall-u.Tests)
		h.Units = append(h.Units, u)
	}
	if len(h.Attempts)+len(h.Units) == 0 {
		h.Runs = nil
	}
	return h
}
