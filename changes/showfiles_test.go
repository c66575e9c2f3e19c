package changes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex/internal/testenv"
)

// TestShowFiles reads many files at a revision through one git process:
// from a root below the work tree's top (paths relative to the root),
// binary content with newlines and NULs whole, a file absent at the
// revision absent from the answer, and a name with a newline (which the
// batch protocol cannot carry) asked for alone.
func TestShowFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is not installed")
	}
	top := t.TempDir()
	root := filepath.Join(top, "sub")
	files := map[string]string{
		"a.go":         "package a\n",
		"bin/data.bin": "x\x00y\nz\n\n",
		"odd\nname.go": "package odd\n",
		"empty.txt":    "",
	}
	for f, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
		if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = top
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	got, err := showFiles(context.Background(), root, "HEAD", []string{"a.go", "bin/data.bin", "odd\nname.go", "empty.txt", "gone.go"})
	if err != nil {
		t.Fatal(err)
	}
	for f, text := range files {
		if string(got[f]) != text {
			t.Errorf("%q: %q, want %q", f, got[f], text)
		}
		if _, ok := got[f]; !ok {
			t.Errorf("%q missing from the answer", f)
		}
	}
	if _, ok := got["gone.go"]; ok || len(got) != len(files) {
		t.Errorf("answer holds %d files (gone.go: %v), want %d", len(got), ok, len(files))
	}
}
