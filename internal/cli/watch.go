package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/run"
	"github.com/testdex/testdex/watch"
)

type watchFlags struct {
	json        bool
	verbose     bool
	timeout     time.Duration
	testTimeout time.Duration
	jobs        int
	noCover     bool
	color       colorMode
}

func newWatchCmd(env *Env, g *globals) *cobra.Command {
	f := &watchFlags{}
	cmd := &cobra.Command{
		Use:   "watch [PATH...]",
		Short: "Rerun the tests each save can affect, and the failing ones, until you quit",
		Long: `Watch watches the root (every folder the listing reads: not .git,
node_modules, target or what .gitignore skips) and, after each save,
runs the tests the change can affect, as 'testdex affected' selects
them, together with the tests still failing, through their native
runners, as 'testdex run' runs them. A failing test is rerun with every
change until it passes. It begins with the work tree against HEAD, as
'run --affected'. PATHs limit the tests run, not the files watched.

On a terminal, keys act at once: a runs every test, f the failing ones,
t filters by test name, p by file path (a regular expression; empty
clears it), Enter reruns the last selection, q quits.

--json prints the events of 'run --json', and before each cycle's
events one {"action":"cycle","trigger":...,"changed":[...],"selected":N}.

Exit status when it stops (q, Ctrl-C): 0 when no test is failing, 1
when some are or a run was cut short, 3 for a usage error.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runWatch(cmd, env, g, f, args) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.json, "json", false, "print the event stream as JSON Lines, with one cycle event per cycle")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "also name passing, skipped and unreported tests")
	fl.DurationVar(&f.timeout, "timeout", run.DefaultTimeout, "limit for each cycle's run (at most 30m)")
	fl.DurationVar(&f.testTimeout, "test-timeout", 0, "per-test limit where the framework has one")
	fl.IntVarP(&f.jobs, "jobs", "j", numCPU(), "batches run at once")
	fl.BoolVar(&f.noCover, "no-coverage", false, "ignore the recorded coverage, select by the static evidence alone")
	fl.Var(&f.color, "color", "colour the results: auto (when stdout is a terminal and NO_COLOR is unset), always or never")
	return cmd
}

func runWatch(cmd *cobra.Command, env *Env, g *globals, f *watchFlags, args []string) error {
	rf := runFlags{timeout: f.timeout, testTimeout: f.testTimeout, jobs: f.jobs}
	if err := rf.check(); err != nil {
		return err
	}
	opts := g.namedOptions(env, args)
	root, err := index.RootOf(opts.Root, env.Dir)
	if err != nil {
		return err
	}
	opts.Root = root
	var paths []string
	for _, a := range args {
		p := absUnder(env, root, a)
		if _, err := os.Stat(p); err != nil {
			return usageErr("%s does not exist", a)
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return usageErr("%s is outside the root %s (pass --root to watch another tree)", a, root)
		}
		paths = append(paths, filepath.ToSlash(rel))
	}
	o := watch.Options{
		Index: opts, Paths: paths, CacheDir: cacheDir(env), NoCoverage: f.noCover,
		Run:    run.Options{Timeout: f.timeout, TestTimeout: f.testTimeout, Jobs: f.jobs, Env: env.Environ},
		Stdout: env.Stdout, JSON: f.json, Verbose: f.verbose, Color: !f.json && f.color.enabled(env),
		Warn: func(msg string) { g.warn(env, msg) },
	}
	// Keys come from a terminal only: a pipe's end of input (an agent's
	// closed stdin, /dev/null) must not end the loop.
	if in, ok := env.Stdin.(*os.File); ok {
		if restore, ok := watch.Cbreak(in); ok {
			defer restore()
			o.Keys = in
		}
	}
	o.Screen = !f.json && isTerminal(env.Stdout)
	if !f.json {
		o.NewProgress = func() watch.Progress { return watchProgress{newProgress(env.Stderr)} }
	}
	res, err := watch.Run(cmd.Context(), o)
	if err != nil {
		return err
	}
	if res.Interrupted {
		return &ExitError{Code: ExitFailed, Err: errors.New("interrupted")}
	}
	if res.Failing > 0 {
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("%d tests still failing", res.Failing)}
	}
	return nil
}

// watchProgress is run's progress line, shown for each cycle of watch.
type watchProgress struct{ p *progress }

func (w watchProgress) Planned(n int)               { w.p.planned(n) }
func (w watchProgress) Live(e testdex.Event)        { w.p.event(e) }
func (w watchProgress) Around(f func() error) error { return w.p.around(f) }
func (w watchProgress) Finish()                     { w.p.finish() }
