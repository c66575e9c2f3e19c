package run

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/plan"
)

// The whole-run timeout: the default, and the largest accepted (as seed
// 004's run_tests tool clamps it).
const (
	DefaultTimeout = 300 * time.Second
	MaxTimeout     = 1800 * time.Second
)

// Options configure a run. The zero value runs with the defaults.
type Options struct {
	// Extra are arguments for the native runners (after "--").
	Extra []string
	// Timeout bounds the whole run; 0 means DefaultTimeout. Callers
	// validate it against MaxTimeout (Run clamps it).
	Timeout time.Duration
	// TestTimeout is a per-test limit where the framework has one.
	TestTimeout time.Duration
	// Jobs is the number of batches run at once; <= 0 means 1.
	Jobs int
	// Predict, when set, is each batch's predicted time: the batches
	// start longest first (ties in plan order), so the longest known ones
	// do not start last; their events are delivered in plan order still.
	Predict func(b *plan.Batch) time.Duration
	// Env is the children's environment; nil means an empty one (no PATH:
	// callers pass os.Environ()). Nothing is added to it.
	Env []string
	// Cap limits each captured output stream; 0 means proc.DefaultCap.
	Cap int
	// Bench also runs the benchmarks under the selected paths (Go).
	Bench bool
	// Planned, when set, is told once, before anything runs, how many
	// tests the plan expects (listed leaf tests of the selection; the
	// runners may report more or fewer).
	Planned func(tests int)
	// Live, when set, receives every event as soon as it happens, from
	// several goroutines one at a time, in no stable order (a progress
	// line).
	Live func(testdex.Event)
	// Raw, when set, receives each line the native runners write on
	// their standard output (go test -json's events, a JUnit runner's
	// console), without its newline, with the batch's name: the stream
	// testdex parsed, for a front end that keeps it. It is called from
	// several goroutines at once; the line is valid during the call.
	Raw func(batch string, line []byte)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Coverage records what each test executes, through the runners that
	// can (lang.Coverer), into the root's coverage index under CacheDir
	// (package coverage reads it); Summary.Covered counts the tests
	// recorded.
	Coverage bool
	// CacheDir is the folder of the per-root stores: the coverage index,
	// the runners' stored results (a spec's verdicts); "" keeps none.
	CacheDir string
	// Warn receives warnings about a batch (b) or the run (b nil): that a
	// batch cannot record coverage (before any event), the runners' notes
	// (after every event), coverage that recorded nothing. It is called
	// from Run's own goroutine, one at a time; nil drops them.
	Warn func(b *plan.Batch, msg string)

	// Attempt numbers the run among the attempts of its tests: 0 for the
	// first, 1 and on for a rerun of the failures (testdex.Event.Attempt,
	// set on every event).
	Attempt int

	// Repeat, Fresh, Output and Strict are for the runners that judge
	// (markdown specs through an agent CLI; see lang.RunOptions): judge
	// each scenario Repeat times and report its agreement; reuse no
	// stored verdict; write the runner's report files (the raw agent
	// answers) under Output; fail specs with validation findings.
	Repeat int
	Fresh  bool
	Output string
	Strict bool

	cover *coverRun // set by Run when Coverage is
	// note receives a batch's notes from its goroutine; Run gives them to
	// Warn once the events are delivered.
	note func(b *plan.Batch, msg string)
}

