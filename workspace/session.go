package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// session runs a request over ix: resolve, refuse tests whose real file
// lies outside the root, plan, run, and keep the failures for
// `testdex failures`, `run --failed` and last_test_failures. A selection
// that matches nothing is an *index.NoMatchError or *index.NoTestsError,
// for the caller to word with its hint. Warnings go to req.Warn and, as
// testdex.ActionWarning events, to h: before the batches' events for those
// known before the run, after them for the others. A given plan (p not
// nil) runs instead of the request's selection.
func session(ctx context.Context, ix *index.Index, p *plan.Plan, req run.Request, h run.Handler) (*run.Summary, error) {
	w := &warner{warn: req.Warn, h: h, now: req.Options.Now}
	if w.now == nil {
		w.now = time.Now
	}
	req.Warn = func(msg string) { w.say(nil, msg) }
	var ch *changedRun
	var err error
	if p == nil {
		p, ch, err = planRequest(ix, req)
	}
	var sum *run.Summary
	if err == nil {
		sum, err = execute(ctx, ix, p, ch, req, h, w)
	}
	if err == nil {
		err = w.err
	}
	return sum, err
}

// execute runs a plan of ix with its warnings going through w, and keeps
// what the run leaves: coverage baselines, passing state (ch, for
// `run --changed`), failures.
func execute(ctx context.Context, ix *index.Index, p *plan.Plan, ch *changedRun, req run.Request, h run.Handler, w *warner) (*run.Summary, error) {
	var mans map[string]changes.Manifest // the test files' manifests as the run begins, for the coverage baselines
	if req.Options.Coverage {
		if ch != nil {
			mans = ch.manifests
		} else if req.CacheDir != "" {
			mans = changes.Build(ix).Manifests(ix.Root)
		}
	}
	req.Options.CacheDir, req.Options.Warn = req.CacheDir, w.say
	rec := newHistoryRun(ctx, ix.Root, req)
	if rec != nil {
		h = run.MultiHandler(handlerOrNone(h), rec)
	}
	sum, err := run.Run(ctx, p, req.Options, h)
	if err == nil && req.Options.Repeat > 1 {
		err = repeat(ctx, ix, p, sum, req, h, w)
	}
	if err == nil && req.Retries > 0 {
		err = retry(ctx, ix, sum, req, h, w)
	}
	if err != nil {
		return sum, err // a cancelled run keeps the saved failures of the last complete one
	}
	if rec != nil && req.Options.Coverage {
		if past, err := history.Load(historyFile(req.CacheDir, ix.Root, req.History)); err == nil {
			for _, msg := range coverageCost(past, rec.History()) {
				req.Warn(msg)
			}
		}
	}
	if rec != nil {
		if err := history.Append(historyFile(req.CacheDir, ix.Root, req.History), rec.History(), req.Warn); err != nil {
			req.Warn(err.Error())
		}
	}
	(&Workspace{Root: ix.Root, CacheDir: req.CacheDir}).applyQuarantine(sum, req, w.now(), req.Warn)
	if err := updateBaselines(req.CacheDir, ix.Root, sum.Recorded, mans, sum.RecordedAt, sum.Failures); err != nil {
		req.Warn(err.Error())
	}
	if ch != nil {
		if err := ch.save(sum); err != nil {
			req.Warn(err.Error())
		}
	}
	if req.CacheDir != "" {
		if err := run.SaveFailures(req.CacheDir, ix.Root, slices.Concat(sum.Failures, sum.Quarantined, sum.Flakes)); err != nil {
			req.Warn(err.Error())
		}
	}
	return sum, nil
}

// planRequest resolves a request over ix into the plan that runs it (and,
// for Changed, the state of `run --changed`).
func planRequest(ix *index.Index, req run.Request) (*plan.Plan, *changedRun, error) {
	ids, paths := req.IDs, req.Paths
	if req.Failed {
		var err error
		if ids, err = failedIDs(ix, req); err != nil {
			return nil, nil, err
		}
		paths = nil
	}
	sel, err := ix.Resolve(ids, paths)
	if err != nil {
		return nil, nil, err
	}
	if err := contained(ix.Root, sel); err != nil {
		return nil, nil, err
	}
	warnProblems(ix, sel, req.Warn)
	var ch *changedRun
	if req.Changed {
		if ch, err = newChangedRun(ix, sel, req.CacheDir, req.Warn); err != nil {
			return nil, nil, err
		}
		within := sel.Paths
		sel = ch.sel
		sel.Within = within // the changed tests narrow the run of the paths given
	}
	if req.Chosen {
		sel.Within = []string{"."} // the tests a change affects narrow the whole root's run
	}
	if (req.Chosen || req.Failed || req.Changed) && !req.Options.Bench {
		var dropped int
		if sel.Tests, dropped = withoutBenchmarks(ix, sel.Tests); dropped > 0 && req.Warn != nil {
			req.Warn(fmt.Sprintf("%d benchmark(s) of the selection not run (--bench runs them)", dropped))
		}
		if req.Failed && dropped > 0 && len(sel.Tests)+len(sel.Paths) == 0 {
			return nil, nil, fmt.Errorf("%w: the selection holds %d benchmark(s) and nothing else (--bench runs them)", run.ErrOnlyBenchmarks, dropped)
		}
	}
	p := ix.Plan(sel)
	if ch != nil {
		p.Unchanged, p.UnchangedReason = ch.unchanged, "unchanged since its last passing run (it and everything it depends on, or all it executed when its coverage was recorded)"
	}
	return p, ch, nil
}

