package index

import (
	"fmt"
	"path/filepath"
	"strings"
)

// OutsideError reports a path whose real location, every symlink resolved,
// is not under the root.
type OutsideError struct {
	Path string // as given
	Root string // as given
	Real string // Path with its symlinks resolved
}

func (e *OutsideError) Error() string {
	msg := fmt.Sprintf("%s is outside the root %s", e.Path, e.Root)
	if e.Real != e.Path {
		msg += " (it resolves to " + e.Real + ")"
	}
	return msg
}

// Contained returns the root-relative, slash-separated path of p when p's
// real location lies under root's, both with every symlink resolved, so a
// symlinked folder cannot lead out of the root; the root itself gives ".".
// A relative p is taken relative to root. The error is an *OutsideError
// when p leaves the root, or the resolution error when p or root does not
// exist. The returned path is the real one: it goes through no symlink.
func Contained(root, p string) (rel string, err error) {
	realRoot, err := realPath(root)
	if err != nil {
		return "", fmt.Errorf("resolve root %s: %w", root, err)
	}
	full := p
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, p)
	}
	real, err := realPath(full)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	rel, err = filepath.Rel(realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &OutsideError{Path: p, Root: root, Real: real}
	}
	return filepath.ToSlash(rel), nil
}

// realPath returns the absolute path of p with every symlink resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
