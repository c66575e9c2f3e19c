package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/flock"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
	"github.com/testdex/testdex/internal/proc"
	"github.com/testdex/testdex/plan"
)

// runBatch runs one batch's commands in order and records its events.
func runBatch(ctx context.Context, b *plan.Batch, o Options, names *plan.Namer, out *batchOutput) {
	fw := b.Setup.Framework
	st := &batchState{b: b, o: o, names: names, out: out, started: map[string]int{}, done: map[string]int{}, parents: map[string]string{}}
	limit := o.Cap
	if limit <= 0 {
		limit = proc.DefaultCap
	}
	// Parsers and the stderr writer emit from different goroutines (and
	// parallel commands into their own buffers: add says where).
	st.outCap = newOutputCap(limit)
	st.emitTo = func(e testdex.Event, add func(testdex.Event)) {
		st.mu.Lock()
		defer st.mu.Unlock()
		e.Time, e.Framework, e.Batch, e.Attempt = o.Now(), fw, b.Name, o.Attempt
		switch {
		case e.Action == testdex.ActionOutput:
			if e.ID == "" {
				st.tail.add(e.Output)
			}
			if !st.outCap.take(e, add) {
				return
			}
		case flushes(e):
			st.flushOutput()
		}
		st.report(e, add)
	}
	st.emit = func(e testdex.Event) { st.emitTo(e, out.add) }
	st.emit(testdex.Event{Action: testdex.ActionStart})
	start := time.Now()
	exit := st.runAll(ctx)
	st.settle(exit)
	action := testdex.ActionPass
	if st.failed || st.errored {
		action = testdex.ActionFail
	}
	st.emit(testdex.Event{Action: action, Elapsed: time.Since(start).Seconds(), Leaked: st.leaked, Inner: st.inner})
}

// runAll builds and runs the batch's commands in order and returns the
// first non-zero exit code. A command that cannot start (a missing
// toolchain) ends the batch: st.broken says why.
func (st *batchState) runAll(ctx context.Context) int {
	scratch, err := os.MkdirTemp("", "testdex-run-*")
	if err != nil {
		st.broke(fmt.Sprintf("cannot create a scratch folder: %v", err), testdex.CauseRunner)
		return 1
	}
	defer os.RemoveAll(scratch)
	if msg := st.unguarded(); msg != "" {
		st.broke(msg, testdex.CauseRunner)
		return 1
	}
	ro := lang.RunOptions{Extra: st.o.Extra, TestTimeout: st.o.TestTimeout, Dir: scratch, Env: st.o.Env, Bench: st.o.Bench,
		Coverage: st.o.cover.enabled(st.b), Outside: st.b.Outside,
		CacheDir: st.o.CacheDir, Fresh: st.o.Fresh, Repeat: st.o.Repeat, Output: st.o.Output, Strict: st.o.Strict}
	sel, err := st.reuse(ro)
	if err != nil {
		st.broke(fmt.Sprintf("cannot build the %s command: %v", st.b.Setup.Framework, err), testdex.CauseRunner)
		return 1
	}
	if sel == nil {
		return 0 // every result was known without running
	}
	cmds, err := st.b.Setup.Runner.RunCommands(st.b.Project, sel, ro)
	switch {
	case errors.Is(err, lang.ErrNotInstalled):
		st.broke(err.Error(), testdex.CauseToolchain)
		return 127
	case err != nil:
		st.broke(fmt.Sprintf("cannot build the %s command: %v", st.b.Setup.Framework, err), testdex.CauseRunner)
		return 1
	}
	exit := 0
	for i := 0; i < len(cmds); {
		j := i + 1
		for cmds[i].Lane != "" && j < len(cmds) && cmds[j].Lane != "" {
			j++
		}
		code := st.runGroup(ctx, cmds[i:j])
		if exit == 0 {
			exit = code
		}
		if st.stopped() || ctx.Err() != nil {
			break
		}
		i = j
	}
	return exit
}

