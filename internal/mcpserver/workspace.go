package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/index"
)

// errNoProject is seed 004's error for a root where no detector applies.
var errNoProject = errors.New("no supported project detected in workspace root")

// load builds the index of the whole root and returns it with paths
// made root-relative (they may be given root-relative or absolute), for
// index.Under. A root without any project is errNoProject; a path outside
// the root or missing is an error.
func (c Config) load(ctx context.Context, paths []string) (*index.Index, []string, error) {
	rel, err := c.confine(paths)
	if err != nil {
		return nil, nil, err
	}
	ix, err := index.Build(ctx, index.Options{Root: c.Root, Dir: c.Root, CacheDir: c.CacheDir})
	if err != nil {
		return nil, nil, err
	}
	if len(ix.Projects) == 0 {
		return nil, nil, errNoProject
	}
	return ix, rel, nil
}

// confine resolves paths against the root and returns them root-relative
// and slash-separated. A path that leaves the root (by "..", an absolute
// path, or a symbolic link pointing out) is refused, as is one that does
// not exist.
func (c Config) confine(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		abs := filepath.Clean(p)
		if !filepath.IsAbs(p) {
			abs = filepath.Join(c.Root, p)
		}
		if !inside(c.Root, abs) {
			return nil, fmt.Errorf("%s is outside the workspace root %s (pass paths inside it, or start testdex mcp with --root)", p, c.Root)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("%s does not exist in the workspace root %s (call discover_tests without paths to see the test files)", p, c.Root)
		}
		if root, err := filepath.EvalSymlinks(c.Root); err != nil || !inside(root, real) {
			return nil, fmt.Errorf("%s leads outside the workspace root %s through a symbolic link (pass paths inside it)", p, c.Root)
		}
		rel, _ := filepath.Rel(c.Root, abs)
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