// warnProblems gives a run the listing's problems of the files under the
// paths it selects: a file whose tests the listing cannot see (a Rust
// file no target compiles, one that does not parse) otherwise runs none
// in silence. A whole-root run gets one line: how many, and the first.
func warnProblems(ix *index.Index, sel *index.Selection, warn func(string)) {
	if warn == nil || len(ix.Problems) == 0 {
		return
	}
	say := func(pr testdex.Problem) string {
		return strings.TrimPrefix(pr.String(), string(testdex.SevWarning)+": ")
	}
	if slices.Contains(sel.Paths, ".") {
		warn(fmt.Sprintf("the listing has %d problem(s), the first: %s (the listing shows them all)", len(ix.Problems), say(ix.Problems[0])))
		return
	}
	for _, pr := range ix.Problems {
		for _, p := range sel.Paths {
			if pr.Path == p || strings.HasPrefix(pr.Path, p+"/") {
				warn(say(pr))
				break
			}
		}
	}
}

// failedIDs returns the last run's failures still named by the listing.
func failedIDs(ix *index.Index, req run.Request) ([]string, error) {
	all, err := run.LoadFailures(req.CacheDir, ix.Root, req.Warn)
	if err != nil {
		return nil, err
	}
	fs := slices.DeleteFunc(all, func(f run.Failure) bool { return f.Flaky }) // passed on a rerun: no failure to rerun
	if len(fs) == 0 {
		return nil, fmt.Errorf("%w for %s (run the tests first)", run.ErrNoFailures, ix.Root)
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
func underBenchmark(n *plan.Namer, t testdex.Test) bool {
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
	h    run.Handler
	now  func() time.Time
	err  error
}

// say gives one warning, about batch b when b is not nil.
func (w *warner) say(b *plan.Batch, msg string) {
	if w.warn != nil {
		w.warn(msg)
	}
	if w.h == nil || w.err != nil {
		return
	}
	e := testdex.Event{Time: w.now(), Action: testdex.ActionWarning, Message: msg}
	if b != nil {
		e.Framework, e.Batch = b.Framework, b.Name
	}
	w.err = w.h.Event(e)
}

// retry reruns the failed tests of sum alone, by ID, in new processes, up
// to req.Retries times while some still fail (gotestsum's --rerun-fails,
// with one meaning for every framework). The reruns' events, Attempt 1
// and on, go to sum and h; a result that failed at first and passes on a
// rerun ends with a flaky event (Message: its first failure's). A rerun
// that does not reach a test (a batch that fails to build) leaves its
// failure as it was. No rerun after a timeout or for a batch error alone:
// those are no test's failures.
func retry(ctx context.Context, ix *index.Index, sum *run.Summary, req run.Request, h run.Handler, w *warner) error {
	type key struct {
		id  string
		occ int
	}
	first := map[key]testdex.Event{}
	for _, e := range sum.Results() {
		if e.Action == testdex.ActionFail {
			first[key{e.ID, e.Occurrence}] = e
		}
	}
	n := ix.NewNamer()
	base := 0 // the last attempt so far (run --repeat's): the reruns number on from it
	for _, e := range sum.Results() {
		base = max(base, e.Attempt)
	}
	for attempt := base + 1; attempt <= base+req.Retries && !sum.TimedOut && ctx.Err() == nil; attempt++ {
		var ids []string
		seen := map[string]bool{}
		for _, f := range sum.Failures {
			if !seen[f.ID] {
				seen[f.ID] = true
				ids = append(ids, f.ID)
			}
		}
		if len(ids) == 0 {
			return nil
		}
		sel, err := ix.Resolve(ids, nil)
		if err != nil {
			w.say(nil, fmt.Sprintf("the failures were not rerun: %v", err))
			return nil
		}
		o := req.Options
		o.Attempt, o.Coverage, o.Planned = attempt, false, nil
		both := rerunOnly(n, seen, run.MultiHandler(sum, h))
		if _, err := run.Run(ctx, ix.Plan(sel), o, both); err != nil {
			return err
		}
		for _, e := range sum.Results() {
			f, failed := first[key{e.ID, e.Occurrence}]
			if !failed || e.Action != testdex.ActionPass || e.Attempt != attempt {
				continue
			}
			fl := testdex.Event{Time: w.now(), Action: testdex.ActionFlaky, ID: e.ID, Occurrence: e.Occurrence, Attempt: attempt,
				Framework: e.Framework, Batch: e.Batch, Kind: e.Kind, Parent: e.Parent, Elapsed: e.Elapsed,
				File: f.File, Line: f.Line, Message: f.Message}
			if err := both.Event(fl); err != nil {
				return err
			}
		}
		sum.Finish()
	}
	return nil
}

// rerunOnly passes a rerun's events on to h but for the skips of tests it
// did not select: a runner that filters by name (Jest's -t, node --test's
// name pattern) reports the other tests of a file as skipped, and they
// did not run again. A test is selected when its ID, or an ancestor's,
// is among ids.
func rerunOnly(n *plan.Namer, ids map[string]bool, h run.Handler) run.Handler {
	selected := func(id, parent string) bool {
		for range 64 { // deeper than any listing nests
			if ids[id] {
				return true
			}
			if parent == "" {
				return false
			}
			id = parent
			t, ok := n.ForID(id)
			if !ok {
				return ids[id]
			}
			parent = t.Parent
		}
		return false
	}
	return run.HandlerFunc(func(e testdex.Event) error {
		if e.ID != "" && e.Action == testdex.ActionSkip && !selected(e.ID, e.Parent) {
			return nil
		}
		return h.Event(e)
	})
}
