package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
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
			testenv.Missing(t, "%s is not installed; the runtime comparison needs it", bin)
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

// TestReadmeListing: the README's first example is the listing of
// examples/polyglot exactly as the binary prints it (from the repository's
// root, as the README's command runs it). Regenerate the block with
// `go run ./cmd/testdex list examples/polyglot` after a deliberate change.
func TestReadmeListing(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const start = "$ testdex list examples/polyglot\n"
	_, block, ok := bytes.Cut(readme, []byte(start))
	if !ok {
		t.Fatalf("README.md has no %q example", start)
	}
	block, _, _ = bytes.Cut(block, []byte("```"))
	var stdout, stderr bytes.Buffer
	root, _ := filepath.Abs("../..")
	code := cli.Main(context.Background(), []string{"list", "--no-cache", "examples/polyglot"}, cli.Env{
		Stdout: &stdout, Stderr: &stderr, Getenv: os.Getenv, Environ: os.Environ(), Dir: root,
	})
	if code != cli.ExitOK || stderr.Len() > 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	if got := stdout.String(); got != string(block) {
		t.Errorf("README.md's listing of examples/polyglot is stale; the binary prints:\n%s", got)
	}
}
