package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
)

// nodeRunFixtures are testdata/run/node's projects: the folder and the
// test file of each framework.
var nodeRunFixtures = []struct{ dir, file string }{
	{"jest", "__tests__/math.test.js"},
	{"vitest", "test/math.test.js"},
	{"mocha", "test/math.spec.js"},
	{"node-test", "test/math.test.js"},
}

// nodeFixture copies testdata/run/node/<name> to a temp folder (see
// copyNodeFixture) and returns a function running testdex there with extra
// environment.
func nodeFixture(t *testing.T, name string) func(env []string, args ...string) (int, string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	copyNodeFixture(t, name, dir)
	return runnerIn(t, dir)
}

// copyNodeFixture copies testdata/run/node/<name> to dir with its
// node_modules (as scripts/setup/node.sh installed it) symlinked. It
// skips the test when node, or the framework's node_modules, is missing.
func copyNodeFixture(t *testing.T, name, dir string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	src, _ := filepath.Abs(filepath.Join("../../testdata/run/node", name))
	modules := filepath.Join(src, "node_modules")
	if _, err := os.Stat(modules); err != nil && name != "node-test" {
		t.Skipf("%s is not installed (run scripts/setup/node.sh)", modules)
	}
	if err := copyTree(src, dir); err != nil {
		t.Fatal(err)
	}
	if name != "node-test" {
		if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
}

// copyTree copies the regular files under src to dst, leaving out
// node_modules.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		switch {
		case d.IsDir() && d.Name() == "node_modules":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

// TestRunNode runs each framework's fixture whole, then lists and reruns
// its failures. Jest cannot skip at run time: its opt-in tests pass at
// once. Mocha's and node:test's table rows are loops, listed as one
// dynamic record; their results are reported under the row's own name.
func TestRunNode(t *testing.T) {
	for _, f := range nodeRunFixtures {
		t.Run(f.dir, func(t *testing.T) {
			t.Parallel() // each run is one node process tree, mostly waiting on startup I/O
			td := nodeFixture(t, f.dir)
			code, out, errs := td(nil, "run", "--json")
			if code != cli.ExitFailed {
				t.Fatalf("run: exit %d, want 1\n%s%s", code, tail(out), errs)
			}
			optIn := testdex.ActionSkip
			if f.dir == "jest" {
				optIn = testdex.ActionPass
			}
			want := map[string]testdex.Action{}
			for name, a := range map[string]testdex.Action{"math": "fail", "math > adds": "pass", "math > fails": "fail",
				"math > skipped": "skip", "math > double 1 is 2": "pass", "math > double 2 is 5": "fail",
				"top level": "pass", "hang": optIn, "leak": optIn, "loud": optIn} {
				want[f.file+"::"+name] = a
			}
			if f.dir == "node-test" {
				want[f.file+"::top level > sub ok"] = "pass"
			}
			got := finals(t, out)
			for id, a := range want {
				if got[id] != a {
					t.Errorf("%s: %q, want %q", id, got[id], a)
				}
			}
			if len(got) != len(want) {
				t.Errorf("results for %d tests, want %d: %v", len(got), len(want), got)
			}
			checkNodeFailures(t, td, f.file)
			checkNodeFailed(t, td, f.dir, f.file)
		})
	}
}

// checkNodeFailures expects exactly the two failing tests, located in
// the test file with the assertion's message; the suite that failed only
// through them is left out.
func checkNodeFailures(t *testing.T, td func([]string, ...string) (int, string, string), file string) {
	t.Helper()
	code, out, _ := td(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var f struct {
			ID, File, Message string
			Line              int
		}
		json.Unmarshal([]byte(l), &f)
		if f.File != file || f.Line == 0 || f.Message == "" {
			t.Errorf("failure %s at %s:%d with message %q, want a line of %s and a message", f.ID, f.File, f.Line, f.Message, file)
		}
		ids = append(ids, f.ID)
	}
	sort.Strings(ids)
	if w := []string{file + "::math > double 2 is 5", file + "::math > fails"}; strings.Join(ids, "\n") != strings.Join(w, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(ids, "\n"), strings.Join(w, "\n"))
	}
}

// checkNodeFailed reruns the failures: exactly them, nothing else of the
// file. The failed row of a loop (Mocha, node:test) has an ID the listing
// does not hold; index.Resolve places it under its listed ancestor and the
// runner selects it by its name.
func checkNodeFailed(t *testing.T, td func([]string, ...string) (int, string, string), dir, file string) {
	t.Helper()
	code, out, errs := td(nil, "run", "--failed", "--json")
	got := finals(t, out)
	if code != cli.ExitFailed || got[file+"::math > fails"] != "fail" || got[file+"::math > adds"] != "" {
		t.Errorf("rerun of the failures: exit %d, results %v\n%s", code, got, errs)
	}
	if got[file+"::math > double 2 is 5"] != "fail" || got[file+"::math > double 1 is 2"] != "" {
		t.Errorf("run --failed: results %v, want exactly the two failures", got)
	}
}

// TestRunNodeHangLeakLoud runs the opt-in tests of the four frameworks at
// once: the hangs are killed at --timeout, the leaked children reported,
// the megabytes of output kept from the terminal view.
func TestRunNodeHangLeakLoud(t *testing.T) {
	root := t.TempDir()
	var hang, leakLoud []string
	for _, f := range nodeRunFixtures {
		copyNodeFixture(t, f.dir, filepath.Join(root, f.dir))
		id := f.dir + "/" + f.file + "::"
		hang = append(hang, id+"hang", id+"top level")
		leakLoud = append(leakLoud, id+"leak", id+"loud")
	}
	td := runnerIn(t, root)
	env := []string{"TESTDEX_FIXTURE_HANG=1", "TESTDEX_FIXTURE_LEAK=1", "TESTDEX_FIXTURE_LOUD=1"}
	code, out, errs := td(env, append([]string{"run", "--jobs", "4", "--timeout", "10s"}, hang...)...)
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want 1\n%s%s", code, tail(out), errs)
	}
	for _, f := range nodeRunFixtures {
		id := f.dir + "/" + f.file + "::hang"
		if !strings.Contains(out, "--- FAIL: "+id+" ") || !strings.Contains(out, "timed out after 10s") {
			t.Errorf("%s not reported as a timeout:\n%s", id, tail(out))
		}
	}
	if !strings.HasSuffix(out, "5 passed, 4 failed, 0 skipped\n") { // node:test adds "top level > sub ok"
		t.Errorf("the tests that ended before the hang lost their results:\n%s", tail(out))
	}

	code, out, errs = td(env[1:], append([]string{"run", "--jobs", "4"}, leakLoud...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, tail(out), errs)
	}
	if n := strings.Count(out, "leaked: process"); n != 4 || !strings.Contains(out, "(sleep)") {
		t.Errorf("%d leaks reported, want 4:\n%s", n, tail(out))
	}
	if len(out) > 1<<20 {
		t.Errorf("output is %d bytes; megabytes of test output must not reach the terminal view of passing tests", len(out))
	}
	if out2, _ := exec.Command("pgrep", "-f", "sleep 31[1-4]").Output(); len(out2) > 0 {
		t.Errorf("a process the tests started is still running: %s", out2)
	}
}
