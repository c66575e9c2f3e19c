// Package workspace is the one engine every front end of testdex calls:
// it opens a root once and offers the verbs (list, run, affected,
// covering, failures) over it, so that the CLI, the MCP server and watch
// only translate requests and answers (gopls' shape: one snapshot, thin
// front ends). A verb exists here once; a second copy in a front end is a
// defect.
//
//	cli ─────┐
//	mcpserver ┼──► Workspace ──► index    (List: the listing)
//	watch ───┘        │     ├──► changes  (Affected: the change set, the graph, the selection)
//	                  │     ├──► coverage (Covering: which tests ran a line)
//	                  │     └──► run      (Run, Failures: the session and its stores)
//	                  └──► internal/state (every per-root store, one naming rule)
package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// Workspace is one root opened for testdex's verbs. Its fields are
// read-only after Open; it is safe for concurrent use (each verb builds
// what it needs; the stores on disk serialise themselves).
type Workspace struct {
	// Root is the absolute, clean root: IDs and paths are relative to it.
	Root string
	// CacheDir keeps every per-root store (failures, passing state,
	// coverage, verdicts); "" keeps nothing (TESTDEX_CACHE_DIR=off). The
	// listing's own cache is the listing options' (--no-cache turns off
	// that one alone).
	CacheDir string
	// Environ is the environment of the processes a verb starts.
	Environ []string

	opts index.Options
}

// Open opens the root o names (o.Root, or found from o.Dir as
// index.RootOf finds it). o is the listing's options, which every verb
// lists with; stores is the folder of the per-root stores ("" keeps
// none); environ the environment of the processes the verbs start.
func Open(o index.Options, stores string, environ []string) (*Workspace, error) {
	root, err := index.RootOf(o.Root, o.Dir)
	if err != nil {
		return nil, err
	}
	o.Root = root
	return &Workspace{Root: root, CacheDir: stores, Environ: environ, opts: o}, nil
}

// List builds the listing of the root, or of the named root-relative
// paths (nil: everything): the one loader every verb uses.
func (w *Workspace) List(ctx context.Context, paths []string) (*index.Index, error) {
	o := w.opts
	o.Paths = paths
	return index.Build(ctx, o)
}

// ListOptions are the listing's options, for a front end that must build
// them itself (watch lists from the files its watcher holds).
func (w *Workspace) ListOptions() index.Options { return w.opts }

// OutsideError is a path a front end named that lies outside the root.
type OutsideError struct{ Path, Root, Why string }

func (e *OutsideError) Error() string {
	return fmt.Sprintf("%s %s the root %s (name paths inside it)", e.Path, e.Why, e.Root)
}

// MissingError is a path a front end named that does not exist.
type MissingError struct{ Path, Root string }

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s does not exist in the root %s", e.Path, e.Root)
}

// Confine turns paths named by a front end (root-relative or absolute)
// into root-relative, slash-separated ones. A path outside the root, by
// ".." or by a symbolic link, is an *OutsideError; one that does not
// exist is a *MissingError.
func (w *Workspace) Confine(paths []string) ([]string, error) {
	var out []string
	realRoot, err := filepath.EvalSymlinks(w.Root)
	if err != nil {
		realRoot = w.Root
	}
	for _, p := range paths {
		abs := filepath.Clean(p)
		if !filepath.IsAbs(p) {
			abs = filepath.Join(w.Root, p)
		}
		if !inside(w.Root, abs) {
			return nil, &OutsideError{Path: p, Root: w.Root, Why: "is outside"}
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, &MissingError{Path: p, Root: w.Root}
		}
		if !inside(realRoot, real) {
			return nil, &OutsideError{Path: p, Root: w.Root, Why: "leads through a symbolic link outside"}
		}
		rel, _ := filepath.Rel(w.Root, abs)
		out = append(out, filepath.ToSlash(rel))
	}
	return out, nil
}

// inside reports whether path is root or lies below it; both are clean
// and absolute.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(os.PathSeparator))
}

// AffectedRequest asks which tests a change can affect.
type AffectedRequest struct {
	// Set is the change when the front end holds it (watch); nil asks
	// git for the work tree against Since, or takes Files.
	Set changes.Set
	// Since is the revision the work tree is compared with ("" is HEAD).
	Since string
	// Files name the changed files instead of git (root-relative or
	// absolute, inside the root; a missing one is a deletion).
	Files []string
	// NoCoverage ignores the recorded coverage: the static evidence
	// alone.
	NoCoverage bool
}

// AffectedResult is the answer: the change, the affected test files in
// listing order with their reasons, and what deserves saying.
type AffectedResult struct {
	Set      changes.Set
	Affected []changes.Affected
	// Problems are the impact graph's: the warnings of files it could not
	// read (quiet, as the listing says them) and anything else.
	Problems []testdex.Problem
	// Notes are one-line remarks: the coverage used or not, a named file
	// that does not exist.
	Notes []string
}