// reuse emits the results a lang.Reuser knows without running anything
// and returns the selection left to run: the batch's own for another
// Runner, nil when nothing is left.
func (st *batchState) reuse(ro lang.RunOptions) (*lang.Selection, error) {
	r, ok := st.b.Setup.Runner.(lang.Reuser)
	if !ok {
		return &st.b.Selection, nil
	}
	known, rest, err := r.Reuse(st.b.Project, &st.b.Selection, ro)
	if err != nil {
		return nil, err
	}
	for _, k := range known {
		st.mu.Lock()
		e := st.event(k)
		st.mu.Unlock()
		st.emit(e)
	}
	if rest == nil || len(rest.Paths)+len(rest.Tests) == 0 {
		return nil, nil
	}
	return rest, nil
}

// unguarded says why the batch cannot run when its selection holds
// symbolic links leaving the root that its framework would follow to
// collect tests there (lang.LinkGuard), "" when it can run.
func (st *batchState) unguarded() string {
	links := st.b.Outside
	if len(links) == 0 {
		return ""
	}
	if g, ok := st.b.Setup.Runner.(lang.LinkGuard); ok && g.GuardsLinks(links) {
		return ""
	}
	names := make([]string, len(links))
	for i, l := range links {
		names[i] = joinRel(st.b.Dir, l.Path)
	}
	return fmt.Sprintf("not run: %s %s a symbolic link leaving the root, which %s would follow to collect tests outside it "+
		"(remove the link, or run the tests by ID or by the paths beside it)", strings.Join(names, ", "), plural(len(names), "is", "are each"), st.b.Setup.Framework)
}

// runGroup runs one command, or adjacent commands with lanes: one
// goroutine per lane runs its commands in order, up to -j lanes at once,
// each command into its own buffer, reported in command order. It returns
// the first non-zero exit code.
func (st *batchState) runGroup(ctx context.Context, cmds []*lang.Command) int {
	if len(cmds) == 1 {
		return st.runCommand(ctx, cmds[0], st.emit)
	}
	bufs := make([][]testdex.Event, len(cmds))
	codes := make([]int, len(cmds))
	var lanes []string
	byLane := map[string][]int{}
	for k, c := range cmds {
		if byLane[c.Lane] == nil {
			lanes = append(lanes, c.Lane)
		}
		byLane[c.Lane] = append(byLane[c.Lane], k)
	}
	var g errgroup.Group
	g.SetLimit(max(st.o.Jobs, 1)) // each lane runs one process at a time
	for _, lane := range lanes {
		g.Go(func() error {
			for _, k := range byLane[lane] {
				if st.stopped() || ctx.Err() != nil {
					return nil
				}
				codes[k] = st.runCommand(ctx, cmds[k], func(e testdex.Event) {
					st.emitTo(e, func(e testdex.Event) { bufs[k] = append(bufs[k], e) })
				})
			}
			return nil
		})
	}
	g.Wait()
	st.mu.Lock()
	st.flushOutput() // what the buffers hold back goes with them
	st.mu.Unlock()
	exit := 0
	for k := range cmds {
		for _, e := range bufs[k] {
			st.out.add(e)
		}
		if exit == 0 {
			exit = codes[k]
		}
	}
	return exit
}

// stopped reports whether the batch cannot go on (st.broken).
func (st *batchState) stopped() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.broken != ""
}

// broke records why the batch cannot go on (the first reason).
func (st *batchState) broke(msg, cause string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.broken == "" {
		st.broken, st.cause = msg, cause
	}
}

// report adds an event where add says and shows it live; st.mu is held.
func (st *batchState) report(e testdex.Event, add func(testdex.Event)) {
	st.track(&e)
	add(e)
	if st.o.Live != nil {
		st.o.Live(e)
	}
}

// flushOutput reports the output the cap holds back (outputCap.flush);
// st.mu is held.
func (st *batchState) flushOutput() {
	for _, h := range st.outCap.flush() {
		st.report(h.e, h.add)
	}
}

