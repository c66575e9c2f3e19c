package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/proc"
)

// runBatch runs one batch's commands in order and records its events.
func runBatch(ctx context.Context, b *index.Batch, o Options, names *namer, out *batchOutput, sum *Summary) {
	fw := b.Setup.Framework
	st := &batchState{b: b, o: o, names: names, out: out, sum: sum, started: map[string]bool{}, done: map[string]bool{}}
	var mu sync.Mutex // parsers and the stderr writer emit from different goroutines
	limit := o.Cap
	if limit <= 0 {
		limit = proc.DefaultCap
	}
	st.emit = func(e testdex.Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Action == testdex.ActionOutput && !st.keepOutput(e, limit) {
			return
		}
		e.Time, e.Framework, e.Batch = o.Now(), fw, b.Name
		st.track(e)
		out.add(e)
		sum.add(e)
		if o.Live != nil {
			o.Live(e)
		}
	}
	st.emit(testdex.Event{Action: testdex.ActionStart})
	start := time.Now()
	exit := st.runAll(ctx)
	st.settle(exit)
	action := testdex.ActionPass
	if st.failed || exit != 0 {
		action = testdex.ActionFail
	}
	st.emit(testdex.Event{Action: action, Elapsed: time.Since(start).Seconds()})
}

// runAll builds and runs the batch's commands in order and returns the
// first non-zero exit code. A command that cannot start (a missing
// toolchain) ends the batch: st.broken says why, and settle gives every
// test without a result that message, once.
func (st *batchState) runAll(ctx context.Context) int {
	scratch, err := os.MkdirTemp("", "testdex-run-*")
	if err != nil {
		st.broke(fmt.Sprintf("cannot create a scratch folder: %v", err))
		return 1
	}
	defer os.RemoveAll(scratch)
	cmds, err := st.b.Setup.Runner.RunCommands(st.b.Project, st.b.Tests,
		lang.RunOptions{Extra: st.o.Extra, TestTimeout: st.o.TestTimeout, Dir: scratch, Env: st.o.Env})
	if err != nil {
		st.broke(fmt.Sprintf("cannot build the %s command: %v", st.b.Setup.Framework, err))
		return 1
	}
	exit := 0
	for _, c := range cmds {
		code := st.runCommand(ctx, c)
		if exit == 0 {
			exit = code
		}
		if st.broken != "" || ctx.Err() != nil {
			break
		}
	}
	return exit
}

// broke records why the batch cannot go on and says it once.
func (st *batchState) broke(msg string) {
	st.broken = msg
	st.emit(testdex.Event{Action: testdex.ActionOutput, Output: "testdex: " + msg + "\n"})
}

// keepOutput caps a batch's output events at limit bytes, as proc caps
// the captured streams: past it, one event says [TRUNCATED] and the rest is
// dropped. Parsers still read everything; only what is reported is capped.
func (st *batchState) keepOutput(e testdex.Event, limit int) bool {
	switch {
	case st.outBytes+len(e.Output) <= limit:
		st.outBytes += len(e.Output)
		return true
	case !st.truncated:
		st.truncated = true
		st.outBytes = limit
		e.Output = proc.Truncated
		e.Time, e.Framework, e.Batch = st.o.Now(), st.b.Setup.Framework, st.b.Name
		st.out.add(e)
		if st.o.Live != nil {
			st.o.Live(e)
		}
	}
	return false
}

// batchState follows one batch: which tests started and finished.
type batchState struct {
	outBytes  int  // output reported so far
	truncated bool // the output cap was reached
	b         *index.Batch
	o         Options
	names     *namer
	out       *batchOutput
	sum       *Summary
	emit      func(testdex.Event)
	started   map[string]bool
	done      map[string]bool
	failed    bool
	timeout   bool
	// cancelled is true when the caller cancelled the run (Ctrl-C), as
	// opposed to the run's own timeout.
	cancelled bool
	// broken says why the batch stopped early ("" when it did not).
	broken string
}

