package walk

import (
	"fmt"
	"path/filepath"
	"strings"
)

// realRoot returns root with every symlink resolved, the reference for
// deciding whether a symlink leaves the root; a root that cannot be resolved
// is taken as it is (the walk reports the failure).
func realRoot(root string) string {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if a, err := filepath.Abs(root); err == nil {
		root = a
	}
	return root
}

// escape returns, for the symlink at file system path p, a message saying
// that its real target lies outside the root, or "" when the target is
// inside (the root itself included). A target that cannot be resolved is
// reported the same way: it is not followed.
func (c *config) escape(p string) string {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Sprintf("symlink cannot be resolved: %v; not followed", err)
	}
	if a, err := filepath.Abs(target); err == nil {
		target = a
	}
	rel, err := filepath.Rel(c.realRoot, target)
	if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		return ""
	}
	return fmt.Sprintf("symlink to %s leaves the root; not followed", target)
}
