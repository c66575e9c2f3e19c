package main

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/run"
)

// runFixture copies testdata/run/go to a temp folder and returns a
// function running testdex there with extra environment.
func runFixture(t *testing.T) cliFunc {
	t.Helper()
	return fixtureRunner(t, "go", "go")
}

// finals returns each test's final action from a JSON Lines event stream.
func finals(t *testing.T, jsonl string) map[string]testdex.Action {
	t.Helper()
	out := map[string]testdex.Action{}
	for _, l := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var e testdex.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("bad event %q: %v", l, err)
		}
		if e.ID != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip) {
			out[e.ID] = e.Action
		}
	}
	return out
}

func TestRunGo(t *testing.T) {
	td := runFixture(t)
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, out, errs)
	}
	got := finals(t, out)
	want := map[string]testdex.Action{
		"run_test.go::TestPass": "pass", "run_test.go::TestPass/sub_ok": "pass",
		"run_test.go::TestFail": "fail", "run_test.go::TestTable": "fail",
		"run_test.go::TestTable/good": "pass", "run_test.go::TestTable/bad": "fail",
		"run_test.go::TestSkip": "skip", "run_test.go::TestHang": "skip",
		"run_test.go::TestLeak": "skip", "run_test.go::TestLoud": "skip",
	}
	for id, a := range want {
		if got[id] != a {
			t.Errorf("%s: %q, want %q", id, got[id], a)
		}
	}
	if len(got) != len(want) {
		t.Errorf("results for %d tests, want %d: %v", len(got), len(want), got)
	}

	// failures lists exactly the failures, with location and message; a
	// parent that failed only through its row is left to the row.
	code, out, _ = td(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var f struct{ ID, File, Message string }
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("bad failure record %q: %v", l, err)
		}
		ids = append(ids, f.ID+" "+f.File+" "+f.Message)
	}
	sort.Strings(ids)
	if w := []string{"run_test.go::TestFail run_test.go got 1, want 2", "run_test.go::TestTable/bad run_test.go row failed"}; strings.Join(ids, "\n") != strings.Join(w, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(ids, "\n"), strings.Join(w, "\n"))
	}

	// --failed reruns exactly them: the good row does not run again.
	code, out, _ = td(nil, "run", "--failed", "--json")
	got = finals(t, out)
	if code != cli.ExitFailed || got["run_test.go::TestTable/good"] != "" || got["run_test.go::TestFail"] != "fail" || got["run_test.go::TestTable/bad"] != "fail" {
		t.Errorf("run --failed: exit %d, results %v", code, got)
	}

}

func TestRunGoHangLeakLoud(t *testing.T) {
	td := runFixture(t)
	pids := fixturePIDs(t)
	env := []string{"TESTDEX_FIXTURE_HANG=1", "TESTDEX_FIXTURE_LEAK=1", "TESTDEX_FIXTURE_LOUD=1"}
	// 10 s: go test compiles the package first, slowly on a loaded machine.
	code, out, errs := td(env, "run", "--timeout", "10s", "run_test.go::TestLeak", "run_test.go::TestLoud", "run_test.go::TestHang")
	if code != run.ExitTimeout {
		t.Fatalf("exit %d, want %d (timed out)\n%s%s", code, run.ExitTimeout, out, errs)
	}
	if !strings.Contains(out, "--- FAIL: run_test.go::TestHang") || !strings.Contains(out, "timed out after 10s") {
		t.Errorf("hang not reported as a timeout:\n%s", tail(out))
	}
	if !strings.Contains(out, "timed out after 10s\n") || !strings.HasSuffix(out, "0 passed, 1 failed, 0 skipped, 2 not reported, 1 batch error\n") {
		// TestHang runs first (file order) and the tests after it never start:
		// they are not failures, they were never reported.
		t.Errorf("summary:\n%s", tail(out))
	}
	checkGone(t, pids, 1) // the hung test process

	// Without the hang, the leaked child is reported and the megabytes of
	// output are capped.
	code, out, errs = td(env[1:], "run", "run_test.go::TestLeak", "run_test.go::TestLoud")
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

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}
