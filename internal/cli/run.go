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
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/run"
)

type runFlags struct {
	json        bool
	junit       string
	timeout     time.Duration
	testTimeout time.Duration
	jobs        int
	failed      bool
	verbose     bool
}

func newRunCmd(env *Env, g *globals) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run [ID|PATH...] [-- NATIVE-ARGS...]",
		Short: "Run the tests with these IDs or under these paths through their native runners",
		Long: `Run runs exactly the selected tests (IDs as 'testdex list' prints them,
or files and folders) through their native runners, batched per project and
framework, and reports every test under its ID. Arguments after -- go to
the native runner.

Exit status: 0 when every selected test passed, 1 when one failed or the
run timed out, 2 when nothing matched, 3 for a usage error.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runRun(cmd, env, g, f, args) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the event stream as JSON Lines")
	fl.StringVar(&f.junit, "junit", "", "also write a JUnit XML report to this file")
	fl.DurationVar(&f.timeout, "timeout", run.DefaultTimeout, "limit for the whole run (at most 30m)")
	fl.DurationVar(&f.testTimeout, "test-timeout", 0, "per-test limit where the framework has one")
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "batches run at once (default: the number of cores)")
	fl.BoolVar(&f.failed, "failed", false, "rerun exactly the tests that failed in the last run of this root")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "also name passing and skipped tests")
	return cmd
}

func runRun(cmd *cobra.Command, env *Env, g *globals, f *runFlags, args []string) error {
	sel, extra := args, []string(nil)
	if at := cmd.ArgsLenAtDash(); at >= 0 {
		sel, extra = args[:at], args[at:]
	}
	opts := g.indexOptions(env, nil)
	ix, err := index.Build(cmd.Context(), opts)
	if err != nil {
		return err
	}
	printProblems(env.Stderr, ix.Problems, true)
	store := cacheDir(env)
	if f.failed {
		if sel, err = failedIDs(store, ix.Root); err != nil {
			return err
		}
		if sel = stillListed(ix, env, sel); len(sel) == 0 {
			return &ExitError{Code: ExitNoTests, Err: errors.New("none of the last run's failures is still listed (run 'testdex list' to see test IDs)")}
		}
	}
	tests, err := selectTests(ix, env, sel)
	if err != nil {
		return err
	}
	if f.timeout > run.MaxTimeout {
		f.timeout = run.MaxTimeout
	}
	jobs := f.jobs
	if jobs <= 0 {
		jobs = numCPU()
	}
	return execute(cmd, env, ix, tests, run.Options{Extra: extra, Timeout: f.timeout, TestTimeout: f.testTimeout, Jobs: jobs, Env: env.Environ}, f, store)
}

// execute runs the tests and reports them with the requested handlers.
func execute(cmd *cobra.Command, env *Env, ix *index.Index, tests []testdex.Test, o run.Options, f *runFlags, store string) error {
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	var handlers []run.Handler
	var text *report.Text
	if f.json {
		handlers = append(handlers, report.NewJSON(w))
	} else {
		text = &report.Text{W: w, Verbose: f.verbose}
		handlers = append(handlers, text)
	}
	junit := &report.JUnit{}
	if f.junit != "" {
		handlers = append(handlers, junit)
	}
	var prog *progress
	if !f.json {
		prog = newProgress(env.Stderr)
		o.Live = prog.event
	}
	sum, err := run.Run(cmd.Context(), ix, tests, o, run.HandlerFunc(func(e testdex.Event) error {
		return prog.around(func() error {
			for _, h := range handlers {
				if err := h.Event(e); err != nil {
					return err
				}
			}
			return w.Flush()
		})
	}))
	prog.finish()
	interrupted := errors.Is(err, context.Canceled) && sum != nil
	if err != nil && !interrupted {
		return err
	}
	if text != nil {
		var leaked []string
		for _, l := range sum.Leaked {
			leaked = append(leaked, fmt.Sprintf("process %d (%s) from %s", l.PID, l.Command, l.Batch))
		}
		report.Summary(w, sum.Passed, sum.Failed, sum.Skipped, sum.TimedOut, sum.Timeout.String(), leaked, sum.End.Sub(sum.Start).Seconds())
	}
	if f.junit != "" {
		if err := writeFileAtomic(abs(env, f.junit), func(w io.Writer) error { _, err := junit.WriteTo(w); return err }); err != nil {
			return err
		}
	}
	if interrupted { // the saved failures of the last complete run stay
		return &ExitError{Code: ExitFailed, Err: errors.New("interrupted")}
	}
	if store != "" {
		if err := run.SaveFailures(store, ix.Root, sum.Failures); err != nil {
			fmt.Fprintln(env.Stderr, "testdex: warning: "+err.Error())
		}
	}
	if !sum.OK() {
		return &ExitError{Code: ExitFailed}
	}
	return nil
}

// selectTests resolves the arguments: an ID as listed (its descendants run
// with it), or a file or folder (every test under it); no argument selects
// everything (index.Resolve).
func selectTests(ix *index.Index, env *Env, args []string) ([]testdex.Test, error) {
	known := make(map[string]bool, len(ix.Tests))
	for _, t := range ix.Tests {
		known[t.ID] = true
	}
	var ids, paths []string
	for _, a := range args {
		switch {
		case known[a]:
			ids = append(ids, a)
		case isPath(env, ix.Root, a):
			rel, err := filepath.Rel(ix.Root, absUnder(env, ix.Root, a))
			if err != nil || strings.HasPrefix(rel, "..") {
				return nil, usageErr("%s is outside the root %s (pass --root to run another tree)", a, ix.Root)
			}
			paths = append(paths, filepath.ToSlash(rel))
		default:
			ids = append(ids, a) // unknown: Resolve reports it
		}
	}
	tests, err := ix.Resolve(ids, paths)
	var nm *index.NoMatchError
	if errors.As(err, &nm) {
		return nil, &ExitError{Code: ExitNoTests, Err: fmt.Errorf("%w (run 'testdex list' to see test IDs)", err)}
	}
	return tests, err
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

// stillListed keeps the failed IDs that still name a test (listed, or a
// row under a listed test); a test renamed or removed since is reported
// and left out rather than failing the whole rerun.
func stillListed(ix *index.Index, env *Env, ids []string) []string {
	var keep []string
	for _, id := range ids {
		if _, err := ix.Resolve([]string{id}, nil); err != nil {
			fmt.Fprintf(env.Stderr, "testdex: warning: %s failed last time but is no longer listed; not rerun\n", id)
			continue
		}
		keep = append(keep, id)
	}
	return keep
}

func failedIDs(store, root string) ([]string, error) {
	fs, err := run.LoadFailures(store, root)
	if err != nil {
		return nil, err
	}
	if len(fs) == 0 {
		return nil, &ExitError{Code: ExitNoTests, Err: fmt.Errorf("no failures recorded for %s (run 'testdex run' first)", root)}
	}
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	return ids, nil
}