func (st *batchState) track(e testdex.Event) {
	switch e.Action {
	case testdex.ActionRun:
		st.started[e.ID] = true
	case testdex.ActionPass, testdex.ActionSkip:
		st.done[e.ID] = true
	case testdex.ActionFail:
		st.done[e.ID] = true
		st.failed = true
	}
}

// runCommand runs one command of the batch; it returns its exit code (-1
// when killed).
func (st *batchState) runCommand(ctx context.Context, c *lang.Command) int {
	deadline, _ := ctx.Deadline()
	parser := st.b.Setup.Runner.NewParser(st.b.Project, c, func(r lang.RunEvent) { st.emit(st.names.event(st.b, r)) })
	stderr := &lineWriter{emit: func(s string) { st.emit(testdex.Event{Action: testdex.ActionOutput, Output: s}) }}
	env := append(append([]string{}, st.o.Env...), c.Env...)
	res, err := proc.Run(ctx, proc.Spec{Args: c.Args, Dir: c.Dir, Env: env, Timeout: time.Until(deadline),
		Cap: st.o.Cap, Stdout: parser, Stderr: stderr})
	var missing *proc.MissingError
	switch {
	case errors.As(err, &missing):
		st.sum.addMissing(missing.Error())
		st.broke(missing.Error())
		return 127
	case err != nil:
		st.broke(err.Error())
		return 1
	}
	if err := parser.Close(res.ExitCode); err != nil {
		st.emit(testdex.Event{Action: testdex.ActionOutput, Output: fmt.Sprintf("testdex: reading the %s results: %v\n", st.b.Setup.Framework, err)})
	}
	stderr.flush()
	for _, l := range res.Leaked {
		st.emit(testdex.Event{Action: testdex.ActionOutput, Output: fmt.Sprintf("testdex: process %d (%s) was still running after the %s runner exited; killed\n", l.PID, l.Command, st.b.Setup.Framework)})
		st.sum.addLeak(st.b.Name, l)
	}
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		st.cancelled = true
	case res.TimedOut || ctx.Err() != nil:
		st.timeout = true
	}
	return res.ExitCode
}

// settle gives every selected test that got no result one: the batch's
// breakdown, a timeout or cancellation, a failed runner, or "no result".
// Tests that started and never ended were cut short; they are settled in
// ID order so the stream stays stable.
func (st *batchState) settle(exit int) {
	limit := st.o.Timeout.Round(time.Second)
	for _, t := range st.b.Tests {
		if st.done[t.ID] {
			continue
		}
		e := testdex.Event{Action: testdex.ActionFail, ID: t.ID, File: t.File, Line: t.Line}
		switch {
		case st.broken != "":
			e.Message = st.broken
		case st.cancelled:
			e.Message = "not finished: the run was cancelled"
		case st.timeout && st.started[t.ID]:
			e.Message = fmt.Sprintf("timed out after %v", limit)
		case st.timeout:
			e.Message = fmt.Sprintf("not run: the run timed out after %v", limit)
		case exit != 0:
			e.Message = fmt.Sprintf("no result: the %s runner exited %d (see the batch output)", st.b.Setup.Framework, exit)
		default:
			e.Action, e.Message = testdex.ActionSkip, "the runner reported no result for it"
		}
		st.emit(e)
	}
	if !st.timeout && !st.cancelled {
		return
	}
	var cut []string
	for id := range st.started {
		if !st.done[id] {
			cut = append(cut, id)
		}
	}
	sort.Strings(cut)
	for _, id := range cut {
		msg := fmt.Sprintf("timed out after %v", limit)
		if st.cancelled {
			msg = "not finished: the run was cancelled"
		}
		st.emit(testdex.Event{Action: testdex.ActionFail, ID: id, Message: msg})
	}
}

// lineWriter turns a stream into whole-line output events.
type lineWriter struct {
	emit    func(string)
	partial []byte
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.partial = append(w.partial, b...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.emit(string(w.partial[:i+1]))
		w.partial = w.partial[i+1:]
	}
}

func (w *lineWriter) flush() {
	if len(w.partial) > 0 {
		w.emit(strings.TrimSuffix(string(w.partial), "\n") + "\n")
		w.partial = nil
	}
}
