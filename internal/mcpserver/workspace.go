package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/testdex/testdex/workspace"
)

// errNoProject is the seed's error when no detector matches the root.
var errNoProject = errors.New("no supported project detected in workspace root")

// workspace is the engine the tools adapt: the root opened once.
func (c Config) workspace() (*workspace.Workspace, error) {
	return workspace.Open(workspace.Options{Root: c.Root, Dir: c.Root, CacheDir: c.CacheDir}, c.CacheDir, c.Environ)
}

// load opens the workspace and lists the whole root, and returns paths
// made root-relative (they may be given root-relative or absolute), for
// index.Under. A root without any project is errNoProject; a path
// outside the root (by "..", absolute, or through a symbolic link) or
// missing is an error.
func (c Config) load(ctx context.Context, paths []string) (*workspace.Workspace, *workspace.Index, []string, error) {
	ws, err := c.workspace()
	if err != nil {
		return nil, nil, nil, err
	}
	rel, err := ws.Confine(paths)
	var outside *workspace.OutsideError
	var missing *workspace.MissingError
	switch {
	case errors.As(err, &outside):
		return nil, nil, nil, fmt.Errorf("%s %s the workspace root %s (pass paths inside it, or start testdex mcp with --root)", outside.Path, outside.Why, outside.Root)
	case errors.As(err, &missing):
		return nil, nil, nil, fmt.Errorf("%s does not exist in the workspace root %s (call discover_tests without paths to see the test files)", missing.Path, missing.Root)
	case err != nil:
		return nil, nil, nil, err
	}
	ix, err := ws.List(ctx, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(ix.Projects) == 0 {
		return nil, nil, nil, errNoProject
	}
	return ws, ix, rel, nil
}
