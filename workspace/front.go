package workspace

import (
	"context"

	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/walk"
	"github.com/testdex/testdex/run"
)

// The vocabulary of the front ends. A front end (watch, the MCP server)
// speaks of listings, changes and runs through these names and calls the
// verbs below, so that it imports the workspace alone of the cores: the
// cores can change shape behind it. They are aliases, not copies: a value
// is the core's own.
type (
	// Index is a listing of the root (index.Index).
	Index = index.Index
	// ListingOptions are the listing's options (index.Options).
	ListingOptions = index.Options
	// Escape is a symbolic link leaving the root that the listing did not
	// follow (index.Escape).
	Escape = index.Escape
	// NoTestsError says a listing found no test (index.NoTestsError).
	NoTestsError = index.NoTestsError
	// NoMatchError says an ID named no test (index.NoMatchError).
	NoMatchError = index.NoMatchError

	// ChangeSet is a change: the changed files (changes.Set).
	ChangeSet = changes.Set
	// Change is one changed file (changes.Change).
	Change = changes.Change
	// ChangeStatus says how a file changed (changes.Status).
	ChangeStatus = changes.Status
	// Affected is one test file a change affects, with its reasons
	// (changes.Affected).
	Affected = changes.Affected

	// RunRequest is one run as the front ends ask for it (run.Request).
	RunRequest = run.Request
	// RunOptions configure a run (run.Options).
	RunOptions = run.Options
	// Summary is a finished run's outcome (run.Summary).
	Summary = run.Summary
	// Handler receives a run's events (run.Handler).
	Handler = run.Handler
	// HandlerFunc adapts a function to Handler (run.HandlerFunc).
	HandlerFunc = run.HandlerFunc
	// Failure is one failure of the last run (run.Failure).
	Failure = run.Failure
)

// The statuses of a Change.
const (
	Added    = changes.Added
	Modified = changes.Modified
	Deleted  = changes.Deleted
	Renamed  = changes.Renamed
)

// ChangeSummary is the one-line account of a change and what it affects
// (changes.Summary).
func ChangeSummary(set ChangeSet, affected []Affected) string { return changes.Summary(set, affected) }

// ListFiles lists the root from a front end's own record of its files
// (root-relative; watch holds them from its walks) and of the links
// leaving the root, without walking the tree: the cache makes it
// incremental.
func (w *Workspace) ListFiles(ctx context.Context, files []string, escapes []Escape) (*Index, error) {
	o := w.opts
	o.Files, o.Escapes = files, escapes
	return index.Build(ctx, o)
}

// WalkOptions are the walker's options for the root, as its
// configuration gives them to the listing (ix's, or read from the
// configuration file when ix is nil: a root with no test yet).
func (w *Workspace) WalkOptions(ix *Index) (walk.Options, error) {
	cfg := (*config.Config)(nil)
	if ix != nil {
		cfg = ix.Config()
	}
	if cfg == nil {
		var err error
		if cfg, err = config.Load(w.Root, w.opts.ConfigPath); err != nil {
			return walk.Options{}, err
		}
	}
	return index.WalkOptions(cfg), nil
}

// GitChanges is the work tree's change against since ("" is HEAD); an
// error outside git (changes.ErrNotGit) or for a bad revision.
func (w *Workspace) GitChanges(ctx context.Context, since string) (ChangeSet, error) {
	return changes.FromGit(ctx, changes.GitOptions{Root: w.Root, Since: since, Env: w.Environ})
}

// Head is the commit HEAD names; an error outside git or before the
// first commit.
func (w *Workspace) Head(ctx context.Context) (string, error) {
	return changes.Head(ctx, changes.GitOptions{Root: w.Root, Env: w.Environ})
}
