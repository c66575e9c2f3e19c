package run

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
)

// The exit codes of a run, for the CLI and the MCP server alike (seed 003's
// 0, 1, 2 and seed 004's 124 for a timeout, as timeout(1) uses it).
const (
	ExitPassed  = 0   // every test that ran passed or was skipped
	ExitFailed  = 1   // a test failed, or a batch failed without results
	ExitNoMatch = 2   // a named ID matched no test the runner reported
	ExitTimeout = 124 // the run hit its timeout
)

// Request is one run as `testdex run` and the MCP run_tests tool ask for
// it: the same selection rules, plan, failure store and exit code.
type Request struct {
	// IDs and Paths select as index.Resolve does; Paths are root-relative.
	IDs   []string
	Paths []string
	// Failed reruns the failures of the last run of the root (IDs and
	// Paths are then ignored).
	Failed bool
	// Changed runs only the test files under Paths whose fingerprint (the
	// files they depend on, by changes.Graph) differs from the one of
	// their last passing run; the others end "unchanged". Of such a file,
	// the tests whose recorded coverage vouches for them
	// (changes.Graph.Unaffected, against the baseline the last coverage
	// recording kept) end "unchanged" too, and the others run by ID. IDs
	// must be empty. The fingerprints of the files that pass are saved.
	Changed bool
	// Chosen says IDs are testdex's own choice (the tests a change
	// affects, a watch cycle's), not tests the user named. A chosen, a
	// failed (Failed) or a changed (Changed) selection runs no benchmark
	// unless Options.Bench asks, as a path never does: a benchmark runs
	// when named by ID or with --bench.
	Chosen bool
	// CacheDir keeps the failures per root; "" keeps none.
	CacheDir string
	Options  Options
	// Warn receives warnings (a failure no longer listed, a batch whose
	// coverage recorded nothing); nil drops them. Each is also an
	// ActionWarning event for the handler.
	Warn func(string)
}

// ErrOnlyBenchmarks is returned when the failures to rerun (Failed) are
// benchmarks alone, which run only with Options.Bench: the rerun would
// run nothing, which must not read as a pass (--failed --bench reruns
// them). A chosen or changed selection of benchmarks alone runs nothing
// and passes, with a warning, as go test ./... runs no benchmark.
var ErrOnlyBenchmarks = errors.New("nothing to run")

// ErrNoFailures is returned for Failed when the last run had none.
var ErrNoFailures = errors.New("no failures recorded")

// Session runs a request over ix: resolve, refuse tests whose real file
// lies outside the root, plan, run, and keep the failures for
// `testdex failures`, `run --failed` and last_test_failures. A selection
// that matches nothing is an *index.NoMatchError or *index.NoTestsError,
// for the caller to word with its hint. Warnings go to req.Warn and, as
// testdex.ActionWarning events, to h: before the batches' events for those
// known before the run, after them for the others.
func Session(ctx context.Context, ix *index.Index, req Request, h Handler) (*Summary, error) {
	w := &warner{warn: req.Warn, h: h, now: req.Options.withDefaults().Now}
	req.Warn = func(msg string) { w.say(nil, msg) }
	sum, err := session(ctx, ix, req, h, w)
	if err == nil {
		err = w.err
	}
	return sum, err
}

// session is Session with its warnings going through w.
func session(ctx context.Context, ix *index.Index, req Request, h Handler, w *warner) (*Summary, error) {
	ids, paths := req.IDs, req.Paths
	if req.Failed {
		var err error
		if ids, err = req.failedIDs(ix); err != nil {
			return nil, err
		}
		paths = nil
	}
	sel, err := ix.Resolve(ids, paths)
	if err != nil {
		return nil, err
	}
	if err := contained(ix.Root, sel); err != nil {
		return nil, err
	}
	var ch *changedRun
	if req.Changed {
		if ch, err = newChangedRun(ix, sel, req.CacheDir, req.Warn); err != nil {
			return nil, err
		}
		sel = ch.sel
	}
	if (req.Chosen || req.Failed || req.Changed) && !req.Options.Bench {
		var dropped int
		if sel.Tests, dropped = withoutBenchmarks(ix, sel.Tests); dropped > 0 && req.Warn != nil {
			req.Warn(fmt.Sprintf("%d benchmark(s) of the selection not run (--bench runs them)", dropped))
		}
		if req.Failed && dropped > 0 && len(sel.Tests)+len(sel.Paths) == 0 {
			return nil, fmt.Errorf("%w: the selection holds %d benchmark(s) and nothing else (--bench runs them)", ErrOnlyBenchmarks, dropped)
		}
	}
	plan := ix.Plan(sel)
	if ch != nil {
		plan.Unchanged, plan.UnchangedReason = ch.unchanged, "unchanged since its last passing run (it and everything it depends on, or all it executed when its coverage was recorded)"
	}
	var began time.Time
	var mans map[string]changes.Manifest // the test files' manifests as the run begins, for the coverage baselines
	if req.Options.Coverage {
		req.Options.cover, began = newCoverRun(plan, req.Options, w.say), req.Options.withDefaults().Now()
		if ch != nil {
			mans = ch.manifests
		} else if req.CacheDir != "" {
			mans = changes.Build(ix).Manifests(ix.Root)
		}
	}
	req.Options.cacheDir = req.CacheDir
	var mu sync.Mutex
	var notes []batchWarning // the batches' own, said after their events as the handler takes one event at a time
	req.Options.warn = func(b *index.Batch, msg string) {
		mu.Lock()
		defer mu.Unlock()
		notes = append(notes, batchWarning{b, msg})
	}
	sum, err := Run(ctx, ix, plan, req.Options, h)
	for _, n := range notes {
		w.say(n.b, n.msg)
	}
	if err != nil {
		return sum, err // a cancelled run keeps the saved failures of the last complete one
	}
	gaps, warns := req.Options.cover.gaps(plan, ix.Root, sum, began)
	for _, bw := range warns {
		w.say(bw.b, bw.msg)
	}
	if n, err := req.Options.cover.save(req.CacheDir, ix.Root, sum, began, gaps, req.Warn); err != nil {
		req.Warn(err.Error())
	} else {
		sum.Covered = n
	}
	var recorded []string
	if sum.Covered > 0 {
		recorded = req.Options.cover.recordedFiles()
	}
	if err := updateBaselines(req.CacheDir, ix.Root, recorded, mans, began, sum.Failures); err != nil {
		req.Warn(err.Error())
	}
	if ch != nil {
		if err := ch.save(sum); err != nil {
			req.Warn(err.Error())
		}
	}
	if req.CacheDir != "" {
		if err := SaveFailures(req.CacheDir, ix.Root, sum.Failures); err != nil {
			req.Warn(err.Error())
		}
	}
	return sum, nil
}

