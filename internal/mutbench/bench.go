package mutbench

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/testdex/testdex/internal/fidelity"
	"github.com/testdex/testdex/internal/treecopy"
)

// Config says what to run. The zero values of N, Timeout, Modes and
// Change mean 20 mutants, five times the unmutated suite's time (at least
// three minutes), one mode "default" without extra arguments, and "files".
type Config struct {
	Testdex     string   // the testdex binary
	Label       string   // what testdex is, for the report (its revision)
	Projects    []string // names from Projects; empty: all
	N           int      // compiling mutants per project
	Seed        uint64
	FidelityDir string // where scripts/setup/fidelity.sh installed its projects
	Dir         string // where scripts/mutbench.sh installed its own
	Work        string // where the copies are made (the caller removes it)
	Recorders   string // internal/fidelity/testdata/recorders, absolute
	Timeout     time.Duration
	// Modes are the ways testdex is asked, each its own columns: a name and
	// the arguments added to `testdex affected` (the hook for a
	// function-level mode: -mode function=--level=function).
	Modes []Mode
	// Change is how testdex learns the change: "files" (--files FILE) or
	// "git" (the copy is a repository whose HEAD is unmutated).
	Change string
	// Coverage records coverage once per project (`testdex run
	// --coverage` on the unmutated copy) before the mutants, so that the
	// modes' `testdex affected` can use it (a mode with --no-coverage
	// keeps the static evidence), and asks `testdex covering FILE:LINE`
	// of each mutated line on the unmutated copy: for a killed mutant,
	// every failing test should be among the tests that executed it.
	Coverage bool
	// Env is the environment of every command (TESTDEX_CACHE_DIR set).
	Env      []string
	Progress io.Writer // one line per mutant; nil: quiet
}

// Mode is one way of asking `testdex affected`: the arguments added, and
// the testdex binary when it is not Config.Testdex (to set two builds
// side by side on the same mutants, whose suites run once).
type Mode struct {
	Name string   `json:"name"`
	Args []string `json:"args"`
	Bin  string   `json:"bin,omitempty"`
}

