package index

import (
	"os"
	"path/filepath"
	"strings"
)

// RootFor returns the root of a command given no --root: "", meaning dir
// (the working folder), unless every named path that exists lies outside
// it. Then the root is the nearest folder at or above the first such path that
// holds a .git entry (a folder, or the file a worktree or submodule has),
// else the named folder itself, or a named file's folder. Names are taken
// as given (absolute, or relative to dir); those that name nothing on disk
// (test IDs, missing files) take no part, so with none left the root is
// dir. The root returned is absolute and clean. The other named paths are not checked here: discovery refuses one
// outside the returned root with an *OutsideRootError, naming both.
//
// This is how `testdex list /some/other/repo` lists that repository from
// any folder while a path inside the working folder keeps the root there.
func RootFor(dir string, named []string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	first := ""
	for _, p := range named {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, p)
		}
		info, err := os.Stat(abs)
		if err != nil {
			continue
		}
		abs = filepath.Clean(abs)
		if inside(abs, dir) {
			return ""
		}
		if first == "" {
			first = abs
			if !info.IsDir() {
				first = filepath.Dir(abs)
			}
		}
	}
	if first == "" {
		return ""
	}
	return gitTop(first)
}

// gitTop is the nearest folder at or above dir holding a .git entry, else
// dir.
func gitTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// inside reports whether the clean absolute path p is dir or lies below
// it, lexically.
func inside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
