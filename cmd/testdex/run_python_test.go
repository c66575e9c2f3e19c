package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
	"github.com/testdex/testdex/run"
)

// pyFixture copies testdata/run/<name> to a temp folder and returns a
// function running testdex there with extra environment. It skips when
// python3 (or, for pytest, pytest) is absent: scripts/setup/python.sh
// installs them.
func pyFixture(t *testing.T, name string) cliFunc {
	t.Helper()
	if name == "python" && exec.Command("python3", "-c", "import pytest").Run() != nil {
		testenv.Missing(t, "pytest is not installed for python3 (run scripts/setup/python.sh)")
	}
	return fixtureRunner(t, name, "python3", "PYTHONDONTWRITEBYTECODE=1")
}

// pyFailures runs `testdex failures --json` and returns "ID FILE:LINE
// MESSAGE" lines, sorted.
func pyFailures(t *testing.T, td cliFunc) []string {
	t.Helper()
	code, out, errs := td(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d\n%s", code, errs)
	}
	return failureLines(t, out)
}

// pyProject copies testdata/run/<name> (or, with files, writes those files)
// to a temp folder and returns it and a function running testdex there; it
// skips when python3, or for pytest pytest, is absent.
func pyProject(t *testing.T, name string, files map[string]string) (string, cliFunc) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		testenv.Missing(t, "python3 is not installed (run scripts/setup/python.sh)")
	}
	if !strings.Contains(name, "unittest") && exec.Command("python3", "-c", "import pytest").Run() != nil {
		testenv.Missing(t, "pytest is not installed for python3 (run scripts/setup/python.sh)")
	}
	dir := filepath.Join(t.TempDir(), name)
	if files == nil {
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("../../testdata/run", name))); err != nil {
			t.Fatal(err)
		}
	}
	for f, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, runnerIn(t, dir, "PYTHONDONTWRITEBYTECODE=1")
}

