// Command mutbench is the mutation benchmark of `testdex affected`: see
// package mutbench, and scripts/mutbench.sh, which installs the projects,
// builds testdex and runs it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/testdex/testdex/internal/fidelity"
	"github.com/testdex/testdex/internal/mutbench"
)

// modeFlags collects the repeated -mode NAME=ARGS flags.
type modeFlags []mutbench.Mode

func (m *modeFlags) String() string { return fmt.Sprint(*m) }

// Set reads NAME[@BIN]=ARGS.
func (m *modeFlags) Set(v string) error {
	name, args, _ := strings.Cut(v, "=")
	name, bin, _ := strings.Cut(name, "@")
	if name == "" {
		return fmt.Errorf("-mode wants NAME[@BIN]=ARGS, e.g. function=--level=function")
	}
	if bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			return err
		}
		bin = abs
	}
	*m = append(*m, mutbench.Mode{Name: name, Args: strings.Fields(args), Bin: bin})
	return nil
}

func main() {
	var cfg mutbench.Config
	var modes modeFlags
	var projects, jsonOut string
	var keep, quiet bool
	home, _ := os.UserHomeDir()
	flag.StringVar(&cfg.Testdex, "testdex", "", "the testdex binary (required)")
	flag.StringVar(&cfg.Label, "label", "", "what testdex is (its revision), for the report's first line")
	flag.IntVar(&cfg.N, "n", 20, "compiling mutants per project")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "the seed the mutants are drawn with")
	flag.StringVar(&projects, "projects", "", "comma-separated project names (default: all)")
	flag.StringVar(&jsonOut, "json", "", "also write the whole report, every mutant included, to this JSON file")
	flag.StringVar(&cfg.FidelityDir, "fidelity-dir", fidelity.Dir(), "where scripts/setup/fidelity.sh installed its projects")
	flag.StringVar(&cfg.Dir, "dir", filepath.Join(home, ".cache", "testdex-mutbench"), "where scripts/mutbench.sh installed its projects")
	flag.DurationVar(&cfg.Timeout, "timeout", 0, "a mutant's suite time limit (default: 5 times the unmutated suite's, at least 3m)")
	flag.Var(&modes, "mode", "NAME[@BIN]=ARGS: a way of asking testdex affected, ARGS added to it, BIN instead of -testdex (repeatable; default: default=)")
	flag.StringVar(&cfg.Change, "change", "files", "how testdex learns the change: files (--files FILE) or git (a work tree against HEAD)")
	flag.BoolVar(&cfg.Coverage, "coverage", false, "record coverage once per project (testdex run --coverage) before the mutants, and check testdex covering FILE:LINE of each killed mutant's line")
	flag.BoolVar(&keep, "keep", false, "keep the project copies (their folder is printed)")
	flag.BoolVar(&quiet, "q", false, "no progress lines on stderr")
	flag.Parse()
	os.Exit(run(cfg, modes, projects, jsonOut, keep, quiet))
}

func run(cfg mutbench.Config, modes modeFlags, projects, jsonOut string, keep, quiet bool) int {
	if cfg.Testdex == "" {
		fmt.Fprintln(os.Stderr, "mutbench: -testdex BIN is required (scripts/mutbench.sh builds it)")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if projects != "" {
		cfg.Projects = strings.Split(projects, ",")
	}
	cfg.Modes = modes
	if !quiet {
		cfg.Progress = os.Stderr
	}
	if err := setup(&cfg, keep); err != nil {
		fmt.Fprintln(os.Stderr, "mutbench:", err)
		return 1
	}
	if !keep {
		defer os.RemoveAll(cfg.Work)
	}
	rep, err := mutbench.Run(ctx, cfg)
	if rep != nil {
		rep.Markdown(os.Stdout)
		if jsonOut != "" {
			data, _ := json.MarshalIndent(rep, "", "  ")
			if werr := os.WriteFile(jsonOut, data, 0o644); werr != nil && err == nil {
				err = werr
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutbench:", err)
		return 1
	}
	return 0
}

// setup fills in the work folder, the recorders' folder and the
// environment: a discovery cache of testdex's own in the work folder
// unless TESTDEX_CACHE_DIR is set.
func setup(cfg *mutbench.Config, keep bool) error {
	work, err := os.MkdirTemp("", "mutbench-")
	if err != nil {
		return err
	}
	if cfg.Work, err = filepath.EvalSymlinks(work); err != nil {
		return err
	}
	if keep {
		fmt.Fprintln(os.Stderr, "mutbench: the copies are in", cfg.Work)
	}
	if cfg.Testdex, err = filepath.Abs(cfg.Testdex); err != nil {
		return err
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	cfg.Recorders = filepath.Join(wd, "internal", "fidelity", "testdata", "recorders")
	if _, err := os.Stat(cfg.Recorders); err != nil {
		return fmt.Errorf("the fidelity recorders are not in %s: run mutbench from the repository root", cfg.Recorders)
	}
	cfg.Env = os.Environ()
	if os.Getenv("TESTDEX_CACHE_DIR") == "" {
		cfg.Env = append(cfg.Env, "TESTDEX_CACHE_DIR="+filepath.Join(cfg.Work, "testdex-cache"))
	}
	return nil
}
