// Package cli implements the testdex command line. It holds no discovery
// logic: every subcommand is a thin adapter over package index.
//
// Only cmd/testdex exits; Main returns the exit code, which is one of the
// documented Exit* constants, carried through the call stack by an
// *ExitError.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

// The exit codes of testdex, stable and documented in docs/contract.md.
const (
	ExitOK       = 0 // success: tests were found (list) or all passed (run)
	ExitFailed   = 1 // a test failed or timed out (run)
	ExitNoTests  = 2 // no tests found or none matched
	ExitUsage    = 3 // bad command line, configuration, pattern or path
	ExitInternal = 4 // anything else: I/O or internal failure
)

// ExitError carries an exit code with its message. An empty message prints
// nothing (the output already said it).
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Env is what the command reads from its surroundings, injected so tests
// can run it in-process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
	// Environ is the environment handed to child processes.
	Environ []string
	// Dir is the working folder.
	Dir string
	// ShortLived, when set, is called by a command that ends soon after
	// its work (list): cmd/testdex then leaves the collector off until the
	// heap is large, which a long-lived command (watch, mcp) must not do.
	ShortLived func()
}

// Main runs testdex with args (without the program name) and returns the
// exit code.
func Main(ctx context.Context, args []string, env Env) int {
	root := newRoot(&env)
	root.SetArgs(args)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	code, msg := classify(err)
	if msg != "" {
		fmt.Fprintln(env.Stderr, "testdex: "+msg)
	}
	return code
}

// classify maps an error to its exit code and message.
func classify(err error) (int, string) {
	var ee *ExitError
	var nf *index.NotFoundError
	var out *index.OutsideRootError
	var nt *index.NoTestsError
	var badConfig *config.InvalidError
	switch {
	case errors.As(err, &ee):
		return ee.Code, ee.Error()
	case errors.As(err, &nt):
		return ExitNoTests, err.Error()
	case errors.As(err, &nf), errors.As(err, &out), errors.As(err, &badConfig), errors.Is(err, errUsage):
		return ExitUsage, err.Error()
	case isFlagError(err):
		return ExitUsage, err.Error() + " (see 'testdex help')"
	}
	return ExitInternal, err.Error()
}

var errUsage = errors.New("usage")

// usageErr marks err as the user's mistake (exit code 3).
func usageErr(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, a...)...)
}

func isFlagError(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown flag") || strings.HasPrefix(s, "unknown shorthand") ||
		strings.HasPrefix(s, "unknown command") || strings.Contains(s, "flag needs an argument") ||
		strings.HasPrefix(s, "invalid argument") || strings.Contains(s, "accepts ") ||
		strings.HasPrefix(s, "requires at least")
}

// globals are the flags every subcommand shares.
type globals struct {
	root       string
	config     string
	noCache    bool
	quiet      bool
	cpuProfile string
}

func newRoot(env *Env) *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:           "testdex",
		Short:         "Find, understand and run every test in a repository",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&g.root, "root", "", "the folder IDs and paths are relative to (default: the current folder, or the .git top of named paths outside it)")
	root.PersistentFlags().StringVar(&g.config, "config", "", "configuration file (default: ROOT/testdex.toml when present)")
	root.PersistentFlags().BoolVar(&g.noCache, "no-cache", false, "do not read or write the discovery cache")
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "do not print warnings (errors still are)")
	root.PersistentFlags().StringVar(&g.cpuProfile, "cpuprofile", "", "write a CPU profile to this file (for performance work)")
	var stopProfile func()
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if g.cpuProfile == "" {
			return nil
		}
		f, err := os.Create(abs(env, g.cpuProfile))
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
		return nil
	}
	root.PersistentPostRun = func(*cobra.Command, []string) {
		if stopProfile != nil {
			stopProfile()
		}
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &ExitError{Code: ExitUsage, Err: fmt.Errorf("%w (see 'testdex %s --help')", err, c.Name())}
	})
	root.AddCommand(newListCmd(env, g), newCheckCmd(env, g), newIndexCmd(env, g), newWhyCmd(env, g), newRunCmd(env, g), newFailuresCmd(env, g), newShowCmd(env, g), newAffectedCmd(env, g), newCoveringCmd(env, g), newCoverageCmd(env, g), newWatchCmd(env, g), newMCPCmd(env, g), newReportCmd(env, g), newHistoryCmd(env, g), newFlakyCmd(env, g), newPlanCmd(env, g), newShardsCmd(env, g), newMergeCmd(env, g), newVersionCmd(env))
	return root
}

// indexOptions builds the discovery options the global flags describe for
// a command listing paths (nil: the whole root); the root is found from
// them as namedOptions finds it.
func (g *globals) indexOptions(env *Env, paths []string) index.Options {
	o := g.namedOptions(env, paths)
	o.Paths = paths
	return o
}

// workspace opens the root the global flags and the named paths give
// (namedOptions): the engine every verb goes through.
func (g *globals) workspace(env *Env, named []string) (*workspace.Workspace, error) {
	return workspace.Open(g.namedOptions(env, named), cacheDir(env), env.Environ)
}

// warn prints a warning on stderr, unless -q.
func (g *globals) warn(env *Env, msg string) {
	if !g.quiet {
		fmt.Fprintln(env.Stderr, "testdex: warning: "+report.Escape(msg))
	}
}

// namedOptions builds the discovery options the global flags describe for
// a command whose arguments name paths (and, for run, IDs): the root is
// --root when given, else index.RootFor's: the current folder, or the
// repository (.git top) of named paths that all lie outside it. Every
// command that takes paths comes here, so they agree on the root.
func (g *globals) namedOptions(env *Env, named []string) index.Options {
	o := index.Options{Root: g.root, Dir: env.Dir, ConfigPath: g.config}
	switch {
	case o.Root == "":
		o.Root = index.RootFor(env.Dir, named)
	case !filepath.IsAbs(o.Root):
		o.Root = filepath.Join(env.Dir, o.Root)
	}
	if o.ConfigPath != "" && !filepath.IsAbs(o.ConfigPath) {
		o.ConfigPath = filepath.Join(env.Dir, o.ConfigPath)
	}
	if !g.noCache {
		o.CacheDir = cacheDir(env)
	}
	return o
}

// cacheDir is TESTDEX_CACHE_DIR, else the user cache folder's testdex
// folder ($XDG_CACHE_HOME or ~/.cache on Unix); "" disables caching.
func cacheDir(env *Env) string {
	if d := env.Getenv("TESTDEX_CACHE_DIR"); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	if d := env.Getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "testdex")
	}
	if h := env.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "testdex")
	}
	return ""
}