// batchState follows one batch: which tests started and finished.
type batchState struct {
	outCap *outputCap // the output reported, within its limit
	b      *plan.Batch
	o      Options
	names  *plan.Namer
	out    *batchOutput
	emit   func(testdex.Event)
	emitTo func(e testdex.Event, add func(testdex.Event))
	// mu guards what commands run in parallel share: the events' state,
	// broken, leaked, timeout, cancelled and parents.
	mu sync.Mutex
	// started and done count each test's run events and final results:
	// a runner may report one ID more than once (tests sharing a full
	// name, go test -count=N), and each report is an occurrence of its
	// own (testdex.Event.Occurrence).
	started map[string]int
	done    map[string]int
	// parents maps a reported test's ID to its parent's, for the tests the
	// listing does not hold (the listed ones have Parent).
	parents map[string]string
	// expected holds the IDs of b.Expected, made on first use.
	expected map[string]bool
	failed   bool // a test failed
	errored  bool // the batch failed without per-test results
	timeout  bool
	// cancelled is true when the caller cancelled the run (Ctrl-C), as
	// opposed to the run's own timeout.
	cancelled bool
	// broken says why the batch stopped early ("" when it did not), and
	// cause classifies it.
	broken, cause string
	leaked        []testdex.Process
	inner         *testdex.Inner // the sum of the tests' own counts, nil when none counted
	tail          tailLines      // the last lines of the batch's own output
}

// track counts e and numbers its occurrence: a test's nth run event and
// its nth final result are occurrence n-1 (runners report a test's
// copies one after the other; where copies overlap, as parallel Go tests
// with one name do, the numbering pairs them in order, which keeps every
// result apart, the point of it).
func (st *batchState) track(e *testdex.Event) {
	if e.ID != "" && e.Action.Final() && e.Inner != nil {
		if st.inner == nil {
			st.inner = &testdex.Inner{}
		}
		st.inner.Add(e.Inner)
	}
	switch e.Action {
	case testdex.ActionRun:
		if e.ID != "" {
			e.Occurrence = st.started[e.ID]
			st.started[e.ID]++
		}
	case testdex.ActionPass, testdex.ActionSkip, testdex.ActionUnchanged:
		if e.ID != "" {
			e.Occurrence = st.done[e.ID]
			st.done[e.ID]++
		}
	case testdex.ActionFail:
		if e.ID != "" {
			e.Occurrence = st.done[e.ID]
			st.done[e.ID]++
			st.failed = true
		}
	case testdex.ActionError: // a runner's own error (a package that does not build)
		st.errored = true
	}
}

// event turns a runner's event into a testdex event named by the ID rules.
func (st *batchState) event(r lang.RunEvent) testdex.Event {
	e := testdex.Event{Action: r.Action, Elapsed: r.Elapsed, Output: r.Output, Message: r.Message, Line: r.Line, Verdict: r.Verdict, Inner: r.Inner}
	if r.Action == testdex.ActionError {
		e.Cause = testdex.CauseRunner
		return e
	}
	if r.File != "" {
		e.File = joinRel(st.b.Dir, r.File)
	}
	if r.Name == "" {
		return e
	}
	decl := ""
	if r.Decl != "" {
		decl = joinRel(st.b.Dir, r.Decl)
	}
	t, listed := st.names.Record(plan.Result{Project: st.b.Dir, Framework: st.b.Setup.Framework, Scope: r.Scope, Name: r.Name, File: decl, Kind: r.Kind})
	e.ID, e.Scope, e.Name, e.Kind, e.Parent = t.ID, t.Scope, t.Name, t.Kind, t.Parent
	if r.Kind != "" {
		e.Kind = r.Kind
	}
	if !listed {
		e.Seen = t.Seen
		st.parents[t.ID] = t.Parent
	}
	if e.Action == testdex.ActionFail && e.File == "" {
		e.File, e.Line = t.File, t.Line
	}
	return e
}

