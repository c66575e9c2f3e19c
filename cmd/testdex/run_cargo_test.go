package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
)

func TestRunCargo(t *testing.T) {
	t.Setenv("CARGO_TARGET_DIR", t.TempDir()) // not the user cache
	td := fixtureRunner(t, "cargo", "cargo")
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, tail(out), errs)
	}
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		"src/lib.rs::tests::pass": "pass", "src/lib.rs::tests::fail": "fail", "src/lib.rs::tests::ignored": "skip",
		"src/lib.rs::tests::hang": "pass", "src/lib.rs::tests::leak": "pass", "src/lib.rs::tests::loud": "pass",
		"src/lib.rs::src/lib.rs - add (line 7)": "pass",
		"tests/it.rs::integration":              "pass", "tests/it.rs::panics": "pass",
	})

	code, out, _ = td(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	if got, w := failureLines(t, out), []string{"src/lib.rs::tests::fail src/lib.rs:26 assertion `left == right` failed: got 1, want 2"}; strings.Join(got, "\n") != strings.Join(w, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
	}

	code, out, _ = td(nil, "run", "--failed", "--json")
	if got := finals(t, out); code != cli.ExitFailed || len(got) != 1 || got["src/lib.rs::tests::fail"] != "fail" {
		t.Errorf("run --failed: exit %d, results %v", code, got)
	}
}

func TestRunCargoHangLeakLoud(t *testing.T) {
	t.Setenv("CARGO_TARGET_DIR", t.TempDir())
	td := fixtureRunner(t, "cargo", "cargo")
	// Build first, so that the timeout measures the tests alone.
	if code, out, errs := td(nil, "run", "src/lib.rs::tests::pass"); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, tail(out), errs)
	}
	env := []string{"TESTDEX_FIXTURE_HANG=1", "TESTDEX_FIXTURE_LEAK=1", "TESTDEX_FIXTURE_LOUD=1"}
	code, out, errs := td(env, "run", "--timeout", "4s", "src/lib.rs::tests::leak", "src/lib.rs::tests::loud", "src/lib.rs::tests::hang")
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want 1\n%s%s", code, tail(out), errs)
	}
	if !strings.Contains(out, "--- FAIL: src/lib.rs::tests::hang") || !strings.Contains(out, "timed out after 4s") {
		t.Errorf("hang not reported as a timeout:\n%s", tail(out))
	}
	if out2, _ := exec.Command("pgrep", "-f", "sleep 300").Output(); len(out2) > 0 {
		t.Errorf("a process the tests started is still running: %s", out2)
	}

	code, out, errs = td(env[1:], "run", "src/lib.rs::tests::leak", "src/lib.rs::tests::loud")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, tail(out), errs)
	}
	if !strings.Contains(out, "leaked: process") || !strings.Contains(out, "(sleep)") {
		t.Errorf("leak not reported:\n%s", tail(out))
	}
	if len(out) > 1<<20 {
		t.Errorf("output is %d bytes; megabytes of test output must not reach the terminal view of passing tests", len(out))
	}
}
