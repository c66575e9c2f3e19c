package workspace

import (
	"context"

	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/walk"
	"github.com/testdex/testdex/run"
)

// More of the front ends' vocabulary (see exports.go): aliases, not
// copies, so that watch and the MCP server speak through this package.
type (
	// Escape is a symbolic link leaving the root that the listing did not
	// follow (index.Escape).
	Escape = index.Escape
	// NoTestsError says a listing found no test (index.NoTestsError).
	NoTestsError = index.NoTestsError
	// ChangeStatus says how a file changed (changes.Status).
	ChangeStatus = changes.Status
	// HandlerFunc adapts a function to Handler (run.HandlerFunc).
	HandlerFunc = run.HandlerFunc
)

// The statuses of a Change.
const (
	Added    = changes.Added
	Modified = changes.Modified
	Deleted  = changes.Deleted
	Renamed  = changes.Renamed
)

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