// Handler receives a run's events in a stable order: the records testdex
// cannot run, then batch by batch in plan order, each batch's events in
// the order they happened.
type Handler interface {
	Event(e testdex.Event) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(testdex.Event) error

// Event calls f.
func (f HandlerFunc) Event(e testdex.Event) error { return f(e) }

// Run runs a plan whose batches are bound (made by index, or plan.Bind)
// and returns the outcome, which is the Summary of the events h received.
// Per-test failures, batch errors, timeouts and missing toolchains are
// part of the Summary. The error is non-nil for an unbound batch or a
// handler that fails (nil Summary) or a context the caller cancelled (the
// Summary of what ran). Run returns only when every child has ended.
func Run(ctx context.Context, p *plan.Plan, o Options, h Handler) (*Summary, error) {
	for _, b := range p.Batches {
		if b.Project == nil || b.Setup == nil || b.Setup.Runner == nil {
			return nil, fmt.Errorf("plan batch %s has no runner (bind the plan first)", b.Name)
		}
	}
	o = o.withDefaults()
	var began time.Time
	if o.Coverage {
		o.cover, began = newCoverRun(p, o, o.Warn), o.Now()
	}
	var mu sync.Mutex
	var notes []batchWarning
	o.note = func(b *plan.Batch, msg string) {
		mu.Lock()
		defer mu.Unlock()
		notes = append(notes, batchWarning{b, msg})
	}
	sum, err := runPlan(ctx, p, o, h)
	for _, n := range notes {
		o.Warn(n.b, n.msg)
	}
	if sum == nil || err != nil {
		return sum, err // a cancelled run records no coverage
	}
	gaps, warns := o.cover.gaps(p, p.Listing.Root, sum, began)
	for _, bw := range warns {
		o.Warn(bw.b, bw.msg)
	}
	if n, err := o.cover.save(o.CacheDir, p.Listing.Root, sum, began, gaps, func(msg string) { o.Warn(nil, msg) }); err != nil {
		o.Warn(nil, err.Error())
	} else {
		sum.Covered = n
	}
	if sum.Covered > 0 {
		sum.Recorded, sum.RecordedAt = o.cover.recordedFiles(), began
	}
	return sum, nil
}

// runPlan runs the batches and delivers their events.
func runPlan(ctx context.Context, p *plan.Plan, o Options, h Handler) (*Summary, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	names := plan.NewNamer(p.Listing)
	if o.Planned != nil {
		o.Planned(p.Leaves())
	}
	outs := make([]*batchOutput, len(p.Batches))
	for i := range outs {
		outs[i] = &batchOutput{ready: make(chan struct{})}
	}
	var g errgroup.Group
	g.SetLimit(o.Jobs) // each batch is a native runner using the machine's cores itself
	go func() {
		for _, i := range startOrder(p.Batches, o.Predict) {
			b := p.Batches[i]
			g.Go(func() error {
				defer close(outs[i].ready)
				runBatch(ctx, b, o, names, outs[i])
				return nil
			})
		}
	}()
	sum := NewSummary()
	herr := deliver(MultiHandler(sum, h), o, p, outs)
	if herr != nil {
		cancel() // stop the batches, then wait for them: nothing outlives Run
	}
	for _, out := range outs {
		<-out.ready
	}
	if herr != nil {
		return nil, herr
	}
	sum.Finish()
	sum.Unmatched, sum.Lost = unmatched(p, sum)
	if err := parent.Err(); err != nil {
		return sum, err
	}
	return sum, nil
}

// startOrder is the order the batches start in: longest predicted first
// when predict is set, ties (and everything without it) in plan order.
func startOrder(batches []*plan.Batch, predict func(*plan.Batch) time.Duration) []int {
	order := make([]int, len(batches))
	cost := make([]time.Duration, len(batches))
	for i, b := range batches {
		order[i] = i
		if predict != nil {
			cost[i] = predict(b)
		}
	}
	sort.SliceStable(order, func(x, y int) bool { return cost[order[x]] > cost[order[y]] })
	return order
}

// MultiHandler delivers each event to every handler in turn, stopping at
// the first error.
func MultiHandler(hs ...Handler) Handler {
	return HandlerFunc(func(e testdex.Event) error {
		for _, h := range hs {
			if err := h.Event(e); err != nil {
				return err
			}
		}
		return nil
	})
}

// unmatched lists the IDs the plan named that nothing answered: neither
// the test nor one under it was reported, and its batch did not fail.
// Those the listing holds (lost) are apart from those it made by the ID
// rules alone (unmatched): a listed ID is right, its result went missing.
func unmatched(p *plan.Plan, sum *Summary) (unmatched, lost []string) {
	failed := map[string]bool{}
	for _, e := range sum.Errors {
		failed[e.Batch] = true
	}
	reported := func(e testdex.Event) bool { return e.Action != testdex.ActionUnreported }
	up := map[string]string{} // the listing's links, where the runner reports no level
	for _, b := range p.Batches {
		for _, t := range b.Expected {
			if t.Parent != "" {
				up[t.ID] = t.Parent
			}
		}
	}
	under := sum.ancestorsOf(reported, up)
	for _, b := range p.Batches {
		if failed[b.Name] {
			continue
		}
		for _, t := range b.Selection.Tests {
			if e, ok := sum.Outcome(t.ID); (!ok || !reported(e)) && !under[t.ID] {
				if len(t.Seen) == 1 && t.Seen[0] == "runtime" {
					unmatched = append(unmatched, t.ID)
				} else {
					lost = append(lost, t.ID)
				}
			}
		}
	}
	return unmatched, lost
}

// deliver hands the events to h: the unrunnable records first, then each
// batch's events in plan order, as each batch finishes.
func deliver(h Handler, o Options, p *plan.Plan, outs []*batchOutput) error {
	for _, t := range p.Unchanged {
		e := testdex.Event{Time: o.Now(), Action: testdex.ActionUnchanged, ID: t.ID, Framework: t.Framework,
			Scope: t.Scope, Name: t.Name, Kind: t.Kind, Parent: t.Parent, Message: p.UnchangedReason}
		if err := h.Event(e); err != nil {
			return err
		}
	}
	for _, t := range p.Unrunnable {
		e := testdex.Event{Time: o.Now(), Action: testdex.ActionUnreported, ID: t.ID, Framework: t.Framework,
			Scope: t.Scope, Name: t.Name, Kind: t.Kind, Message: fmt.Sprintf("testdex cannot run %s tests yet", t.Framework)}
		if err := h.Event(e); err != nil {
			return err
		}
	}
	for _, out := range outs {
		<-out.ready
		for _, e := range out.events {
			if err := h.Event(e); err != nil {
				return err
			}
		}
	}
	return nil
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Timeout > MaxTimeout {
		o.Timeout = MaxTimeout
	}
	if o.Jobs <= 0 {
		o.Jobs = 1
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Warn == nil {
		o.Warn = func(*plan.Batch, string) {}
	}
	if live := o.Live; live != nil { // one at a time across batches, as documented
		var mu sync.Mutex
		o.Live = func(e testdex.Event) {
			mu.Lock()
			defer mu.Unlock()
			live(e)
		}
	}
	return o
}

// batchOutput collects one batch's events until the handler takes them.
type batchOutput struct {
	mu     sync.Mutex
	events []testdex.Event
	ready  chan struct{}
}

func (b *batchOutput) add(e testdex.Event) {
	b.mu.Lock()
	b.events = append(b.events, e)
	b.mu.Unlock()
}
