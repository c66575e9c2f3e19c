package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex/internal/cli"
)

// TestPolyglotCheck runs `testdex check` on a copy of the example
// repository: the static listing of Go, pytest, node:test, cargo and JUnit
// tests must agree with what go test -list, pytest --collect-only, node's
// runner, cargo test -- --list and the JUnit launcher report. It needs every
// toolchain; CI installs them (scripts/setup/*.sh).
func TestPolyglotCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five toolchains; skipped with -short")
	}
	for _, bin := range []string{"go", "python3", "node", "cargo", "mvn", "java"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s is not installed; the runtime comparison needs it", bin)
		}
	}
	dir := filepath.Join(t.TempDir(), "polyglot")
	if err := os.CopyFS(dir, os.DirFS("../../examples/polyglot")); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	env := append(os.Environ(), "CARGO_TARGET_DIR="+filepath.Join(t.TempDir(), "target"))
	code := cli.Main(context.Background(), []string{"check", "--no-cache"}, cli.Env{
		Stdout: &stdout, Stderr: &stderr, Getenv: os.Getenv, Environ: env, Dir: dir,
	})
	if code != cli.ExitOK {
		t.Fatalf("testdex check exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	t.Log(stdout.String())
}
