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
	"github.com/testdex/testdex/run"
)

// TestRunMixedRepository is the scenario testdex run is judged on: one
// repository mixing Go, pytest, node:test and cargo tests that pass, fail
// and hang. The Go fixture's hanging test (only it: the copy reads its own
// variable) also leaves a child behind. testdex run must exit 124 (the
// timeout) and report
// every test under its listed ID with its own outcome; the hang must be
// killed with its child and nothing left running; failures must list
// exactly the failures and run --failed rerun exactly them.
func TestRunMixedRepository(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four toolchains with a timeout; skipped with -short")
	}
	for _, bin := range []string{"go", "python3", "node", "cargo"} {
		if _, err := exec.LookPath(bin); err != nil {
			testenv.Missing(t, "%s is not installed", bin)
		}
	}
	root := t.TempDir()
	for dst, src := range map[string]string{"go": "go", "python": "python", "web": "node/node-test", "rust": "cargo"} {
		if err := os.CopyFS(filepath.Join(root, dst), os.DirFS(filepath.Join("../../testdata/run", src))); err != nil {
			t.Fatal(err)
		}
	}
	goTest := filepath.Join(root, "go", "run_test.go")
	data, err := os.ReadFile(goTest)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]string{
		{`os.Getenv("TESTDEX_FIXTURE_HANG")`, `os.Getenv("MIXED_HANG")`},
		{`time.Sleep(time.Hour)`, `startRecorded(exec.Command("sleep", "317")); time.Sleep(time.Hour)`},
	} {
		if !bytes.Contains(data, []byte(r[0])) {
			t.Fatalf("the Go run fixture changed: %q is gone; update this test", r[0])
		}
		data = bytes.ReplaceAll(data, []byte(r[0]), []byte(r[1]))
	}
	if err := os.WriteFile(goTest, data, 0o644); err != nil {
		t.Fatal(err)
	}

	cache := t.TempDir()
	pids := fixturePIDs(t)
	hang := "MIXED_HANG=1"
	td := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		env := append(os.Environ(), hang, "CARGO_TARGET_DIR="+filepath.Join(cache, "target"))
		getenv := func(k string) string {
			if k == "TESTDEX_CACHE_DIR" {
				return cache
			}
			return os.Getenv(k)
		}
		code := cli.Main(context.Background(), args, cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: getenv, Environ: env, Dir: root})
		return code, stdout.String(), stderr.String()
	}

	code, out, errs := td("run", "--json", "-j", "4", "--timeout", "20s")
	if code != run.ExitTimeout {
		t.Fatalf("exit %d, want %d (the hang times out)\n%s", code, run.ExitTimeout, errs)
	}
	results := map[string]testdex.Event{}
	for _, e := range events(t, out) {
		if e.ID != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip) {
			results[e.ID] = e
		}
	}
	for id, want := range map[string]testdex.Action{
		"go/run_test.go::TestPass": "pass", "go/run_test.go::TestFail": "fail", "go/run_test.go::TestHang": "fail",
		"python/test_run.py::test_pass": "pass", "python/test_run.py::test_fail": "fail", "python/test_run.py::test_table[bad]": "fail",
		"web/test/math.test.js::math > adds": "pass", "web/test/math.test.js::math > fails": "fail",
		"rust/src/lib.rs::tests::pass": "pass", "rust/src/lib.rs::tests::fail": "fail",
	} {
		if results[id].Action != want {
			t.Errorf("%s: %q, want %q", id, results[id].Action, want)
		}
	}
	if m := results["go/run_test.go::TestHang"].Message; !strings.Contains(m, "timed out after 20s") {
		t.Errorf("the hang's message is %q", m)
	}
	checkGone(t, pids, 2) // the hung Go test process and its child, among others

	// failures lists exactly the failed tests (parents that failed only
	// through a row are left to the row).
	code, out, _ = td("failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	failed := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var f struct{ ID string }
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("bad failure record %q: %v", l, err)
		}
		failed[f.ID] = true
		if results[f.ID].Action != testdex.ActionFail {
			t.Errorf("failures lists %s, which did not fail", f.ID)
		}
	}
	for id, e := range results {
		if e.Action == testdex.ActionFail && !failed[id] && !hasFailedChild(id, failed) {
			t.Errorf("%s failed but is not in failures", id)
		}
	}

	// run --failed reruns exactly them: nothing that passed runs again
	// (the hang, rerun without its variable, skips).
	hang = "MIXED_HANG="
	code, out, _ = td("run", "--failed", "--json", "-j", "4")
	for _, e := range events(t, out) {
		if e.ID != "" && e.Action == testdex.ActionRun && results[e.ID].Action == testdex.ActionPass {
			t.Errorf("run --failed ran %s, which passed", e.ID)
		}
	}
	if code != cli.ExitFailed {
		t.Errorf("run --failed: exit %d, want 1", code)
	}
}

func hasFailedChild(id string, failed map[string]bool) bool {
	for f := range failed {
		if strings.HasPrefix(f, id) && f != id {
			return true
		}
	}
	return false
}
