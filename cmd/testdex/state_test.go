package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/run"
	"github.com/testdex/testdex/workspace"
)

// TestOddStateFiles replaces each state file testdex keeps for a root
// (the failures, the passing state of run --changed, the coverage index)
// by a link to /dev/zero, a link to /dev/urandom, a FIFO and a folder:
// every command that reads it answers within seconds, warns, and carries
// on as if nothing were recorded (docs/reliability.md, "State"). The next run
// rewrites the file.
func TestOddStateFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/odd\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "odd_test.go"), []byte("package odd\n\nimport \"testing\"\n\nfunc TestOdd(t *testing.T) {}\n"), 0o644)
	cache := t.TempDir()
	td := func(_ []string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		getenv := func(k string) string {
			if k == "TESTDEX_CACHE_DIR" {
				return cache
			}
			return os.Getenv(k)
		}
		code := cli.Main(context.Background(), args, cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: getenv, Environ: os.Environ(), Dir: dir})
		return code, stdout.String(), stderr.String()
	}
	root, _ := filepath.EvalSymlinks(dir)
	states := map[string]struct {
		path string
		args []string
		want int
	}{
		"failures":         {run.FailuresFile(cache, root), []string{"failures"}, 0},
		"passing":          {workspace.PassingFile(cache, root), []string{"run", "--changed"}, 0},
		"coverage":         {coverage.Path(cache, root), []string{"covering", "odd_test.go:5"}, -1},
		"history":          {history.File(cache, root), []string{"history", "show"}, 0},
		"history by a run": {history.File(cache, root), []string{"run"}, 0},
	}
	odd := map[string]func(string) error{
		"zero":    func(p string) error { return os.Symlink("/dev/zero", p) },
		"urandom": func(p string) error { return os.Symlink("/dev/urandom", p) },
		"fifo":    func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"folder":  func(p string) error { return os.Mkdir(p, 0o755) },
	}
	for name, st := range states {
		for kind, mk := range odd {
			os.RemoveAll(st.path)
			os.MkdirAll(filepath.Dir(st.path), 0o755)
			if err := mk(st.path); err != nil {
				t.Fatal(err)
			}
			type result struct {
				code     int
				out, err string
			}
			done := make(chan result, 1)
			go func() {
				code, out, errs := td(nil, st.args...)
				done <- result{code, out, errs}
			}()
			select {
			case r := <-done:
				if st.want >= 0 && r.code != st.want {
					t.Errorf("%s as %s: %v exited %d, want %d\n%s%s", name, kind, st.args, r.code, st.want, r.out, r.err)
				}
				if !strings.Contains(r.err+r.out, "ignoring it") {
					t.Errorf("%s as %s: %v said nothing of the odd file:\n%s%s", name, kind, st.args, r.out, r.err)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%s as %s: %v still runs after 20 s", name, kind, st.args)
			}
		}
	}
	// A run rewrites the failures whatever lay there.
	os.RemoveAll(run.FailuresFile(cache, root))
	syscall.Mkfifo(run.FailuresFile(cache, root), 0o644)
	if code, out, errs := td(nil, "run"); code != 0 {
		t.Fatalf("run over an odd failures file: exit %d\n%s%s", code, out, errs)
	}
	if fi, err := os.Lstat(run.FailuresFile(cache, root)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the failures file was not rewritten: %v %v", fi, err)
	}
	// And the history: its last records are the run's.
	if h, err := history.Load(history.File(cache, root)); err != nil || h.Durations("")["odd_test.go::TestOdd"].Runs == 0 {
		t.Errorf("the history was not rewritten: %+v %v", h, err)
	}
}
