package mutbench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

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
