package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
)

// retryTree has, in Go and pytest, a test that fails once and then
// passes (a marker file under $MARKS says it ran), a row that does the
// same, a test that always fails and one that always passes.
var retryTree = map[string]string{
	"go.mod": "module flk\n\ngo 1.21\n",
	"f_test.go": `package flk

import (
	"os"
	"path/filepath"
	"testing"
)

func once(t *testing.T, name string) {
	m := filepath.Join(os.Getenv("MARKS"), name)
	if _, err := os.Stat(m); err != nil {
		os.WriteFile(m, nil, 0o644)
		t.Fatal("fails the first time: " + name)
	}
}

func TestFlaky(t *testing.T)  { once(t, "go-flaky") }
func TestSteady(t *testing.T) {}
func TestAlways(t *testing.T) { t.Fatal("always fails") }
func TestRows(t *testing.T) {
	t.Run("a b", func(t *testing.T) { once(t, "go-row") })
}
`,
	"py/pytest.ini": "[pytest]\n",
	"py/tests/test_f.py": `import os, pytest

def once(name):
    m = os.path.join(os.environ["MARKS"], name)
    if not os.path.exists(m):
        open(m, "w").close()
        raise AssertionError("fails the first time: " + name)

@pytest.mark.parametrize("v", ["x [1]"])
def test_row(v):
    once("py-row")

def test_steady():
    pass
`,
}

// TestRunRetries: --retries reruns the failed tests alone, by ID; a test
// that then passes is flaky in the events, the summary, JUnit (Surefire's
// <flakyFailure>) and `testdex failures`, and fails nothing unless
// --fail-on-flaky; a test that fails every time stays failed (its reruns
// are <rerunFailure>s) and is what `run --failed` reruns.
func TestRunRetries(t *testing.T) {
	if exec.Command("python3", "-c", "import pytest").Run() != nil {
		testenv.Missing(t, "python3 with pytest is not installed")
	}
	root := t.TempDir()
	writeFiles(t, root, retryTree)
	marks := t.TempDir()
	env := append(os.Environ(), "MARKS="+marks)
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, out, errs := cliIn(t, root, env, "run", "--json", "--retries", "2", "--junit", junit)
	if code != cli.ExitFailed {
		t.Fatalf("exit %d with a test that always fails\n%s", code, errs)
	}
	rerunOnlyFailed(t, out)
	final := map[string]testdex.Action{}
	attempts := map[string]int{}
	for _, e := range events(t, out) {
		if e.ID != "" && e.Action.Final() {
			final[e.ID] = e.Action
			attempts[e.ID] = e.Attempt
		}
	}
	want := map[string]testdex.Action{
		"f_test.go::TestFlaky": testdex.ActionFlaky, "f_test.go::TestRows/a_b": testdex.ActionFlaky,
		"f_test.go::TestAlways": testdex.ActionFail, "f_test.go::TestSteady": testdex.ActionPass,
		"py/tests/test_f.py::test_row[x [1]]": testdex.ActionFlaky, "py/tests/test_f.py::test_steady": testdex.ActionPass,
	}
	for id, a := range want {
		if final[id] != a {
			t.Errorf("%s ended %q, want %q (all: %v)", id, final[id], a, final)
		}
	}
	if attempts["f_test.go::TestAlways"] != 2 || attempts["f_test.go::TestFlaky"] != 1 || attempts["f_test.go::TestSteady"] != 0 {
		t.Errorf("attempts %v: TestAlways reran twice, TestFlaky passed on the first rerun, TestSteady ran once", attempts)
	}
	x, _ := os.ReadFile(junit)
	for _, s := range []string{"<flakyFailure message=\"fails the first time: go-flaky\">", "<rerunFailure message=\"always fails\">", "<failure message=\"always fails\""} {
		if !strings.Contains(string(x), s) {
			t.Errorf("JUnit lacks %s:\n%s", s, x)
		}
	}
	_, fails, _ := cliIn(t, root, env, "failures")
	if !strings.Contains(fails, "f_test.go::TestAlways") || !strings.Contains(fails, "f_test.go::TestFlaky  f_test.go:") || !strings.Contains(fails, "(flaky: passed on a rerun)") {
		t.Errorf("failures:\n%s", fails)
	}
	code, out, _ = cliIn(t, root, env, "run", "--json", "--failed")
	ran := finals(t, out)
	if code != cli.ExitFailed || len(ran) != 1 || ran["f_test.go::TestAlways"] != testdex.ActionFail {
		t.Errorf("run --failed: exit %d, ran %v; want TestAlways alone", code, ran)
	}

	os.Remove(filepath.Join(root, "f_test.go"))
	writeFiles(t, root, map[string]string{"f_test.go": strings.Replace(retryTree["f_test.go"], `func TestAlways(t *testing.T) { t.Fatal("always fails") }`, "", 1)})
	os.RemoveAll(marks)
	os.Mkdir(marks, 0o755)
	code, text, _ := cliIn(t, root, env, "run", "--retries", "1")
	if code != cli.ExitOK || !strings.Contains(text, "--- FLAKY: f_test.go::TestFlaky (passed on rerun 1; it failed first: fails the first time: go-flaky)") ||
		!strings.Contains(text, "2 passed, 0 failed, 0 skipped, 4 flaky") {
		t.Errorf("every failure flaky: exit %d\n%s", code, text)
	}
	os.RemoveAll(marks)
	os.Mkdir(marks, 0o755)
	if code, _, errs := cliIn(t, root, env, "run", "--retries", "1", "--fail-on-flaky"); code != cli.ExitFailed || !strings.Contains(errs, "flaky") {
		t.Errorf("--fail-on-flaky: exit %d: %s", code, errs)
	}
}

