package index

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// target is one explicitly named path, resolved.
type target struct {
	abs  string // lexically clean absolute path (symlinks kept)
	rel  string // relative to the root, slash-separated; "." for the root
	real string // symlinks resolved, the de-duplication key
	dir  bool
}

// resolveTargets turns the named paths into targets, in the order given,
// dropping later duplicates (the same file or folder reached twice). A path
// is tried as given (absolute, or relative to dir) and then relative to the
// root, as semtest does.
func resolveTargets(root, dir string, paths []string) ([]target, error) {
	var out []target
	seen := map[string]bool{}
	for _, p := range paths {
		abs, info, err := locate(root, dir, p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, &OutsideRootError{Path: p, Root: root}
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		if seen[real] {
			continue
		}
		seen[real] = true
		out = append(out, target{abs: abs, rel: filepath.ToSlash(rel), real: real, dir: info.IsDir()})
	}
	return out, nil
}

func locate(root, dir, p string) (string, fs.FileInfo, error) {
	try := []string{p}
	if !filepath.IsAbs(p) {
		try = []string{filepath.Join(dir, p), filepath.Join(root, p)}
	}
	for _, c := range try {
		info, err := os.Stat(c)
		if err == nil {
			abs, err := filepath.Abs(c)
			return abs, info, err
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, err
		}
	}
	return "", nil, &NotFoundError{Name: p}
}

// covered reports whether rel lies inside one of the folder targets, so a
// file named explicitly inside a named folder is listed once.
func covered(rel string, dirs []target) bool {
	for _, d := range dirs {
		if d.rel == "." || rel == d.rel || strings.HasPrefix(rel, d.rel+"/") {
			return true
		}
	}
	return false
}
