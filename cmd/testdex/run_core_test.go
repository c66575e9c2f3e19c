package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
)

// cliIn runs testdex in dir with its own cache folder and environment.
func cliIn(t *testing.T, dir string, environ []string, args ...string) (int, string, string) {
	t.Helper()
	cache := filepath.Join(dir, ".testdex-cache")
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "TESTDEX_CACHE_DIR" {
			return cache
		}
		return os.Getenv(k)
	}
	code := cli.Main(context.Background(), args, cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: getenv, Environ: environ, Dir: dir})
	return code, stdout.String(), stderr.String()
}

// events decodes a JSON Lines event stream, failing the test on bad lines.
func events(t *testing.T, jsonl string) []testdex.Event {
	t.Helper()
	var out []testdex.Event
	for _, l := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		if l == "" {
			continue
		}
		var e testdex.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("bad event %q: %v", l, err)
		}
		out = append(out, e)
	}
	return out
}

// TestRunMonorepoSameNames: two pytest projects whose tests share a node
// ID; each result must land on its own project's test.
func TestRunMonorepoSameNames(t *testing.T) {
	if exec.Command("python3", "-c", "import pytest").Run() != nil {
		t.Skip("python3 with pytest is not installed")
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"a/pytest.ini":      "[pytest]\n",
		"a/tests/test_x.py": "import time\n\ndef test_one():\n    time.sleep(0.5)\n",
		"b/pytest.ini":      "[pytest]\n",
		"b/tests/test_x.py": "def test_one():\n    assert False, 'b fails'\n",
	})
	code, out, errs := cliIn(t, root, os.Environ(), "run", "--json", "-j", "2")
	if code != cli.ExitFailed {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	final := map[string]testdex.Action{}
	for _, e := range events(t, out) {
		if e.ID != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail) {
			final[e.ID] = e.Action
		}
	}
	if final["a/tests/test_x.py::test_one"] != "pass" || final["b/tests/test_x.py::test_one"] != "fail" || len(final) != 2 {
		t.Errorf("results %v: each project's result must land on its own test", final)
	}
	_, out, _ = cliIn(t, root, os.Environ(), "failures")
	if !strings.HasPrefix(out, "b/tests/test_x.py::test_one ") || strings.Count(out, "\n") != 1 {
		t.Errorf("failures:\n%s", out)
	}
}

// TestRunMissingToolchainFailsEachTestOnce: a batch of several commands
// whose toolchain is missing fails each selected test once, naming it.
func TestRunMissingToolchainFailsEachTestOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cargo")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/run/cargo")); err != nil {
		t.Fatal(err)
	}
	code, out, _ := cliIn(t, dir, []string{"PATH=/nonexistent"}, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want 1", code)
	}
	fails := map[string]int{}
	for _, e := range events(t, out) {
		if e.ID != "" && e.Action == testdex.ActionFail {
			fails[e.ID]++
			if !strings.Contains(e.Message, "cargo not found in PATH") {
				t.Errorf("%s: message %q does not name cargo", e.ID, e.Message)
			}
		}
	}
	if len(fails) == 0 {
		t.Fatal("no test failed")
	}
	for id, n := range fails {
		if n != 1 {
			t.Errorf("%s failed %d times", id, n)
		}
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
