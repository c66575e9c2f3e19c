package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
)

// pyFixture copies testdata/run/<name> to a temp folder and returns a
// function running testdex there with extra environment. It skips when
// python3 (or, for pytest, pytest) is absent: scripts/setup/python.sh
// installs them.
func pyFixture(t *testing.T, name string) cliFunc {
	t.Helper()
	if name == "python" && exec.Command("python3", "-c", "import pytest").Run() != nil {
		t.Skip("pytest is not installed for python3 (run scripts/setup/python.sh)")
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

func TestRunPytest(t *testing.T) {
	td := pyFixture(t, "python")
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, out, errs)
	}
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		"test_run.py::test_pass": "pass", "test_run.py::test_fail": "fail",
		"test_run.py::test_table": "fail", "test_run.py::test_table[good]": "pass", "test_run.py::test_table[bad]": "fail",
		"test_run.py::test_skip": "skip", "test_run.py::test_xfail": "skip",
		"test_run.py::TestGroup": "pass", "test_run.py::TestGroup::test_one": "pass",
		"test_run.py::TestGroup::test_rows": "pass", "test_run.py::TestGroup::test_rows[1]": "pass",
		"test_run.py::TestGroup::test_rows[2]": "pass",
		"test_run.py::test_hang":               "skip", "test_run.py::test_leak": "skip", "test_run.py::test_loud": "skip",
	})

	// failures lists exactly the failures, with location and message; the
	// parametrized function failed only through its row.
	want := []string{"test_run.py::test_fail test_run.py:16 got 1, want 2", "test_run.py::test_table[bad] test_run.py:21 row failed"}
	if got := pyFailures(t, td); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// --failed reruns exactly them: the good row does not run again.
	code, out, _ = td(nil, "run", "--failed", "--json")
	got := finals(t, out)
	if code != cli.ExitFailed || got["test_run.py::test_table[good]"] != "" || got["test_run.py::test_pass"] != "" ||
		got["test_run.py::test_fail"] != "fail" || got["test_run.py::test_table[bad]"] != "fail" {
		t.Errorf("run --failed: exit %d, results %v", code, got)
	}

	// A class record runs its methods and their rows.
	code, out, _ = td(nil, "run", "--json", "test_run.py::TestGroup")
	checkFinals(t, finals(t, out), map[string]testdex.Action{"test_run.py::TestGroup": "pass",
		"test_run.py::TestGroup::test_one": "pass", "test_run.py::TestGroup::test_rows": "pass",
		"test_run.py::TestGroup::test_rows[1]": "pass", "test_run.py::TestGroup::test_rows[2]": "pass"})
	if code != 0 {
		t.Errorf("run TestGroup: exit %d", code)
	}
}

func TestRunUnittest(t *testing.T) {
	td := pyFixture(t, "unittest")
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, out, errs)
	}
	p := "pkg/test_run.py::"
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		p + "TestRun": "fail", p + "TestRun::test_pass": "pass", p + "TestRun::test_fail": "fail",
		p + "TestRun::test_rows": "fail", p + "TestRun::test_skip": "skip", p + "TestRun::test_xfail": "skip",
		p + "TestOther": "pass", p + "TestOther::test_ok": "pass",
		p + "TestSlow": "skip", p + "TestSlow::test_hang": "skip", p + "TestSlow::test_leak": "skip", p + "TestSlow::test_loud": "skip",
	})
	want := []string{p + "TestRun::test_fail pkg/test_run.py:17 1 != 2 : got 1, want 2",
		p + "TestRun::test_rows pkg/test_run.py:22 (n=2): 2 not less than 2 : row failed"}
	if got := pyFailures(t, td); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	code, out, _ = td(nil, "run", "--failed", "--json")
	got := finals(t, out)
	if code != cli.ExitFailed || got[p+"TestRun::test_pass"] != "" || got[p+"TestRun::test_fail"] != "fail" || got[p+"TestRun::test_rows"] != "fail" {
		t.Errorf("run --failed: exit %d, results %v", code, got)
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
			code, out, errs := td(env, "run", "--timeout", "4s", c.prefix+"leak", c.prefix+"loud", c.prefix+"hang")
			if code != cli.ExitFailed {
				t.Fatalf("exit %d, want 1\n%s%s", code, tail(out), errs)
			}
			if !strings.Contains(out, "--- FAIL: "+c.prefix+"hang") || !strings.Contains(out, "timed out after 4s") {
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