// rerunOnlyFailed checks that each rerun of a --retries stream ran
// exactly the tests whose previous attempt failed: the final results of
// attempt N are those of the IDs that failed attempt N-1, and nothing
// else (a test whose name another's starts with is not rerun with it).
func rerunOnlyFailed(t *testing.T, stream string) {
	t.Helper()
	failed := map[int]map[string]bool{}
	ran := map[int]map[string]bool{}
	for _, e := range events(t, stream) {
		if e.ID == "" || !e.Action.Final() || e.Action == testdex.ActionFlaky || e.Kind == testdex.KindSuite {
			continue
		}
		if ran[e.Attempt] == nil {
			ran[e.Attempt], failed[e.Attempt] = map[string]bool{}, map[string]bool{}
		}
		ran[e.Attempt][e.ID] = true
		if e.Action == testdex.ActionFail {
			failed[e.Attempt][e.ID] = true
		}
	}
	if len(ran[1]) == 0 {
		t.Fatalf("no rerun in the stream")
	}
	for a := 1; ran[a] != nil; a++ {
		if !maps.Equal(ran[a], failed[a-1]) {
			t.Errorf("rerun %d ran %v; want exactly the failures of attempt %d: %v", a, slices.Sorted(maps.Keys(ran[a])), a-1, slices.Sorted(maps.Keys(failed[a-1])))
		}
	}
}

// jestRetryTree is a Jest project whose test with spaces and brackets in
// its name fails once; a test whose name is a prefix of it, and a third,
// pass.
var jestRetryTree = map[string]string{
	// The test's cache folder lies under the root: its files must not look
	// like Jest's (a .snap file there was an obsolete snapshot to Jest --ci).
	"package.json": `{"name": "flk", "private": true, "scripts": {"test": "jest"}}` + "\n",
	"__tests__/cart.test.js": `const fs = require("fs"), path = require("path");

function once(name) {
  const m = path.join(process.env.MARKS, name);
  if (!fs.existsSync(m)) {
    fs.writeFileSync(m, "");
    throw new Error("fails the first time: " + name);
  }
}

describe("cart [x]", () => {
  test("adds [2] items (a b)", () => once("js-flaky"));
  test("adds [2] items", () => {});
  test("steady one", () => {});
});
`,
}

// TestRunRetriesJest: a Jest test with spaces and brackets in its name
// that fails once is rerun alone by its ID (not the test whose name is a
// prefix of it) and ends flaky; the rerun reports none of the others
// (Jest calls the tests its name filter left out skipped).
func TestRunRetriesJest(t *testing.T) {
	root := t.TempDir()
	copyNodeFixture(t, "jest", filepath.Join(t.TempDir(), "jest")) // skips without node or Jest
	modules, _ := filepath.Abs("../../testdata/run/node/jest/node_modules")
	writeFiles(t, root, jestRetryTree)
	if err := os.Symlink(modules, filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	marks := t.TempDir()
	code, out, errs := cliIn(t, root, append(os.Environ(), "MARKS="+marks), "run", "--json", "--retries", "2")
	if code != cli.ExitOK {
		t.Fatalf("exit %d with a test that fails once\n%s\n%s", code, out, errs)
	}
	rerunOnlyFailed(t, out)
	fin := map[string]testdex.Action{}
	for _, e := range events(t, out) {
		if e.ID != "" && e.Action.Final() {
			fin[e.ID] = e.Action
		}
	}
	flaky := "__tests__/cart.test.js::cart [x] > adds [2] items (a b)"
	if fin[flaky] != testdex.ActionFlaky || fin["__tests__/cart.test.js::cart [x] > adds [2] items"] != testdex.ActionPass ||
		fin["__tests__/cart.test.js::cart [x] > steady one"] != testdex.ActionPass {
		t.Errorf("final results %v; want %s flaky, the others passed", fin, flaky)
	}
}
