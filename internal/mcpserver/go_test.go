package mcpserver_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/mcpserver"
)

// TestGoFixture calls each tool on the Go run fixture: discovery, a run
// where tests pass, fail and skip, and the failures it left.
func TestGoFixture(t *testing.T) {
	root := goFixture(t)
	cs := connect(t, root, t.TempDir())

	var fs mcpserver.FailuresOutput
	if text, isErr := call(t, cs, "last_test_failures", nil, &fs); isErr || fs.Ran || len(fs.Failures) != 0 ||
		text != "no run yet for this workspace root (call run_tests first)" {
		t.Errorf("last_test_failures before a run: error %v, %+v, text %q", isErr, fs, text)
	}

	var disc mcpserver.DiscoverOutput
	text, isErr := call(t, cs, "discover_tests", map[string]any{"filter": "TestTable", "paths": []string{"run_test.go"}}, &disc)
	var ids []string
	for _, r := range disc.Tests {
		ids = append(ids, r.ID)
	}
	if isErr || text != "3 tests (2 nested), 0 skipped, in 1 files\nrun_test.go::TestTable\nrun_test.go::TestTable/good\nrun_test.go::TestTable/bad" ||
		!slices.Equal(ids, []string{"run_test.go::TestTable", "run_test.go::TestTable/good", "run_test.go::TestTable/bad"}) {
		t.Errorf("discover_tests: error %v, text %q, ids %v", isErr, text, ids)
	}

	var ran mcpserver.RunOutput
	text, isErr = call(t, cs, "run_tests", map[string]any{"scope": "all"}, &ran)
	if isErr || !strings.Contains(text, "3 passed, 3 failed, 4 skipped\nrerun: run_tests {\"ids\":[\"run_test.go::TestFail\",\"run_test.go::TestTable/bad\"]}\n") || !strings.HasSuffix(text, "exit: 1\n") || !strings.Contains(text, "--- FAIL: run_test.go::TestFail run_test.go:17") {
		t.Errorf("run_tests: error %v, text:\n%s", isErr, text)
	}
	got := map[string]testdex.Action{}
	for _, r := range ran.Results {
		got[r.ID] = r.Action
	}
	want := map[string]testdex.Action{
		"run_test.go::TestPass": "pass", "run_test.go::TestPass/sub_ok": "pass",
		"run_test.go::TestFail": "fail", "run_test.go::TestTable": "fail",
		"run_test.go::TestTable/good": "pass", "run_test.go::TestTable/bad": "fail",
		"run_test.go::TestSkip": "skip", "run_test.go::TestHang": "skip",
		"run_test.go::TestLeak": "skip", "run_test.go::TestLoud": "skip",
	}
	if ran.Exit != 1 || len(got) != len(want) {
		t.Errorf("run_tests: exit %d, results %v", ran.Exit, got)
	}
	for id, a := range want {
		if got[id] != a {
			t.Errorf("%s: %q, want %q", id, got[id], a)
		}
	}

	text, isErr = call(t, cs, "last_test_failures", nil, &fs)
	var failed []string
	for _, f := range fs.Failures {
		failed = append(failed, f.ID+" "+f.File+" "+f.Message)
	}
	slices.Sort(failed)
	if w := []string{"run_test.go::TestFail run_test.go got 1, want 2", "run_test.go::TestTable/bad run_test.go row failed"}; isErr || !fs.Ran ||
		!slices.Equal(failed, w) || !strings.HasSuffix(text, "\n2 failures in the last run") {
		t.Errorf("last_test_failures: error %v, %q, want %q\n%s", isErr, failed, w, text)
	}

	// Rerunning a passing ID alone passes, and clears the failures.
	text, isErr = call(t, cs, "run_tests", map[string]any{"ids": []string{"run_test.go::TestPass"}}, &ran)
	if isErr || ran.Exit != 0 || !strings.Contains(text, "2 passed, 0 failed, 0 skipped\nwhole run: testdex://runs/2/output, /results") || !strings.HasSuffix(text, "exit: 0\n") {
		t.Errorf("run_tests TestPass: error %v, exit %d, text:\n%s", isErr, ran.Exit, text)
	}
	if text, _ := call(t, cs, "last_test_failures", nil, &fs); !fs.Ran || len(fs.Failures) != 0 || text != "the last run had no failures" {
		t.Errorf("failures after a passing run: %+v, text %q", fs, text)
	}
}