// UsageError is a request's own mistake (a bad revision, a root outside
// git, a file outside the root): the front end's usage error. Its text is
// Err's.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Affected computes the change (unless given) and selects the tests it
// can affect over ix: from the recorded per-test coverage where there is
// some (unless NoCoverage), else from the sources. A bad revision, a root
// outside git or a named file outside the root is a *UsageError.
func (w *Workspace) Affected(ctx context.Context, ix *index.Index, req AffectedRequest) (*AffectedResult, error) {
	res := &AffectedResult{Set: req.Set}
	switch {
	case req.Set != nil:
	case len(req.Files) > 0:
		rel, err := changes.RootFiles(w.Root, req.Files)
		if err != nil {
			return nil, &UsageError{err}
		}
		res.Set = changes.FromFiles(rel, func(rel string) bool {
			_, err := os.Lstat(filepath.Join(w.Root, filepath.FromSlash(rel)))
			if err != nil {
				res.Notes = append(res.Notes, fmt.Sprintf("note: %s does not exist; taken as deleted", rel))
			}
			return err == nil
		})
	default:
		set, err := changes.FromGit(ctx, changes.GitOptions{Root: w.Root, Since: req.Since, Env: w.Environ})
		if errors.Is(err, changes.ErrNotGit) || errors.Is(err, changes.ErrBadRevision) {
			return nil, &UsageError{err}
		}
		if err != nil {
			return nil, err
		}
		res.Set = set
	}
	if len(res.Set) == 0 {
		return res, nil
	}
	graph := changes.Build(ix)
	res.Problems = graph.Problems
	if req.NoCoverage {
		res.Affected = graph.Select(ix, res.Set)
	} else {
		var note string
		res.Affected, note = graph.SelectRecorded(ix, res.Set, w.CacheDir)
		if note != "" {
			res.Notes = append(res.Notes, note)
		}
	}
	if err := graph.SaveCache(); err != nil {
		res.Notes = append(res.Notes, "warning: "+err.Error())
	}
	return res, nil
}

// Said returns the impact graph's problems a front end shows: its
// errors, and the warnings about the configuration's own rules (a
// testdex.toml rule that names no test); the other warnings are the
// listing's to say, quietly.
func (r *AffectedResult) Said() []testdex.Problem {
	var out []testdex.Problem
	for _, p := range r.Problems {
		if p.Severity != testdex.SevWarning || p.Path == config.FileName {
			out = append(out, p)
		}
	}
	return out
}

// Selection is the run that runs exactly the affected tests: a whole file
// by its path, else its tests by ID (the outermost selected ones, each of
// which runs the selected records under it).
func Selection(affected []changes.Affected) (ids, paths []string) {
	for _, a := range affected {
		if a.Whole() {
			paths = append(paths, a.File)
			continue
		}
		for _, i := range a.Top() {
			ids = append(ids, a.Tests[i].ID)
		}
	}
	return ids, paths
}

// Run runs a request over ix as `testdex run`, MCP's run_tests and each
// watch cycle do: the root's stores (failures, passing state, coverage)
// are the workspace's, the environment its own unless the request sets
// one.
func (w *Workspace) Run(ctx context.Context, ix *index.Index, req run.Request, h run.Handler) (*run.Summary, error) {
	req.CacheDir = w.CacheDir
	if req.Options.Env == nil {
		req.Options.Env = w.Environ
	}
	req.Profile = profileOf(req, w.Environ)
	return session(ctx, ix, nil, req, h)
}

// Plan is the plan that running req over ix would execute, made without
// running anything (`testdex list --plan`): the plan a CI machine writes
// and another replays with RunPlan. A request for `run --changed` has no
// plan (what it runs depends on the state the run itself keeps).
func (w *Workspace) Plan(ix *index.Index, req run.Request) (*plan.Plan, error) {
	if req.Changed {
		return nil, &UsageError{errors.New("a run of changed files has no plan to save (its state is kept by the run)")}
	}
	req.CacheDir = w.CacheDir
	p, _, err := planRequest(ix, req)
	return p, err
}

// RunPlan runs a plan that Plan made, here or on another machine: each
// batch is bound to the project and framework of ix (the root listed
// again), and refused when they are gone or configured otherwise; the
// run is kept as Run keeps it. req's selection (IDs, Paths, Failed,
// Changed) must be empty.
func (w *Workspace) RunPlan(ctx context.Context, ix *index.Index, p *plan.Plan, req run.Request, h run.Handler) (*run.Summary, error) {
	if len(req.IDs)+len(req.Paths) > 0 || req.Failed || req.Changed {
		return nil, &UsageError{errors.New("a plan names its tests itself; give no IDs, paths, --failed or --changed with it")}
	}
	if err := p.Bind(ix.Root, ix.Finder()); err != nil {
		return nil, &UsageError{err}
	}
	req.CacheDir = w.CacheDir
	if req.Options.Env == nil {
		req.Options.Env = w.Environ
	}
	req.Profile = profileOf(req, w.Environ)
	return session(ctx, ix, p, req, h)
}

// Failures returns the failures of the last run of the root; ran is
// false when no run was recorded (or the store is off). An odd store is
// said through warn and counts as no run.
func (w *Workspace) Failures(warn func(string)) (fs []run.Failure, ran bool, err error) {
	if w.CacheDir == "" {
		return nil, false, ErrNoStore
	}
	if _, err := os.Lstat(run.FailuresFile(w.CacheDir, w.Root)); errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	odd := false
	fs, err = run.LoadFailures(w.CacheDir, w.Root, func(msg string) {
		odd = true
		if warn != nil {
			warn(msg)
		}
	})
	return fs, err == nil && !odd, err
}

// ErrNoStore is returned by the verbs that read a per-root store when the
// cache folder is off.
var ErrNoStore = errors.New("nothing is kept while the cache is off (unset TESTDEX_CACHE_DIR=off and run the tests again)")