// nativePytest runs pytest itself in dir (python3 -m pytest, with a JUnit
// report in xunit1 form, which names each test's file) and returns each
// item's outcome in testdex's terms: an error is a failure, an xfail a
// skip, a non-strict xpass a pass.
func nativePytest(t *testing.T, dir string, args ...string) map[string]testdex.Action {
	t.Helper()
	report := filepath.Join(t.TempDir(), "junit.xml")
	cmd := exec.Command("python3", append([]string{"-m", "pytest", "-q", "-p", "no:cacheprovider",
		"--junitxml=" + report, "-o", "junit_family=xunit1"}, args...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, _ := cmd.CombinedOutput()
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("native pytest wrote no report: %v\n%s", err, out)
	}
	var doc struct {
		Cases []struct {
			Classname string    `xml:"classname,attr"`
			Name      string    `xml:"name,attr"`
			File      string    `xml:"file,attr"`
			Failure   *struct{} `xml:"failure"`
			Error     *struct{} `xml:"error"`
			Skipped   *struct{} `xml:"skipped"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]testdex.Action{}
	for _, c := range doc.Cases {
		// classname is the file's dotted module path, then the classes.
		module := strings.Count(strings.TrimSuffix(c.File, ".py"), "/") + 1
		parts := append(strings.Split(c.Classname, ".")[module:], c.Name)
		id := c.File + "::" + strings.Join(parts, "::")
		switch {
		case c.Failure != nil || c.Error != nil:
			got[id] = testdex.ActionFail
		case c.Skipped != nil:
			got[id] = testdex.ActionSkip
		default:
			got[id] = testdex.ActionPass
		}
	}
	return got
}

// eventsOf returns the run's events of one action.
func eventsOf(t *testing.T, jsonl string, action testdex.Action) []testdex.Event {
	t.Helper()
	var out []testdex.Event
	for _, e := range events(t, jsonl) {
		if e.Action == action {
			out = append(out, e)
		}
	}
	return out
}

// TestRunPytest: the whole project runs as pytest runs it, and the results
// are pytest's own, test for test: every item it ran (one the listing
// cannot see included, rows with "::" and "[" in their IDs), no result for
// classes or parametrized functions, and a listed test pytest never
// collects (defined under an old Python) is not reported, not failed.
func TestRunPytest(t *testing.T) {
	dir, td := pyProject(t, "python", nil)
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, out, errs)
	}
	native := nativePytest(t, dir)
	checkFinals(t, finals(t, out), native)
	checkFinals(t, native, map[string]testdex.Action{
		"test_run.py::test_pass": "pass", "test_run.py::test_fail": "fail",
		"test_run.py::test_table[good]": "pass", "test_run.py::test_table[bad]": "fail",
		"test_run.py::test_skip": "skip", "test_run.py::test_xfail": "skip",
		"test_run.py::TestGroup::test_one":     "pass",
		"test_run.py::TestGroup::test_rows[1]": "pass", "test_run.py::TestGroup::test_rows[2]": "pass",
		"test_run.py::test_hang": "skip", "test_run.py::test_leak": "skip", "test_run.py::test_loud": "skip",
		"test_run.py::test_odd_ids[a::b]": "pass", "test_run.py::test_odd_ids[x[1]]": "pass",
		"test_run.py::test_made": "fail", "test_run.py::test_world": "pass",
	})
	if u := eventsOf(t, out, testdex.ActionUnreported); len(u) != 1 || u[0].ID != "test_run.py::test_py2_only" {
		t.Errorf("not reported: %+v, want test_py2_only alone", u)
	}
	for _, e := range eventsOf(t, out, testdex.ActionFail) {
		if e.ID == "test_run.py::test_made" && (len(e.Seen) != 1 || e.Seen[0] != "runtime") {
			t.Errorf("test_made seen %v, want [runtime]", e.Seen)
		}
	}

	// The closing line counts pytest's items: 8 passed, 3 failed and 5
	// skipped (4 skips and an xfail), as pytest's own summary has them.
	_, text, _ := td(nil, "run")
	if !strings.Contains(text, "\n8 passed, 3 failed, 5 skipped, 1 not reported\n") || strings.Contains(text, "ERROR") {
		t.Errorf("closing lines:\n%s", tail(text))
	}

	// failures lists exactly the failures, with location and message.
	want := []string{"test_run.py::test_fail test_run.py:16 got 1, want 2", "test_run.py::test_made test_run.py:77 made at run time",
		"test_run.py::test_table[bad] test_run.py:21 row failed"}
	if got := pyFailures(t, td); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// --failed reruns exactly them: the good row does not run again.
	code, out, _ = td(nil, "run", "--failed", "--json")
	checkFinals(t, finals(t, out), map[string]testdex.Action{"test_run.py::test_fail": "fail",
		"test_run.py::test_table[bad]": "fail", "test_run.py::test_made": "fail"})
	if code != cli.ExitFailed {
		t.Errorf("run --failed: exit %d", code)
	}

	// A class runs its methods and their rows; a row whose parameters hold
	// "::" or "[" runs alone.
	for _, c := range []struct {
		ids  []string
		want map[string]testdex.Action
	}{
		{[]string{"test_run.py::TestGroup"}, map[string]testdex.Action{"test_run.py::TestGroup::test_one": "pass",
			"test_run.py::TestGroup::test_rows[1]": "pass", "test_run.py::TestGroup::test_rows[2]": "pass"}},
		{[]string{"test_run.py::test_odd_ids[a::b]"}, map[string]testdex.Action{"test_run.py::test_odd_ids[a::b]": "pass"}},
		{[]string{"test_run.py::test_odd_ids[x[1]]"}, map[string]testdex.Action{"test_run.py::test_odd_ids[x[1]]": "pass"}},
	} {
		code, out, errs = td(nil, append([]string{"run", "--json"}, c.ids...)...)
		checkFinals(t, finals(t, out), c.want)
		if code != 0 {
			t.Errorf("run %v: exit %d\n%s", c.ids, code, errs)
		}
	}
}

// TestRunPytestWorld: the tests see what `pytest ARGS` shows them: the
// same sys.argv (the console script and the user's arguments, nothing of
// testdex's), sys.path, working folder and environment.
func TestRunPytestWorld(t *testing.T) {
	dir, td := pyProject(t, "python", nil)
	// pytest as the user types it, found in PATH (a pyenv shim included);
	// the console script beside python3 is the one testdex gives argv[0].
	out, err := exec.Command("python3", "-c", "import os, sysconfig; print(os.path.join(sysconfig.get_path('scripts'), 'pytest'))").Output()
	script := strings.TrimSpace(string(out))
	if _, serr := os.Stat(script); err != nil || serr != nil {
		t.Skipf("no pytest console script beside python3 (%q)", script)
	}
	if _, err := exec.LookPath("pytest"); err != nil {
		testenv.Missing(t, "pytest is not in PATH")
	}
	world := func(file string) map[string]any {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var w map[string]any
		if err := json.Unmarshal(data, &w); err != nil {
			t.Fatal(err)
		}
		delete(w["env"].(map[string]any), "TESTDEX_FIXTURE_WORLD")
		return w
	}
	nativeFile, ours := filepath.Join(t.TempDir(), "native.json"), filepath.Join(t.TempDir(), "testdex.json")
	cmd := exec.Command("pytest", "--tb=short")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "TESTDEX_FIXTURE_WORLD="+nativeFile)
	if out, err := cmd.CombinedOutput(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("native pytest: %v\n%s", err, out)
	}
	if code, out, errs := td([]string{"TESTDEX_FIXTURE_WORLD=" + ours}, "run", "--", "--tb=short"); code != cli.ExitFailed {
		t.Fatalf("run: exit %d\n%s%s", code, tail(out), errs)
	}
	n, o := world(nativeFile), world(ours)
	for _, k := range []string{"argv", "path", "cwd", "env"} {
		if !reflect.DeepEqual(n[k], o[k]) {
			t.Errorf("%s differs:\nnative  %v\ntestdex %v", k, n[k], o[k])
		}
	}
}

// TestRunPytestNotInstalled: an interpreter without pytest (here the
// active virtualenv's) is one toolchain error naming it and the fix, and
// no test fails.
func TestRunPytestNotInstalled(t *testing.T) {
	_, td := pyProject(t, "python", nil)
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv: %v\n%s", err, out)
	}
	code, out, errs := td([]string{"VIRTUAL_ENV=" + venv}, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want 1\n%s%s", code, tail(out), errs)
	}
	batchErrs := eventsOf(t, out, testdex.ActionError)
	want := "pytest is not installed for " + filepath.Join(venv, "bin", "python") + " (pip install pytest"
	if len(batchErrs) != 1 || batchErrs[0].Cause != testdex.CauseToolchain || !strings.Contains(batchErrs[0].Message, want) {
		t.Errorf("errors: %+v, want one toolchain error saying %q", batchErrs, want)
	}
	if got := finals(t, out); len(got) != 0 {
		t.Errorf("results without pytest: %v", got)
	}
}

// TestRunPytestCollectionError: a module that fails to import is pytest's
// own report, shown once as the batch's error.
func TestRunPytestCollectionError(t *testing.T) {
	_, td := pyProject(t, "broken", map[string]string{"pytest.ini": "[pytest]\n",
		"test_bad.py": "import nonexistent_module\n\n\ndef test_x():\n    pass\n", "test_ok.py": "def test_ok():\n    pass\n"})
	code, out, errs := td(nil, "run")
	if code != cli.ExitFailed || strings.Count(out, "No module named 'nonexistent_module'") != 1 || strings.Count(out, "--- ERROR") != 1 {
		t.Errorf("exit %d, want 1 and the import error once:\n%s%s", code, out, errs)
	}
}

func TestRunUnittest(t *testing.T) {
	dir, td := pyProject(t, "unittest", nil)
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, out, errs)
	}
	p := "pkg/test_run.py::"
	got := finals(t, out)
	checkFinals(t, got, map[string]testdex.Action{
		"pkg/__init__.py::TestMade::test_made": "pass",
		p + "TestRun::test_pass":               "pass", p + "TestRun::test_fail": "fail",
		p + "TestRun::test_rows": "fail", p + "TestRun::test_skip": "skip", p + "TestRun::test_xfail": "skip",
		p + "TestOther::test_ok":  "pass",
		p + "TestSlow::test_hang": "skip", p + "TestSlow::test_leak": "skip", p + "TestSlow::test_loud": "skip",
	})
	// python -m unittest runs as many.
	cmd := exec.Command("python3", "-m", "unittest")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	native, _ := cmd.CombinedOutput()
	if ran := fmt.Sprintf("Ran %d tests", len(got)); !strings.Contains(string(native), ran) {
		t.Errorf("testdex ran %d tests, python -m unittest:\n%s", len(got), native)
	}
	if u := eventsOf(t, out, testdex.ActionUnreported); len(u) != 0 {
		t.Errorf("not reported: %+v", u)
	}
	want := []string{p + "TestRun::test_fail pkg/test_run.py:17 1 != 2 : got 1, want 2",
		p + "TestRun::test_rows pkg/test_run.py:22 (n=2): 2 not less than 2 : row failed"}
	if got := pyFailures(t, td); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	code, out, _ = td(nil, "run", "--failed", "--json")
	checkFinals(t, finals(t, out), map[string]testdex.Action{p + "TestRun::test_fail": "fail", p + "TestRun::test_rows": "fail"})
	if code != cli.ExitFailed {
		t.Errorf("run --failed: exit %d", code)
	}

	// A folder is discovered under it, a file loads as its module, and the
	// test made at run time runs by the ID its result had.
	for _, c := range []struct {
		args []string
		want int
	}{{[]string{"pkg"}, 10}, {[]string{"pkg/test_run.py"}, 9}, {[]string{"pkg/__init__.py::TestMade::test_made"}, 1}} {
		_, out, errs := td(nil, append([]string{"run", "--json"}, c.args...)...)
		if got := finals(t, out); len(got) != c.want {
			t.Errorf("run %v: %d results, want %d: %v\n%s", c.args, len(got), c.want, got, errs)
		}
	}
}

// TestRunUnittestImportError: a module that fails to import is the batch's
// error, shown once; the other modules' tests run.
func TestRunUnittestImportError(t *testing.T) {
	_, td := pyProject(t, "unittest-broken", map[string]string{
		"test_bad.py": "import unittest\nimport nonexistent_module\n\n\nclass TestB(unittest.TestCase):\n    def test_x(self):\n        pass\n",
		"test_ok.py":  "import unittest\n\n\nclass TestA(unittest.TestCase):\n    def test_ok(self):\n        pass\n"})
	code, out, errs := td(nil, "run")
	if code != cli.ExitFailed || strings.Count(out, "No module named 'nonexistent_module'") != 1 || strings.Count(out, "--- ERROR") != 1 ||
		!strings.Contains(out, "1 passed, 0 failed") {
		t.Errorf("exit %d, want 1, the import error once and test_ok passed:\n%s%s", code, out, errs)
	}
}

// TestRunPythonHangLeakLoud: the hanging test is killed at --timeout and
// reported as timed out; a leaked child is reported and killed; megabytes
// of a passing test's output stay out of the terminal view.
func TestRunPythonHangLeakLoud(t *testing.T) {
	for _, c := range []struct{ fixture, prefix, sleep string }{
		{"python", "test_run.py::test_", "sleep 297"},
		{"unittest", "pkg/test_run.py::TestSlow::test_", "sleep 296"},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			td := pyFixture(t, c.fixture)
			pids := fixturePIDs(t)
			env := []string{"TESTDEX_FIXTURE_HANG=1", "TESTDEX_FIXTURE_LEAK=1", "TESTDEX_FIXTURE_LOUD=1"}
			code, out, errs := td(env, "run", "--timeout", "8s", c.prefix+"leak", c.prefix+"loud", c.prefix+"hang") // room for a slow interpreter start on a loaded machine
			if code != run.ExitTimeout {
				t.Fatalf("exit %d, want %d\n%s%s", code, run.ExitTimeout, tail(out), errs)
			}
			if !strings.Contains(out, "--- FAIL: "+c.prefix+"hang") || !strings.Contains(out, "timed out after 8s") {
				t.Errorf("hang not reported as a timeout:\n%s", tail(out))
			}
			checkGone(t, pids, 1) // the hung test process, and the leaked child when it ran first
			code, out, errs = td(env[1:], "run", c.prefix+"leak", c.prefix+"loud")
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, tail(out), errs)
			}
			if !strings.Contains(out, "leaked: process") || !strings.Contains(out, "(sleep)") {
				t.Errorf("leak not reported:\n%s", tail(out))
			}
			if len(out) > 1<<20 {
				t.Errorf("output is %d bytes; megabytes of test output must not reach the terminal view of passing tests", len(out))
			}
		})
	}
}

// TestRunUnittestTestTimeout: --test-timeout fails the hanging test alone
// (SIGALRM in the driver) and the run goes on.
func TestRunUnittestTestTimeout(t *testing.T) {
	td := pyFixture(t, "unittest")
	code, out, errs := td([]string{"TESTDEX_FIXTURE_HANG=1"}, "run", "--json", "--timeout", "60s", "--test-timeout", "1s", "pkg/test_run.py::TestSlow")
	got := finals(t, out)
	if code != cli.ExitFailed || got["pkg/test_run.py::TestSlow::test_hang"] != "fail" || got["pkg/test_run.py::TestSlow::test_leak"] != "skip" {
		t.Fatalf("exit %d, results %v\n%s", code, got, errs)
	}
	if !strings.Contains(out, `"message":"timed out after 1s"`) {
		t.Errorf("no per-test timeout message:\n%s", tail(out))
	}
}
