// Package treecopy copies a project's folder for a harness that changes
// the copy and runs it: the fidelity suite's breakages and mutbench's
// mutants. It copies every entry whether git ignores it or not, which is
// why it does not use internal/walk: the copy must build and run as the
// original does, build output and local configuration included, and the
// harness decides itself what it links instead of copying.
package treecopy

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Copy copies the tree at src to dst: folders with their modes, regular
// files with their modes and modification times (so that a build tool
// finds its output fresh), both made writable by the owner, and symbolic
// links as links with the same target. The top-level entries named in link
// (installed dependencies and build output: node_modules, .venv, target)
// become symbolic links to the original instead of copies. Other entries
// (sockets, devices) are left out: nothing a project needs. The first
// error stops the copy.
func Copy(src, dst string, link []string) error {
	linked := map[string]bool{}
	for _, l := range link {
		linked[l] = true
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case linked[rel]:
			if err := os.Symlink(p, to); err != nil {
				return err
			}
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			if err := copyFile(p, to, info.Mode().Perm()|0o600); err != nil {
				return err
			}
			return os.Chtimes(to, info.ModTime(), info.ModTime())
		}
		return nil
	})
}

func copyFile(from, to string, mode fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