// TestTimeout runs the fixture's hanging test with a 3-second limit.
func TestTimeout(t *testing.T) {
	root := goFixture(t)
	t.Setenv("TESTDEX_FIXTURE_HANG", "1")
	cs := connect(t, root, t.TempDir())
	var ran mcpserver.RunOutput
	text, isErr := call(t, cs, "run_tests", map[string]any{"ids": []string{"run_test.go::TestHang"}, "timeout": 3}, &ran)
	if isErr || ran.Exit != 124 || !ran.TimedOut || !strings.HasSuffix(text, "timed out after 3s\nexit: 124\n") {
		t.Errorf("error %v, exit %d, text:\n%s", isErr, ran.Exit, text)
	}
	if len(ran.Results) != 1 || ran.Results[0].Action != testdex.ActionFail || ran.Results[0].Message != "timed out after 3s" {
		t.Errorf("results %+v", ran.Results)
	}
}

// TestMissingToolchain hides go from PATH: run_tests is a tool error
// naming it.
func TestMissingToolchain(t *testing.T) {
	root := goFixture(t)
	t.Setenv("PATH", t.TempDir())
	cs := connect(t, root, t.TempDir())
	text, isErr := call(t, cs, "run_tests", map[string]any{"ids": []string{"run_test.go::TestPass"}}, nil)
	if !isErr || text != "go not found in PATH (install it, or check PATH)" {
		t.Errorf("error %v, text %q", isErr, text)
	}
}

// TestRefused covers the requests that are tool errors: paths outside the
// root, an unknown ID, a folder without a project.
func TestRefused(t *testing.T) {
	root := goFixture(t)
	cs := connect(t, root, t.TempDir())
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"discover_tests", map[string]any{"paths": []string{"../"}}, "../ is outside the workspace root " + root},
		{"run_tests", map[string]any{"paths": []string{"/etc"}}, "/etc is outside the workspace root " + root},
		{"run_tests", map[string]any{"paths": []string{"nope"}}, "nope does not exist in the workspace root"},
		{"run_tests", map[string]any{"ids": []string{"nowhere_test.go::TestNope"}}, `no test matches "nowhere_test.go::TestNope" (call discover_tests to see test IDs)`},
		{"discover_tests", map[string]any{"filter": "Test("}, `bad name pattern "Test("`},
	} {
		text, isErr := call(t, cs, c.tool, c.args, nil)
		if !isErr || !strings.HasPrefix(text, c.want) {
			t.Errorf("%s %v: error %v, text %q, want %q", c.tool, c.args, isErr, text, c.want)
		}
	}

	// An ID in a listed file that names no test is asked of the runner:
	// nothing ran under it, which the result says, with exit 2.
	text, isErr := call(t, cs, "run_tests", map[string]any{"ids": []string{"run_test.go::TestNope"}}, nil)
	if isErr || !strings.Contains(text, "no test matches run_test.go::TestNope") || !strings.HasSuffix(text, "exit: 2\n") {
		t.Errorf("unknown test of a listed file: error %v, text %q", isErr, text)
	}

	empty := connect(t, t.TempDir(), t.TempDir())
	for tool, args := range map[string]map[string]any{"discover_tests": nil, "run_tests": {"scope": "all"}} {
		if text, isErr := call(t, empty, tool, args, nil); !isErr || text != "no supported project detected in workspace root" {
			t.Errorf("%s in an empty folder: error %v, text %q", tool, isErr, text)
		}
	}
}
