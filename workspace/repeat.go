package workspace

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/languages"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// repeat runs the tests of p's first run (sum) again, in new processes,
// as attempts 1 to req.Options.Repeat-1, to catch a flaky test before it
// is merged: a test that passed in one attempt and failed in another
// ends flaky (testdex.ActionFlaky, Message its first failure's), one
// that failed every time stays failed. The batches of a framework that
// repeats its tests itself (lang.Framework.Repeats: a spec judged K
// times) are not run again. Without a budget every attempt runs the
// whole plan; with req.RepeatBudget, each attempt runs by ID the tests
// that the time left holds, shortest first (by their durations in the
// first run), so the short tests repeat most, and none starts past it.
// The repeats stop at a timeout, a cancellation, or an attempt that ran
// nothing.
func repeat(ctx context.Context, ix *index.Index, p *plan.Plan, sum *run.Summary, req run.Request, h run.Handler, w *warner) error {
	type key struct {
		id  string
		occ int
	}
	passed, failed := map[key]bool{}, map[key]testdex.Event{}
	var ids []string
	dur := map[string]float64{}
	for _, e := range sum.Results() {
		k := key{e.ID, e.Occurrence}
		switch e.Action {
		case testdex.ActionPass:
			passed[k] = true
		case testdex.ActionFail:
			failed[k] = e
		default:
			continue
		}
		if !repeatsItself(e.Framework) && dur[e.ID] == 0 {
			ids = append(ids, e.ID)
		}
		dur[e.ID] = max(dur[e.ID], e.Elapsed, 1e-6)
	}
	if len(ids) == 0 {
		return nil
	}
	slices.SortStableFunc(ids, func(a, b string) int { return cmpFloat(dur[a], dur[b]) })
	tally := run.HandlerFunc(func(e testdex.Event) error {
		k := key{e.ID, e.Occurrence}
		switch {
		case e.ID == "":
		case e.Action == testdex.ActionPass:
			passed[k] = true
		case e.Action == testdex.ActionFail && failed[k].Action == "":
			failed[k] = e
		}
		return nil
	})
	start := w.now()
	scale := repeatScale(sum, dur) // wall-clock seconds a second of test time costs
	both := run.MultiHandler(sum, handlerOrNone(h))
	last := 0
	for attempt := 1; attempt < req.Options.Repeat && !sum.TimedOut && ctx.Err() == nil; attempt++ {
		var left time.Duration // 0: no budget
		if req.RepeatBudget > 0 {
			if left = req.RepeatBudget - w.now().Sub(start); left <= 0 {
				break
			}
		}
		rp, n := repeatPlan(ix, p, ids, dur, scale, left)
		if n == 0 {
			break
		}
		o := req.Options
		o.Attempt, o.Coverage, o.Planned = attempt, false, nil
		if _, err := run.Run(ctx, rp, o, run.MultiHandler(rerunOnly(ix.NewNamer(), setOf(ids[:n]), both), tally)); err != nil {
			return err
		}
		last = attempt
	}
	if last > 0 {
		w.say(nil, fmt.Sprintf("the tests ran %d more time(s) (--repeat %d)", last, req.Options.Repeat))
	}
	for _, e := range sum.Results() {
		f, ok := failed[key{e.ID, e.Occurrence}]
		if !ok || !passed[key{e.ID, e.Occurrence}] || e.Action == testdex.ActionFlaky {
			continue
		}
		fl := testdex.Event{Time: w.now(), Action: testdex.ActionFlaky, ID: e.ID, Occurrence: e.Occurrence, Attempt: e.Attempt,
			Framework: e.Framework, Batch: e.Batch, Kind: e.Kind, Parent: e.Parent, Elapsed: e.Elapsed,
			File: f.File, Line: f.Line, Message: f.Message}
		if err := both.Event(fl); err != nil {
			return err
		}
	}
	sum.Finish()
	return nil
}

// repeatPlan is the plan of one repeat: the first n of ids (sorted
// shortest first) whose predicted time, dur × scale, the time left holds
// (left 0: all of them). All of them run as p's batches less those of the
// frameworks that repeat themselves; fewer, by ID. n is how many tests it
// runs (0: none fits).
func repeatPlan(ix *index.Index, p *plan.Plan, ids []string, dur map[string]float64, scale float64, left time.Duration) (*plan.Plan, int) {
	n, spent := 0, 0.0
	for n < len(ids) && (left == 0 || spent+dur[ids[n]]*scale <= left.Seconds()) {
		spent += dur[ids[n]] * scale
		n++
	}
	if n == 0 {
		return nil, 0
	}
	sel, err := ix.Resolve(ids[:n], nil)
	if err != nil {
		return nil, 0
	}
	if n == len(ids) && len(p.Batches) > 0 { // the whole first run, as it ran: its batches less the self-repeating ones
		cp := *p
		cp.Batches = slices.DeleteFunc(slices.Clone(p.Batches), func(b *plan.Batch) bool { return repeatsItself(b.Framework) })
		if len(cp.Batches) > 0 {
			return &cp, n
		}
	}
	return ix.Plan(sel), n
}

// repeatScale is how many seconds of the first run's wall clock a second
// of its tests' own durations cost (at least 1): the start of each
// process, the build, the collection.
func repeatScale(sum *run.Summary, dur map[string]float64) float64 {
	var total float64
	for _, d := range dur {
		total += d
	}
	wall := sum.End.Sub(sum.Start).Seconds()
	if total <= 0 || wall <= total {
		return 1
	}
	return wall / total
}

// repeatsItself reports whether the framework repeats its tests itself
// when asked (lang.Framework.Repeats).
func repeatsItself(fw testdex.Framework) bool { return languages.Framework(fw).Repeats }

// setOf is the set of ids.
func setOf(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
