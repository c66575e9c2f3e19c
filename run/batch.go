package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
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
	scratch, err := os.MkdirTemp("", "testdex-run-*")
	if err == nil {
		defer os.RemoveAll(scratch)
	}
	cmds, err := b.Setup.Runner.RunCommands(b.Project, b.Tests, lang.RunOptions{Extra: o.Extra, TestTimeout: o.TestTimeout, Dir: scratch, Env: o.Env})
	if err != nil {
		st.batchFail(fmt.Sprintf("cannot build the %s command: %v", fw, err))
		return
	}
	exit := 0 // the first non-zero exit of the batch's commands
	for _, c := range cmds {
		code := st.runCommand(ctx, c)
		if exit == 0 {
			exit = code
		}
		if code != 0 && ctx.Err() != nil {
			break
		}
	}
	st.settle(ctx, exit)
	action := testdex.ActionPass
	if st.failed || exit != 0 {
		action = testdex.ActionFail
	}
	st.emit(testdex.Event{Action: action, Elapsed: time.Since(start).Seconds()})
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
		st.batchFail(missing.Error())
		return 127
	case err != nil:
		st.batchFail(err.Error())
		return 1
	}
	parser.Close(res.ExitCode)
	stderr.flush()
	for _, l := range res.Leaked {
		st.emit(testdex.Event{Action: testdex.ActionOutput, Output: fmt.Sprintf("testdex: process %d (%s) was still running after the %s runner exited; killed\n", l.PID, l.Command, st.b.Setup.Framework)})
		st.sum.addLeak(st.b.Name, l)
	}
	if res.TimedOut || ctx.Err() != nil {
		st.timeout = true
	}
	return res.ExitCode
}

// settle gives every selected test that got no result one: timed out,
// failed with the batch, or not run.
func (st *batchState) settle(ctx context.Context, exit int) {
	for _, t := range st.b.Tests {
		if st.done[t.ID] {
			continue
		}
		e := testdex.Event{Action: testdex.ActionFail, ID: t.ID, File: t.File, Line: t.Line}
		switch {
		case st.timeout && st.started[t.ID]:
			e.Message = fmt.Sprintf("timed out after %v", st.o.Timeout.Round(time.Second))
		case st.timeout:
			e.Message = fmt.Sprintf("not run: the run timed out after %v", st.o.Timeout.Round(time.Second))
		case exit != 0:
			e.Message = fmt.Sprintf("no result: the %s runner exited %d (see the batch output)", st.b.Setup.Framework, exit)
		default:
			e.Action, e.Message = testdex.ActionSkip, "the runner reported no result for it"
		}
		st.emit(e)
	}
	// Tests that started and never ended were cut short.
	for id := range st.started {
		if !st.done[id] && st.timeout {
			st.emit(testdex.Event{Action: testdex.ActionFail, ID: id, Message: fmt.Sprintf("timed out after %v", st.o.Timeout.Round(time.Second))})
		}
	}
}

func (st *batchState) batchFail(msg string) {
	st.emit(testdex.Event{Action: testdex.ActionOutput, Output: "testdex: " + msg + "\n"})
	for _, t := range st.b.Tests {
		st.emit(testdex.Event{Action: testdex.ActionFail, ID: t.ID, File: t.File, Line: t.Line, Message: msg})
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