func (c *Config) defaults() {
	if c.N <= 0 {
		c.N = 20
	}
	if len(c.Modes) == 0 {
		c.Modes = []Mode{{Name: "default"}}
	}
	if c.Change == "" {
		c.Change = "files"
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
}

// Run mutates each project of cfg and returns the report. A project that
// is not installed, or whose unmutated suite cannot run, is reported as
// such; the others go on.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.defaults()
	if cfg.Change != "files" && cfg.Change != "git" {
		return nil, fmt.Errorf("mutbench: -change is files or git, not %q", cfg.Change)
	}
	rep := &Report{Started: time.Now(), Testdex: cfg.Label, Seed: cfg.Seed, N: cfg.N, Change: cfg.Change, Modes: cfg.Modes}
	for _, p := range Projects {
		if len(cfg.Projects) > 0 && !slices.Contains(cfg.Projects, p.Name) {
			continue
		}
		start := time.Now()
		pr := runProject(ctx, &cfg, p)
		pr.WallSeconds = time.Since(start).Seconds()
		pr.summarize(cfg.Modes)
		rep.Projects = append(rep.Projects, pr)
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	rep.WallSeconds = time.Since(rep.Started).Seconds()
	return rep, nil
}

// home is the folder p is installed in.
func (c *Config) home(p Project) string {
	if p.Home == "fidelity" {
		return filepath.Join(c.FidelityDir, p.Name)
	}
	return filepath.Join(c.Dir, p.Name)
}

// installed reports whether p's setup finished: its stamp .ok-NAME lies
// beside its folder (both setups stamp that way).
func (c *Config) installed(p Project) bool {
	_, err := os.Stat(filepath.Join(filepath.Dir(c.home(p)), ".ok-"+p.Name))
	return err == nil
}

// projectRun is the state of one project's benchmark.
type projectRun struct {
	cfg     *Config
	p       Project
	dir     string // the copy
	x       *Exec
	l       *listing
	base    fidelity.Results
	baseKey []fidelity.Key // the unmutated suite's tests, for the cost
}

func runProject(ctx context.Context, cfg *Config, p Project) *ProjectResult {
	pr := &ProjectResult{Name: p.Name, Version: p.Version, Framework: p.Framework}
	if !cfg.installed(p) {
		pr.Skipped = fmt.Sprintf("not installed in %s: run scripts/mutbench.sh setup", cfg.home(p))
		return pr
	}
	r, err := prepare(ctx, cfg, p, pr)
	if err != nil {
		pr.Err = err.Error()
		return pr
	}
	files, err := sources(ctx, r.dir, p, r.l.files)
	if err != nil {
		pr.Err = err.Error()
		return pr
	}
	sites, err := findSites(r.dir, p.Lang, files)
	if err != nil {
		pr.Err = err.Error()
		return pr
	}
	pr.SourceFiles, pr.Sites = len(files), len(sites)
	ordered := order(sites, cfg.Seed, p.Name)
	if cfg.Coverage {
		start := time.Now()
		if err := r.record(ctx); err != nil {
			pr.Err = err.Error()
			return pr
		}
		pr.CoverageSeconds = time.Since(start).Seconds()
	}
	if len(ordered) > 0 {
		r.warm(ctx, ordered[0].File)
	}
	for _, s := range ordered {
		if pr.Compiled >= cfg.N || pr.Tried >= 3*cfg.N || ctx.Err() != nil {
			break
		}
		m := r.mutant(ctx, s)
		pr.add(m)
		fmt.Fprintf(cfg.Progress, "[%s %d/%d] %s\n", p.Name, pr.Compiled, cfg.N, m.line())
	}
	return pr
}

// prepare copies the project, lists its tests and runs its unmutated
// suite once.
func prepare(ctx context.Context, cfg *Config, p Project, pr *ProjectResult) (*projectRun, error) {
	dir := filepath.Join(cfg.Work, p.Name)
	// The copy takes every file, ignored by git or not; the installed
	// dependencies are linked.
	if err := treecopy.Copy(cfg.home(p), dir, p.Link); err != nil {
		return nil, fmt.Errorf("copy %s: %w", p.Name, err)
	}
	if cfg.Change == "git" {
		if err := gitInit(ctx, dir, []string{"/node_modules", "/.venv", "/target"}); err != nil {
			return nil, err
		}
	}
	env := fidelity.ProjectEnv(cfg.Env, dir)
	if p.Env != nil {
		env = append(env, p.Env(dir, cfg.Recorders)...)
	}
	x := &Exec{Ctx: ctx, Dir: dir, Env: env, Recorders: cfg.Recorders, Out: filepath.Join(cfg.Work, p.Name+".report"), Timeout: 15 * time.Minute}
	r := &projectRun{cfg: cfg, p: p, dir: dir, x: x}
	if p.Check != nil {
		if err := p.Check(x); err != nil {
			return nil, err
		}
	}
	out, _, err := r.testdex(ctx, "", "list", "--json")
	if err != nil {
		return nil, err
	}
	recs, err := parseRecords(out)
	if err != nil {
		return nil, fmt.Errorf("testdex list --json: %w", err)
	}
	r.l = newListing(recs)
	start := time.Now()
	r.base, err = r.native()
	if err != nil {
		return nil, fmt.Errorf("the unmutated suite: %w", err)
	}
	pr.BaselineSeconds = time.Since(start).Seconds()
	for k, o := range r.base {
		if k.Name != "" {
			r.baseKey = append(r.baseKey, k)
		}
		if o == fidelity.Fail {
			pr.BaselineFailing++
		}
	}
	pr.Tests, pr.TestFiles = len(r.baseKey), len(r.l.files)
	x.Timeout = cfg.Timeout
	if x.Timeout == 0 {
		x.Timeout = max(3*time.Minute, 5*time.Since(start))
	}
	return r, nil
}

// native runs the whole suite with a fresh report file.
func (r *projectRun) native() (fidelity.Results, error) {
	_ = os.Remove(r.x.Out)
	return r.p.Native(r.x)
}

// warm asks each mode once before the mutants, so that the selection
// times are those of a warm cache.
func (r *projectRun) warm(ctx context.Context, file string) {
	for _, m := range r.cfg.Modes {
		_, _, _ = r.testdex(ctx, m.Bin, r.affectedArgs(file, m)...)
	}
}

// mutant applies s, runs the suite and asks testdex.
func (r *projectRun) mutant(ctx context.Context, s Site) *Mutant {
	m := &Mutant{Site: s}
	var covering *selection
	if r.cfg.Coverage {
		covering = r.covering(ctx, s)
	}
	restore, err := s.Apply(r.dir)
	if err != nil {
		m.Err = err.Error()
		return m
	}
	defer func() {
		if err := restore(); err != nil && m.Err == "" {
			m.Err = "restore: " + err.Error()
		}
	}()
	if r.p.Compiles != nil {
		if err := r.p.Compiles(r.x, s.File); errors.Is(err, errNoCompile) {
			m.NoCompile = err.Error()
			return m
		} else if err != nil {
			m.Err = err.Error()
			return m
		}
	}
	start := time.Now()
	res, err := r.native()
	m.RunSeconds = time.Since(start).Seconds()
	switch {
	case errors.Is(err, errNoCompile):
		m.NoCompile = err.Error()
		return m
	case errors.Is(err, ErrTimeout):
		m.TimedOut = true
	case err != nil:
		m.Err = err.Error()
		return m
	}
	failing := newlyFailing(r.base, res)
	sels := make([]*selection, len(r.cfg.Modes))
	m.Modes = make([]ModeResult, len(r.cfg.Modes))
	for i, mode := range r.cfg.Modes {
		sels[i], m.Modes[i] = r.ask(ctx, mode, s.File)
	}
	if r.judge(m, sels, failing) && !m.TimedOut {
		// A test testdex missed: is its failure the mutant's? Run the
		// suite again; a test failing once only is flaky, not missed.
		if again, err := r.native(); err == nil {
			confirmed, flaky := split(failing, newlyFailing(r.base, again))
			for _, k := range flaky {
				m.Flaky = append(m.Flaky, k.String())
			}
			m.Flaky = capList(m.Flaky)
			r.judge(m, sels, confirmed)
			failing = confirmed
		}
	}
	if covering != nil {
		n := 0
		for _, k := range r.baseKey {
			if covering.hasTest(r.l, k) {
				n++
			}
		}
		c := ratio(n, len(r.baseKey))
		m.LineCostTests = &c
	}
	if covering != nil && m.NFailing > 0 {
		m.CoveringChecked = true
		for _, k := range failing {
			if !covering.hasTest(r.l, k) {
				m.CoveringMissed = append(m.CoveringMissed, k.String())
			}
		}
		m.CoveringMissed = capList(m.CoveringMissed)
	}
	return m
}

// judge records the failing tests on m and, per mode, whether its
// selection holds them; it reports whether a mode missed one.
func (r *projectRun) judge(m *Mutant, sels []*selection, failing []fidelity.Key) (missed bool) {
	m.NFailing, m.Failing = len(failing), nil
	for _, k := range failing {
		m.Failing = append(m.Failing, k.String())
	}
	m.Failing = capList(m.Failing)
	for i, sel := range sels {
		mr := &m.Modes[i]
		mr.SafeFile, mr.SafeTest, mr.MissedFiles, mr.Missed = true, true, nil, nil
		for _, k := range failing {
			if !sel.hasFile(r.l, k) {
				mr.SafeFile = false
				mr.MissedFiles = append(mr.MissedFiles, k.String())
			}
			if !sel.hasTest(r.l, k) {
				mr.SafeTest = false
				mr.Missed = append(mr.Missed, k.String())
			}
		}
		mr.MissedFiles, mr.Missed = capList(mr.MissedFiles), capList(mr.Missed)
		missed = missed || !mr.SafeTest || !mr.SafeFile
	}
	return missed
}

// split divides the first run's failing tests into those the second run
// confirms and those it does not (flaky).
func split(first, second []fidelity.Key) (confirmed, flaky []fidelity.Key) {
	again := map[fidelity.Key]bool{}
	for _, k := range second {
		again[k] = true
	}
	for _, k := range first {
		if again[k] {
			confirmed = append(confirmed, k)
		} else {
			flaky = append(flaky, k)
		}
	}
	return confirmed, flaky
}

// maxListed caps the tests a mutant's record lists.
const maxListed = 20

// newlyFailing are the tests failing in res that did not fail unmutated.
// A Go package's own failure (no test named) is left out when a test of
// the package failed: go test reports both. Tests the runner cancelled
// before they began (node:test, when a test hangs and the file's event
// loop empties, cancels it and every test not yet begun, and reports
// them all failed) count only when no other test failed: a test that
// never began executed nothing, so no selection can owe it, while the
// test that hung began, counts as failed and must be selected.
func newlyFailing(base, res fidelity.Results) []fidelity.Key {
	var out []fidelity.Key
	named := map[string]bool{}
	failed := slices.DeleteFunc(res.Failed(), func(k fidelity.Key) bool { return base[k] == fidelity.Fail })
	if len(failed) == 0 {
		for k, o := range res {
			if o == cancelled && base[k] != fidelity.Fail && base[k] != cancelled {
				failed = append(failed, k)
			}
		}
		slices.SortFunc(failed, func(a, b fidelity.Key) int { return cmp.Compare(a.String(), b.String()) })
	}
	for _, k := range failed {
		if base[k] == fidelity.Fail {
			continue
		}
		out = append(out, k)
		if k.Name != "" {
			named[k.Scope] = true
		}
	}
	return slices.DeleteFunc(out, func(k fidelity.Key) bool {
		return k.Framework == "go" && k.Name == "" && named[k.Scope]
	})
}

// ask asks testdex in one mode which tests the mutated file affects, and
// measures the cost of its answer.
func (r *projectRun) ask(ctx context.Context, mode Mode, file string) (*selection, ModeResult) {
	mr := ModeResult{Mode: mode.Name}
	out, took, err := r.testdex(ctx, mode.Bin, r.affectedArgs(file, mode)...)
	mr.SelectionMS = float64(took.Microseconds()) / 1000
	var recs []record
	if err == nil {
		recs, err = parseRecords(out)
	}
	if err != nil {
		mr.Err = err.Error()
	}
	sel := newSelection(recs, r.l)
	mr.Selected, mr.SelectedFiles = len(recs), len(sel.files)
	n := 0
	for _, k := range r.baseKey {
		if sel.hasTest(r.l, k) {
			n++
		}
	}
	mr.CostTests = ratio(n, len(r.baseKey))
	files := 0
	for f := range sel.files {
		if r.l.files[f] {
			files++
		}
	}
	mr.CostFiles = ratio(files, len(r.l.files))
	return sel, mr
}

func capList(s []string) []string {
	if len(s) > maxListed {
		return s[:maxListed]
	}
	return s
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

func (r *projectRun) affectedArgs(file string, m Mode) []string {
	args := []string{"affected", "--json"}
	if r.cfg.Change == "files" {
		args = append(args, "--files", file)
	}
	return append(args, m.Args...)
}

// testdex runs the testdex binary bin (default Config.Testdex) on the
// copy and returns its stdout and wall time; a non-zero exit is an error
// quoting its stderr.
func (r *projectRun) testdex(ctx context.Context, bin string, args ...string) ([]byte, time.Duration, error) {
	if bin == "" {
		bin = r.cfg.Testdex
	}
	x := &Exec{Ctx: ctx, Dir: r.dir, Env: r.cfg.Env, Timeout: 5 * time.Minute}
	full := append([]string{"--root", r.dir}, args...)
	start := time.Now()
	var out, errb bytes.Buffer
	code, err := x.run(&out, &errb, bin, full...)
	took := time.Since(start)
	if err == nil && code != 0 {
		err = fmt.Errorf("testdex %v exited %d: %s", args, code, firstLines(errb.String(), 5))
	}
	return out.Bytes(), took, err
}