// joinRel joins a root-relative project folder and a project-relative path.
func joinRel(dir, rel string) string { return strings.TrimPrefix(dir+"/"+rel, "./") }

// runCommand runs one command of the batch; it returns its exit code (-1
// when killed).
func (st *batchState) runCommand(ctx context.Context, c *lang.Command, emit func(testdex.Event)) int {
	deadline, _ := ctx.Deadline()
	limit := time.Until(deadline)
	if c.Timeout > 0 && (deadline.IsZero() || c.Timeout < limit) {
		limit = c.Timeout
	}
	open := openTests{}
	parser := st.b.Setup.Runner.NewParser(st.b.Project, c, func(r lang.RunEvent) {
		st.mu.Lock()
		e := st.event(r)
		drop := st.unselected(e)
		st.mu.Unlock()
		if drop {
			return
		}
		if r.Action == lang.ActionCovered { // kept for the coverage index, never an event
			st.o.cover.add(e.ID, st.b, r)
			return
		}
		open.follow(e, r)
		emit(e)
	})
	if c.Note != "" && st.o.note != nil {
		st.o.note(st.b, st.b.Name+": "+c.Note)
	}
	stderr := &lines.Splitter{Line: func(l []byte) { emit(testdex.Event{Action: testdex.ActionOutput, Output: string(l) + "\n"}) }}
	if c.Exclusive != "" {
		unlock, err := flock.Lock(ctx, c.Exclusive, func() {
			emit(testdex.Event{Action: testdex.ActionOutput, Output: "testdex: waiting for another run of this project to finish (it holds " + c.Exclusive + ")\n"})
		})
		if err != nil {
			st.broke(fmt.Sprintf("cannot lock %s: %v", c.Exclusive, err), testdex.CauseRunner)
			return 1
		}
		defer unlock()
	}
	env := append(append([]string{}, st.o.Env...), c.Env...)
	var stdout io.Writer = parser
	raw := &lines.Splitter{Line: func(l []byte) { st.o.Raw(st.b.Name, l) }}
	if st.o.Raw != nil {
		stdout = io.MultiWriter(parser, raw)
	}
	res, err := proc.Run(ctx, proc.Spec{Args: c.Args, Dir: c.Dir, Env: env, Timeout: limit,
		Cap: st.o.Cap, Stdout: stdout, Stderr: stderr})
	if st.o.Raw != nil {
		raw.Flush()
	}
	var missing *proc.MissingError
	switch {
	case errors.As(err, &missing):
		st.broke(missing.Error(), testdex.CauseToolchain)
		return 127
	case err != nil:
		st.broke(err.Error(), testdex.CauseRunner)
		return 1
	}
	if err := parser.Close(res.ExitCode); err != nil {
		emit(testdex.Event{Action: testdex.ActionOutput, Output: fmt.Sprintf("testdex: reading the %s results: %v\n", st.b.Setup.Framework, err)})
	}
	stderr.Flush()
	own := res.TimedOut && ctx.Err() == nil && c.Timeout > 0 // the command's own limit, not the run's
	if own {
		for _, r := range open.left() {
			r.Action, r.Elapsed, r.Message = testdex.ActionFail, c.Timeout.Seconds(), fmt.Sprintf("timed out after %d ms", c.Timeout.Milliseconds())
			st.mu.Lock()
			e := st.event(r)
			st.mu.Unlock()
			emit(e)
		}
	}
	for _, l := range res.Leaked {
		emit(testdex.Event{Action: testdex.ActionOutput, Output: fmt.Sprintf("testdex: process %d (%s) was still running after the %s runner exited; killed\n", l.PID, l.Command, st.b.Setup.Framework)})
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, l := range res.Leaked {
		st.leaked = append(st.leaked, testdex.Process{PID: l.PID, Command: l.Command})
	}
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		st.cancelled = true
	case !own && (res.TimedOut || ctx.Err() != nil):
		st.timeout = true
	}
	return res.ExitCode
}

