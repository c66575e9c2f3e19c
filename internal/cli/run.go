package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
	"github.com/testdex/testdex/workspace"
)

type runFlags struct {
	json        bool
	junit       string
	timeout     time.Duration
	testTimeout time.Duration
	jobs        int
	failed      bool
	verbose     bool
	bench       bool
	from        string
	affected    bool
	changed     bool
	since       string
	coverage    bool
	noCover     bool
	color       colorMode
	output      string
	repeat      int
	budget      time.Duration
	detectNew   bool
	strict      bool
	plan        string
	retries     int
	failOnFlaky bool
	history     string
	profile     string
	shard       string
	shardTotal  int
	durations   string
	recorded    *plan.Recorded // --durations, once read
	fromHistory plan.Durations // the history's durations, once read
	shards      int            // the N of the split this run is a shard of (0: none), which durations it prefers
	roundRobin  bool
}

func newRunCmd(env *Env, g *globals) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run [ID|PATH...] [-- NATIVE-ARGS...]",
		Short: "Run the tests with these IDs or under these paths through their native runners",
		Long: `Run runs the selected tests through their native runners, batched per
project and framework, and reports every test the runners report under its
ID. Files and folders are handed to the framework as paths (no argument
runs each project as its own test command would); IDs, as 'testdex list'
prints them, are handed over as names. Arguments after -- go to the native
runner.

With --coverage, each test's executed lines are recorded per test, every
framework above included (node:test too: a test's lines are those run
between its start and its end, its subtests' with it). A project and
framework whose tests ran and recorded nothing (the coverage tool is
missing, code transformed without a source map, the recorder never reached
the tests) gets one warning saying why and what to do, on stderr and, with
--json, as a "warning" event; coverage never changes the exit status.

Exit status: 0 when every test that ran passed or was skipped, 1 when one
failed or a runner failed without results, 2 when nothing matched, 3 for a
usage error, 124 when the run timed out.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runRun(cmd, env, g, f, args) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the event stream as JSON Lines")
	fl.StringVar(&f.junit, "junit", "", "also write a JUnit XML report to this file")
	fl.DurationVar(&f.timeout, "timeout", run.DefaultTimeout, "limit for the whole run (at most 30m)")
	fl.DurationVar(&f.testTimeout, "test-timeout", 0, "per-test limit where the framework has one")
	fl.IntVarP(&f.jobs, "jobs", "j", numCPU(), "batches run at once")
	fl.BoolVar(&f.failed, "failed", false, "rerun exactly the tests that failed in the last run of this root")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "also name passing, skipped and unreported tests")
	fl.BoolVar(&f.bench, "bench", false, "also run the benchmarks under the selected paths (go test -bench .)")
	fl.BoolVar(&f.changed, "changed", false, "run only the test files that changed, or whose dependencies did, since their last passing run; the others are 'unchanged'")
	fl.BoolVar(&f.affected, "affected", false, "run the tests the change can affect ('testdex affected'): the work tree against --since")
	fl.StringVar(&f.since, "since", "", "with --affected: the revision the work tree is compared with (default HEAD)")
	fl.BoolVar(&f.noCover, "no-coverage", false, "with --affected: ignore the recorded coverage, select by the static evidence alone")
	fl.BoolVar(&f.coverage, "coverage", false, "record what each test executes, for 'testdex covering' (go, pytest, unittest, jest, vitest, mocha, node:test, junit under Maven, cargo); a project that records nothing gets a warning saying why")
	fl.StringVar(&f.from, "from", "", "run from a saved listing (a metadata file from 'testdex index -o'): no test file is parsed, projects are detected from their manifests")
	fl.Var(&f.color, "color", "colour the results: auto (when stdout is a terminal and NO_COLOR is unset), always or never")
	fl.StringVar(&f.output, "output", "", "markdown specs: also write semtest's report files to this folder (latest.md, ci-results.json, junit-results.xml, debug/); it is left out of discovery")
	fl.IntVar(&f.repeat, "repeat", 1, "run the selected tests this many times, in new processes (attempts 0 to N-1): one that passes and fails ends 'flaky'; markdown specs: judge each scenario this many times and report its agreement (under 95%: unstable), reusing no stored verdict")
	fl.DurationVar(&f.budget, "repeat-budget", 0, "with --repeat: start no repeat the time left cannot hold, the shorter tests repeating first (0: no bound)")
	fl.BoolVar(&f.detectNew, "detect-new", false, "catch a flaky test before it is merged: run the tests the change affects (--affected) --repeat times (default 10) within --repeat-budget (default 2m); a test that both passes and fails fails the run")
	fl.IntVar(&f.retries, "retries", 0, "rerun the failed tests alone, by ID, in new processes, up to N times; one that then passes is 'flaky' and fails nothing (without --fail-on-flaky)")
	fl.BoolVar(&f.failOnFlaky, "fail-on-flaky", false, "with --retries or --repeat: a flaky test fails the run (exit 1)")
	fl.StringVar(&f.plan, "plan", "", "run the plan in this file ('testdex list --plan'), made here or on another machine: its batches, selections and expected tests")
	fl.StringVar(&f.history, "history", "", "append the run's outcomes and durations to this history file (default: the root's, under the cache folder; see 'testdex history'); with --shard, also split by its durations")
	fl.StringVar(&f.profile, "profile", "", "label the run's environment in the history, e.g. linux-large (default: $TESTDEX_PROFILE)")
	fl.StringVar(&f.shard, "shard", "", "run shard K of N (K/N, 1-based) of the selection, split by 'testdex plan --shards N'; without it, a CI's own shard variables are read (GitLab, CircleCI, Buildkite, Bazel)")
	fl.IntVar(&f.shardTotal, "shard-total", 0, "in a Kubernetes Indexed Job: the number of shards (the shard is JOB_COMPLETION_INDEX + 1)")
	fl.StringVar(&f.durations, "durations", "", "predict with the test durations of this 'testdex run --json' stream: shards split by time, batches start longest first")
	roundRobinFlag(cmd, f)
	fl.BoolVar(&f.strict, "strict", false, "markdown specs: a spec with validation findings (a duplicate or missing scenario ID) fails without being judged")
	return cmd
}

// check validates the flags before anything runs.
func (f *runFlags) check() error {
	switch {
	case f.timeout <= 0 || f.timeout > run.MaxTimeout:
		return usageErr("--timeout %v is out of range (more than 0, at most %v)", f.timeout, run.MaxTimeout)
	case f.testTimeout < 0:
		return usageErr("--test-timeout %v is negative", f.testTimeout)
	case f.jobs < 1:
		return usageErr("-j %d: at least 1 batch must run at once", f.jobs)
	case f.retries < 0 || f.retries > 10:
		return usageErr("--retries %d is out of range (0 to 10)", f.retries)
	case f.failOnFlaky && f.retries == 0 && f.repeat <= 1 && !f.detectNew:
		return usageErr("--fail-on-flaky goes with --retries or --repeat")
	case f.repeat < 0 || f.repeat > 100: // 0 (watch sets no default) is once, as 1
		return usageErr("--repeat %d is out of range (1 to 100)", f.repeat)
	case f.budget < 0:
		return usageErr("--repeat-budget %v is negative", f.budget)
	}
	if f.detectNew {
		f.affected, f.failOnFlaky = true, true // caught means it does not merge
		if f.repeat <= 1 {
			f.repeat = 10
		}
		if f.budget == 0 {
			f.budget = 2 * time.Minute
		}
	}
	if f.budget > 0 && f.repeat <= 1 {
		return usageErr("--repeat-budget goes with --repeat (more than 1) or --detect-new")
	}
	return nil
}

func runRun(cmd *cobra.Command, env *Env, g *globals, f *runFlags, args []string) error {
	if err := f.check(); err != nil {
		return err
	}
	sel, extra := args, []string(nil)
	if at := cmd.ArgsLenAtDash(); at >= 0 {
		sel, extra = args[:at], args[at:]
	}
	if f.failed && len(sel) > 0 {
		return usageErr("--failed reruns the last failures; it takes no IDs or paths")
	}
	ws, err := g.workspace(env, sel)
	if err != nil {
		return err
	}
	getenv := env.Getenv
	if f.plan != "" { // a plan file is one machine's work already (a shard's plan): only --shard splits it
		getenv = func(string) string { return "" }
	}
	spec, sharded, err := shardFromEnv(f.shard, f.shardTotal, getenv)
	if err != nil {
		return err
	}
	if sharded {
		f.shards = spec.N
	}
	if f.plan != "" {
		return runPlan(cmd, env, g, ws, f, sel, extra, spec, sharded)
	}
	ix, req, err := selectRun(cmd, env, g, ws, f, sel, extra)
	if err != nil || ix == nil {
		return err
	}
	if sharded {
		return runShard(cmd, env, ws, ix, req, f, spec, nil)
	}
	return execute(cmd, env, ws, ix, req, f, nil)
}

// selectRun lists the root and makes the request the arguments and flags
// select (IDs, paths, --failed, --affected, --changed); ix is nil when
// --affected found nothing to run, which it said.
func selectRun(cmd *cobra.Command, env *Env, g *globals, ws *workspace.Workspace, f *runFlags, sel, extra []string) (*index.Index, run.Request, error) {
	var req run.Request
	ix, err := runIndex(cmd, env, g, f.from, sel, outputDir(env, f.output))
	if err != nil {
		return nil, req, err
	}
	printProblems(env.Stderr, ix.Problems, true)
	ids, paths, err := splitArgs(ix, env, sel)
	if err != nil {
		return nil, req, err
	}
	if f.affected {
		if len(sel) > 0 || f.failed {
			return nil, req, usageErr("--affected selects the tests itself; it takes no IDs, paths or --failed")
		}
		res, err := affectedTests(cmd, env, ws, ix, f.since, nil, !f.noCover)
		if err != nil {
			return nil, req, err
		}
		if len(res.Affected) == 0 {
			fmt.Fprintln(env.Stdout, changes.Summary(res.Set, res.Affected))
			return nil, req, nil
		}
		ids, paths = workspace.Selection(res.Affected) // exactly the selection: a whole file by path, else its tests by ID
	} else if f.since != "" {
		return nil, req, usageErr("--since goes with --affected")
	} else if f.noCover {
		return nil, req, usageErr("--no-coverage goes with --affected")
	}
	o, err := f.options(env, g, ws, extra)
	if err != nil {
		return nil, req, err
	}
	if f.changed && (len(ids) > 0 || f.failed || f.affected) {
		return nil, req, usageErr("--changed takes paths only, not IDs, --failed or --affected")
	}
	if f.changed && len(paths) == 0 {
		paths = []string{"."}
	}
	req = run.Request{IDs: ids, Paths: paths, Failed: f.failed, Changed: f.changed, Chosen: f.affected, Options: o, Retries: f.retries,
		RepeatBudget: f.budget, History: f.historyFile(env), Profile: f.profile, Warn: func(msg string) { g.warn(env, msg) }}
	return ix, req, nil
}

// options are the run's options from its flags; with --durations, the
// batches start longest first.
func (f *runFlags) options(env *Env, g *globals, ws *workspace.Workspace, extra []string) (run.Options, error) {
	o := run.Options{Extra: extra, Timeout: f.timeout, TestTimeout: f.testTimeout, Jobs: f.jobs, Env: env.Environ, Bench: f.bench, Coverage: f.coverage,
		Repeat: f.repeat, Fresh: g.noCache, Output: outputDir(env, f.output), Strict: f.strict}
	d, err := f.readDurations(env, ws, true)
	if err != nil || d == nil {
		return o, err
	}
	o.Predict = func(b *plan.Batch) time.Duration { return plan.Predict(b, d) }
	return o, nil
}

// historyFile is --history, absolute; "" when not given.
func (f *runFlags) historyFile(env *Env) string {
	if f.history == "" {
		return ""
	}
	return abs(env, f.history)
}

// runPlan runs the plan in f.plan over the root listed again.
func runPlan(cmd *cobra.Command, env *Env, g *globals, ws *workspace.Workspace, f *runFlags, sel, extra []string, spec shardSpec, sharded bool) error {
	if len(sel) > 0 || f.failed || f.affected || f.changed || f.from != "" {
		return usageErr("--plan names its tests itself; it takes no IDs, paths, --failed, --affected, --changed or --from")
	}
	p, err := readPlan(env, f.plan)
	if err != nil {
		return err
	}
	ix, err := runIndex(cmd, env, g, "", nil, outputDir(env, f.output))
	if err != nil {
		return err
	}
	printProblems(env.Stderr, ix.Problems, true)
	o, err := f.options(env, g, ws, extra)
	if err != nil {
		return err
	}
	req := run.Request{Options: o, Retries: f.retries, RepeatBudget: f.budget, History: f.historyFile(env), Profile: f.profile,
		Warn: func(msg string) { g.warn(env, msg) }}
	if sharded {
		return runShard(cmd, env, ws, ix, req, f, spec, p)
	}
	return execute(cmd, env, ws, ix, req, f, p)
}

// runIndex is the listing a run plans from: built from the sources, or
// read from a metadata file with each file's project detected again from
// its manifests (index.AttachProjects). The root is found from the named
// IDs and paths (namedOptions).
func runIndex(cmd *cobra.Command, env *Env, g *globals, from string, named []string, output string) (*index.Index, error) {
	opts := g.namedOptions(env, named)
	if from == "" {
		if err := excludeOutput(&opts, output); err != nil {
			return nil, err
		}
		return index.Build(cmd.Context(), opts)
	}
	root, err := index.RootOf(opts.Root, env.Dir)
	if err != nil {
		return nil, err
	}
	ix, err := readMetadata(env, root, from)
	if err != nil {
		return nil, err
	}
	opts.Root = root
	if err := ix.AttachProjects(opts); err != nil {
		return nil, err
	}
	return ix, nil
}

// execute runs the request in the workspace and reports it with the
// requested handlers.
func execute(cmd *cobra.Command, env *Env, ws *workspace.Workspace, ix *index.Index, req run.Request, f *runFlags, p *plan.Plan) error {
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	var handlers []run.Handler
	var text *report.Text
	if f.json {
		handlers = append(handlers, report.NewJSON(w))
	} else {
		text = &report.Text{W: w, Verbose: f.verbose, Color: f.color.enabled(env)}
		handlers = append(handlers, text)
	}
	junit := &report.JUnit{}
	if f.junit != "" {
		handlers = append(handlers, junit)
	}
	spec := &specOutput{output: req.Options.Output}
	handlers = append(handlers, spec)
	var prog *progress
	if !f.json {
		prog = newProgress(env.Stderr)
		req.Options.Live, req.Options.Planned = prog.event, prog.planned
	}
	if warn := req.Warn; warn != nil { // a warning clears the live line first, as events do
		req.Warn = func(msg string) { prog.around(func() error { warn(msg); return nil }) }
	}
	all := run.MultiHandler(handlers...)
	h := run.HandlerFunc(func(e testdex.Event) error {
		return prog.around(func() error {
			if err := all.Event(e); err != nil {
				return err
			}
			return w.Flush()
		})
	})
	var sum *run.Summary
	var err error
	if p != nil {
		sum, err = ws.RunPlan(cmd.Context(), ix, p, req, h)
	} else {
		sum, err = ws.Run(cmd.Context(), ix, req, h)
	}
	prog.finish()
	interrupted := errors.Is(err, context.Canceled) && sum != nil
	if err != nil && !interrupted {
		return selectionError(err)
	}
	if text != nil {
		spec.printCost(w)
		text.Summary(sum, req.Options.Timeout)
	}
	if err := spec.write(ix, time.Now()); err != nil {
		return err
	}
	if sum.Covered > 0 {
		fmt.Fprintf(env.Stderr, "testdex: coverage of %d tests recorded (ask 'testdex covering FILE:LINE')\n", sum.Covered)
	}
	if f.junit != "" {
		if err := writeFileAtomic(abs(env, f.junit), func(w io.Writer) error { _, err := junit.WriteTo(w); return err }); err != nil {
			return err
		}
	}
	if interrupted {
		return &ExitError{Code: ExitFailed, Err: errors.New("interrupted")}
	}
	code := run.ExitCode(sum)
	if code == run.ExitPassed && f.failOnFlaky && sum.Flaky > 0 {
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%d flaky test(s) and --fail-on-flaky", sum.Flaky)}
	}
	switch code {
	case run.ExitPassed:
		return nil
	case run.ExitNoMatch:
		if sum.NothingRan() && len(sum.Unmatched)+len(sum.Lost) == 0 {
			why := "the runners reported none (see their output with --verbose or --json)"
			if sum.Unreported > 0 {
				why = fmt.Sprintf("the %d listed tests selected were not reported by their runner (see why with --verbose)", sum.Unreported)
			}
			return &ExitError{Code: code, Err: fmt.Errorf("no test ran: %s", why)}
		}
		if len(sum.Unmatched) == 0 {
			return &ExitError{Code: code, Err: fmt.Errorf("no result for %s: listed, but the runner reported nothing under it (see its output with --verbose or --json)", strings.Join(sum.Lost, ", "))}
		}
		return &ExitError{Code: code, Err: fmt.Errorf("no test matches %s (run 'testdex list' to see test IDs)", strings.Join(sum.Unmatched, ", "))}
	default:
		return &ExitError{Code: code}
	}
}

// selectionError gives a selection that matched nothing its exit code and
// hint.
func selectionError(err error) error {
	var nm *index.NoMatchError
	var ue *workspace.UsageError
	switch {
	case errors.As(err, &ue):
		return usageErr("%v", err)
	case errors.As(err, &nm):
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("%w (run 'testdex list' to see test IDs)", err)}
	case errors.Is(err, run.ErrNoFailures), errors.Is(err, run.ErrOnlyBenchmarks):
		return &ExitError{Code: ExitNoTests, Err: err}
	}
	return err
}

// splitArgs sorts the arguments into IDs and root-relative paths: an
// argument that is a listed ID, or names an existing file or folder, or
// else has the FILE::NAME form.
func splitArgs(ix *index.Index, env *Env, args []string) (ids, paths []string, err error) {
	known := make(map[string]bool, len(ix.Tests))
	for _, t := range ix.Tests {
		known[t.ID] = true
	}
	for _, a := range args {
		switch {
		case known[a]:
			ids = append(ids, a)
		case isPath(env, ix.Root, a):
			rel, err := filepath.Rel(ix.Root, absUnder(env, ix.Root, a))
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return nil, nil, usageErr("%s is outside the root %s (pass --root to run another tree)", a, ix.Root)
			}
			paths = append(paths, filepath.ToSlash(rel))
		default:
			ids = append(ids, a) // Resolve names it by the ID rules, or reports it
		}
	}
	return ids, paths, nil
}

func absUnder(env *Env, root, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if _, err := os.Stat(filepath.Join(env.Dir, p)); err == nil {
		return filepath.Join(env.Dir, p)
	}
	return filepath.Join(root, p)
}

func isPath(env *Env, root, p string) bool {
	_, err := os.Stat(absUnder(env, root, p))
	return err == nil
}