// ExitCode is the exit status of a finished run.
func ExitCode(sum *Summary) int {
	switch {
	case sum.TimedOut:
		return ExitTimeout
	case !sum.OK():
		return ExitFailed
	case len(sum.Unmatched)+len(sum.Lost) > 0:
		return ExitNoMatch
	}
	return ExitPassed
}

// failedIDs returns the last run's failures still named by the listing.
func (req Request) failedIDs(ix *index.Index) ([]string, error) {
	fs, err := LoadFailures(req.CacheDir, ix.Root, req.Warn)
	if err != nil {
		return nil, err
	}
	if len(fs) == 0 {
		return nil, fmt.Errorf("%w for %s (run the tests first)", ErrNoFailures, ix.Root)
	}
	n := ix.NewNamer()
	var ids []string
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.ID] {
			continue // another test reported under the same ID failed too: one rerun runs both
		}
		seen[f.ID] = true
		if _, ok := n.ForID(f.ID); !ok {
			if req.Warn != nil {
				req.Warn(fmt.Sprintf("%s failed last time but its file is no longer listed; not rerun", f.ID))
			}
			continue
		}
		ids = append(ids, f.ID)
	}
	if len(ids) == 0 {
		return nil, &index.NoMatchError{ID: fs[0].ID}
	}
	return ids, nil
}

// contained refuses a selection naming a test whose file's real path lies
// outside the root (a symlinked folder): testdex runs only the tree it was
// given.
func contained(root string, sel *index.Selection) error {
	check := func(rel string) error {
		var out *index.OutsideError
		if _, err := index.Contained(root, rel); errors.As(err, &out) {
			return fmt.Errorf("%w; testdex runs only the tree it was given", err)
		}
		return nil // a file gone since the listing: the runner will say so
	}
	for _, p := range sel.Paths {
		if err := check(p); err != nil {
			return err
		}
	}
	for _, t := range sel.Tests {
		if t.File != "" {
			if err := check(t.File); err != nil {
				return fmt.Errorf("test %s: %w", t.ID, err)
			}
		}
	}
	return nil
}

// withoutBenchmarks returns tests without the benchmarks and the records
// under one (sub-benchmarks), and how many it left out.
func withoutBenchmarks(ix *index.Index, tests []testdex.Test) ([]testdex.Test, int) {
	n := ix.NewNamer()
	kept := tests[:0:0]
	for _, t := range tests {
		if !underBenchmark(n, t) {
			kept = append(kept, t)
		}
	}
	return kept, len(tests) - len(kept)
}

// underBenchmark reports whether t is a benchmark or lies under one.
func underBenchmark(n *index.Namer, t testdex.Test) bool {
	for range 64 { // deeper than any listing nests
		if t.Kind == testdex.KindBenchmark {
			return true
		}
		p, ok := n.ForID(t.Parent)
		if t.Parent == "" || !ok {
			return false
		}
		t = p
	}
	return false
}

// warner gives a run's warnings to Request.Warn and, as
// testdex.ActionWarning events, to the handler; the first error of the
// handler is kept for Session to return.
type warner struct {
	warn func(string)
	h    Handler
	now  func() time.Time
	err  error
}

// say gives one warning, about batch b when b is not nil.
func (w *warner) say(b *index.Batch, msg string) {
	if w.warn != nil {
		w.warn(msg)
	}
	if w.h == nil || w.err != nil {
		return
	}
	e := testdex.Event{Time: w.now(), Action: testdex.ActionWarning, Message: msg}
	if b != nil {
		e.Framework, e.Batch = b.Setup.Framework, b.Name
	}
	w.err = w.h.Event(e)
}