// openTests holds, per test ID, the run events of one command's tests
// that have not ended (one per run: a runner may report an ID twice).
type openTests map[string][]lang.RunEvent

func (o openTests) follow(e testdex.Event, r lang.RunEvent) {
	switch {
	case e.ID == "":
	case e.Action == testdex.ActionRun:
		o[e.ID] = append(o[e.ID], r)
	case e.Action.Final() && len(o[e.ID]) > 0:
		o[e.ID] = o[e.ID][1:]
	}
}

// left returns the run events of the tests left open, by ID.
func (o openTests) left() []lang.RunEvent {
	ids := make([]string, 0, len(o))
	for id := range o {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var out []lang.RunEvent
	for _, id := range ids {
		out = append(out, o[id]...)
	}
	return out
}

// settle ends the batch after its commands: tests that started and never
// ended fail (cut by the timeout or a cancellation, or lost when the
// runner died), a runner that failed without a failing test is one batch
// error with its own words, and listed tests the runner never reported
// are "unreported", in listing order.
func (st *batchState) settle(exit int) {
	limit := st.o.Timeout.Round(time.Second)
	var cut []string
	for id, n := range st.started {
		for k := st.done[id]; k < n; k++ {
			cut = append(cut, id) // each copy started and not ended
		}
	}
	sort.Strings(cut)
	for _, id := range cut {
		msg := fmt.Sprintf("no result: the %s runner exited %d before reporting it (the test's process died or closed its output)", st.b.Setup.Framework, exit)
		switch {
		case st.cancelled:
			msg = "not finished: the run was cancelled"
		case st.timeout:
			msg = fmt.Sprintf("timed out after %v", limit)
		}
		st.emit(testdex.Event{Action: testdex.ActionFail, ID: id, Parent: st.parentOf(id), Message: msg})
	}
	st.batchError(exit, limit)
	st.unreported()
}

// unselected says whether e is a skip the runner reported for a listed
// test that the batch did not select and that never started: a name
// pattern's filtering (Jest, Vitest and node 20 report the tests of a file
// that the pattern leaves out as skipped), not a result; or the pass of
// such a suite (node 20 passes a describe whose tests it all filtered
// out). It is dropped: a shard that runs some of a file's tests by ID
// would otherwise report the others as skipped, and so would the shards
// that run them, which `testdex merge` reads as tests reported twice. Only
// where the batch selects tests by ID: a runner's skips in files run whole
// are its results. A failure is never dropped. st.mu is held.
func (st *batchState) unselected(e testdex.Event) bool {
	suite := e.Action == testdex.ActionPass && e.Kind == testdex.KindSuite
	if (e.Action != testdex.ActionSkip && !suite) || e.ID == "" || len(e.Seen) > 0 || len(st.b.Selection.Tests) == 0 ||
		st.started[e.ID] > st.done[e.ID] {
		return false
	}
	if st.expected == nil {
		st.expected = make(map[string]bool, len(st.b.Expected))
		for _, t := range st.b.Expected {
			st.expected[t.ID] = true
		}
	}
	for id, depth := e.ID, 0; id != "" && depth < 64; depth++ {
		if st.expected[id] {
			return false
		}
		t, ok := st.names.ForID(id)
		if !ok || len(t.Seen) > 0 {
			return false
		}
		id = t.Parent
	}
	return true
}

// parentOf is the parent of a test of the batch: the listed record's, or
// the nearest listed ancestor of a test only the runner reported.
func (st *batchState) parentOf(id string) string {
	for _, t := range st.b.Expected {
		if t.ID == id {
			return t.Parent
		}
	}
	return st.parents[id]
}

// batchError emits the batch's error, if it failed without per-test
// results.
func (st *batchState) batchError(exit int, limit time.Duration) {
	e := testdex.Event{Action: testdex.ActionError}
	switch {
	case st.broken != "":
		e.Message, e.Cause = st.broken, st.cause
	case st.cancelled:
		e.Message, e.Cause = "cancelled", testdex.CauseCancelled
	case st.timeout:
		e.Message, e.Cause = fmt.Sprintf("timed out after %v", limit), testdex.CauseTimeout
	case exit != 0 && !st.failed && !st.errored:
		e.Message, e.Cause = st.runnerMessage(exit), testdex.CauseRunner
	default:
		return
	}
	st.errored = true
	st.emit(e)
}

// runnerMessage is a failed runner's own account: its exit code and the
// last lines of its output (not its command line, which names testdex's
// scratch files; --json has every line of the output).
func (st *batchState) runnerMessage(exit int) string {
	msg := fmt.Sprintf("the %s runner exited %d without reporting a failing test", st.b.Setup.Framework, exit)
	if t := st.tail.String(); t != "" {
		msg += ":\n" + t
	}
	return msg
}

// unreported ends each listed test of the selection that neither it nor a
// test under it was reported: it is not a failure and not a skip. Dynamic
// records stand for the rows the runner reported in their place, and a
// record with listed children leaves the verdict to them.
func (st *batchState) unreported() {
	reached := map[string]bool{} // reported tests and their ancestors
	byID := map[string]*testdex.Test{}
	for _, t := range st.b.Expected {
		byID[t.ID] = t
	}
	hasChild := map[string]bool{}
	for _, t := range st.b.Expected {
		if !t.Dynamic {
			hasChild[t.Parent] = true
		}
	}
	for id := range st.done {
		for p := id; p != "" && !reached[p]; {
			reached[p] = true
			if t := byID[p]; t != nil {
				p = t.Parent
			} else {
				p = st.parents[p]
			}
		}
	}
	reason := "the runner did not report it"
	switch {
	case st.broken != "", st.errored && !st.timeout && !st.cancelled:
		reason = "not run: the batch failed (see its error)"
	case st.timeout:
		reason = "not run: the run timed out"
	case st.cancelled:
		reason = "not run: the run was cancelled"
	}
	named := map[string]bool{}
	for _, t := range st.b.Selection.Tests {
		named[t.ID] = true
	}
	for _, t := range st.b.Expected {
		if reached[t.ID] || t.Dynamic || hasChild[t.ID] {
			continue
		}
		if bench := benchmarkOf(t, byID); bench != nil && !st.o.Bench && !named[bench.ID] && !named[t.ID] {
			continue // paths run no benchmarks unless asked (--bench), as go test does
		}
		why := reason
		if t.Kind == testdex.KindBenchmark && st.failed && reason == "the runner did not report it" {
			why = "not run: go test runs a package's benchmarks only when its tests pass"
		}
		st.emit(testdex.Event{Action: testdex.ActionUnreported, ID: t.ID, Scope: t.Scope, Name: t.Name, Kind: t.Kind, Parent: t.Parent, Message: why})
	}
}

// benchmarkOf returns the benchmark t is or lies under (a sub-benchmark),
// nil when there is none.
func benchmarkOf(t *testdex.Test, byID map[string]*testdex.Test) *testdex.Test {
	for a := t; a != nil; a = byID[a.Parent] {
		if a.Kind == testdex.KindBenchmark {
			return a
		}
	}
	return nil
}

// tailLines keeps the last lines of a stream, each cut to a readable size.
type tailLines struct{ lines []string }

const (
	tailKeep    = 20
	tailLineMax = 300
)

func (t *tailLines) add(s string) {
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if len(l) > tailLineMax {
			l = l[:tailLineMax] + fmt.Sprintf("... [%d more bytes]", len(l)-tailLineMax)
		}
		t.lines = append(t.lines, l)
		if len(t.lines) > tailKeep {
			t.lines = t.lines[1:]
		}
	}
}

func (t *tailLines) String() string { return strings.Join(t.lines, "\n") }
