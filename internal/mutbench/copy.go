package mutbench

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// copyProject copies the project in src to dst, where the mutants are
// applied: the installed original is never written. The top-level entries
// named in link (installed dependencies: node_modules, .venv) are linked,
// not copied; everything else is copied with its mode and modification
// time (cargo's build output in target stays fresh).
func copyProject(src, dst string, link []string) error {
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
		return nil // sockets, devices: nothing a project needs
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

// gitInit makes the copy a git repository whose HEAD is the unmutated
// project, so that `testdex affected` can find the change itself (the
// -change git mode). The linked and build folders are excluded through
// .git/info/exclude, which leaves the project's own files as they are.
func gitInit(ctx context.Context, dir string, exclude []string) error {
	git := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=mutbench", "GIT_AUTHOR_EMAIL=mutbench@localhost",
			"GIT_COMMITTER_NAME=mutbench", "GIT_COMMITTER_EMAIL=mutbench@localhost")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s in %s: %w\n%s", strings.Join(args, " "), dir, err, out)
		}
		return nil
	}
	if err := git("init", "-q"); err != nil {
		return err
	}
	lines := strings.Join(exclude, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte(lines), 0o644); err != nil {
		return err
	}
	if err := git("add", "-A"); err != nil {
		return err
	}
	return git("commit", "-q", "--no-verify", "-m", "unmutated")
}
