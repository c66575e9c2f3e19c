package run

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
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
	// Timeout bounds the whole run; 0 means DefaultTimeout, and it is
	// clamped to MaxTimeout.
	Timeout time.Duration
	// TestTimeout is a per-test limit where the framework has one.
	TestTimeout time.Duration
	// Jobs is the number of batches run at once; <= 0 means 1.
	Jobs int
	// Env is the children's environment; nil means an empty one (no PATH:
	// callers pass os.Environ()).
	Env []string
	// Cap limits each captured output stream; 0 means proc.DefaultCap.
	Cap int
	// Live, when set, receives every event as soon as it happens, from
	// several goroutines one at a time, in no stable order (a progress
	// line).
	Live func(testdex.Event)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Handler receives a run's events in a stable order: batch by batch, in
// plan order, each batch's events in the order they happened.
type Handler interface {
	Event(e testdex.Event) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(testdex.Event) error

// Event calls f.
func (f HandlerFunc) Event(e testdex.Event) error { return f(e) }

// Run runs the selected records and returns the outcome. Per-test
// failures, timeouts and missing toolchains are part of the Summary. The
// error is non-nil for a handler that fails (nil Summary) or a context the
// caller cancelled (the Summary of what ran, its unfinished tests failed
// as "not finished"). Run returns only when every child has ended.
func Run(ctx context.Context, ix *index.Index, selected []testdex.Test, o Options, h Handler) (*Summary, error) {
	o = o.withDefaults()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	batches, unrunnable := ix.Plan(selected)
	sum := newSummary(o.Timeout)
	names := newNamer(ix)
	outs := make([]*batchOutput, len(batches))
	for i := range outs {
		outs[i] = &batchOutput{ready: make(chan struct{})}
	}
	var g errgroup.Group
	g.SetLimit(o.Jobs) // each batch is a native runner using the machine's cores itself
	go func() {
		for i, b := range batches {
			g.Go(func() error {
				defer close(outs[i].ready)
				runBatch(ctx, b, o, names, outs[i], sum)
				return nil
			})
		}
	}()
	herr := deliver(h, o, unrunnable, outs, sum)
	if herr != nil {
		cancel() // stop the batches, then wait for them: nothing outlives Run
	}
	for _, out := range outs {
		<-out.ready
	}
	if herr != nil {
		return nil, herr
	}
	sum.finish(ctx)
	if err := parent.Err(); err != nil {
		return sum, err
	}
	return sum, nil
}

// deliver hands the events to h: the unrunnable records first, then each
// batch's events in plan order, as each batch finishes.
func deliver(h Handler, o Options, unrunnable []testdex.Test, outs []*batchOutput, sum *Summary) error {
	for _, t := range unrunnable {
		e := testdex.Event{Time: o.Now(), Action: testdex.ActionSkip, ID: t.ID, Framework: t.Framework,
			Message: fmt.Sprintf("testdex cannot run %s tests yet", t.Framework)}
		sum.add(e)
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
