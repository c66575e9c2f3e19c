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
	"github.com/testdex/testdex/internal/testenv"
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
		testenv.Missing(t, "python3 with pytest is not installed")
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

// TestRunMissingToolchainIsOneError: a batch whose toolchain is missing
// is one error naming it, not a failure of each selected test; the listed
// tests are unreported, and the run fails.
func TestRunMissingToolchainIsOneError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cargo")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/run/cargo")); err != nil {
		t.Fatal(err)
	}
	code, out, _ := cliIn(t, dir, []string{"PATH=/nonexistent"}, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want 1", code)
	}
	var errs, unreported int
	for _, e := range events(t, out) {
		switch {
		case e.Action == testdex.ActionFail && e.ID != "":
			t.Errorf("%s failed (%s): a missing toolchain fails no test", e.ID, e.Message)
		case e.Action == testdex.ActionError:
			errs++
			if !strings.Contains(e.Message, "cargo not found in PATH") || e.Cause != testdex.CauseToolchain {
				t.Errorf("error %q (cause %s) does not name cargo", e.Message, e.Cause)
			}
		case e.Action == testdex.ActionUnreported:
			unreported++
		}
	}
	if errs != 1 || unreported == 0 {
		t.Errorf("%d errors, %d unreported; want 1 error and every listed test unreported", errs, unreported)
	}
	code, text, _ := cliIn(t, dir, []string{"PATH=/nonexistent"}, "run")
	if code != cli.ExitFailed || !strings.Contains(text, "--- ERROR: . cargo") || strings.Count(text, "cargo not found in PATH") != 1 {
		t.Errorf("text view (exit %d):\n%s", code, text)
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
