package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
	"github.com/testdex/testdex/run"
)

// cargoFixture copies testdata/run/cargo to a temp folder and returns it
// with a cliFunc running there; it skips the test without cargo.
func cargoFixture(t *testing.T) (string, cliFunc) {
	t.Helper()
	if _, err := exec.LookPath("cargo"); err != nil {
		testenv.Missing(t, "cargo is not installed (https://rustup.rs)")
	}
	dir := filepath.Join(t.TempDir(), "cargo")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/run/cargo")); err != nil {
		t.Fatal(err)
	}
	return dir, runnerIn(t, dir)
}

var (
	libtestLineRE   = regexp.MustCompile(`^test (.+?) \.\.\. (ok|FAILED|ignored)`)
	libtestResultRE = regexp.MustCompile(`^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored`)
)

// nativeCargo runs the project's own `cargo test --no-fail-fast` in dir
// and returns each libtest result line as "NAME ACTION" (sorted; the
// test's mode, as " - should panic", is not part of its name) and the
// total of its "test result:" summaries.
func nativeCargo(t *testing.T, dir string) ([]string, int) {
	t.Helper()
	cmd := exec.Command("cargo", "test", "--no-fail-fast")
	cmd.Dir = dir
	out, _ := cmd.Output()
	var lines []string
	total := 0
	for _, l := range strings.Split(string(out), "\n") {
		if m := libtestLineRE.FindStringSubmatch(l); m != nil {
			name := m[1]
			for _, mode := range []string{" - should panic", " - compile fail", " - compile"} {
				name = strings.TrimSuffix(name, mode)
			}
			lines = append(lines, name+" "+map[string]string{"ok": "pass", "FAILED": "fail", "ignored": "skip"}[m[2]])
		}
		if m := libtestResultRE.FindStringSubmatch(l); m != nil {
			for _, n := range m[1:] {
				k, _ := strconv.Atoi(n)
				total += k
			}
		}
	}
	sort.Strings(lines)
	return lines, total
}

// reported returns each test result of a JSON Lines stream as "NAME
// ACTION", sorted.
func reported(t *testing.T, jsonl string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var e testdex.Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("bad event %q: %v", l, err)
		}
		if e.ID != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip) {
			out = append(out, e.Name+" "+string(e.Action))
		}
	}
	sort.Strings(out)
	return out
}

// TestRunCargo runs the fixture natively and through testdex: the same
// results, one per libtest line, with the same count, in the crate's own
// target folder; then paths and doc tests by ID run what they name.
func TestRunCargo(t *testing.T) {
	dir, td := cargoFixture(t)
	native, total := nativeCargo(t, dir)
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, tail(out), errs)
	}
	if got := reported(t, out); strings.Join(got, "\n") != strings.Join(native, "\n") || len(got) != total {
		t.Errorf("testdex reported:\n%s\ncargo test (%d tests):\n%s", strings.Join(got, "\n"), total, strings.Join(native, "\n"))
	}
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		"src/lib.rs::tests::pass": "pass", "src/lib.rs::tests::fail": "fail", "src/lib.rs::tests::ignored": "skip",
		"src/lib.rs::tests::hang": "pass", "src/lib.rs::tests::leak": "pass", "src/lib.rs::tests::loud": "pass",
		"src/ext.rs::ext::tests::doubles":               "pass",
		"src/lib.rs::src/lib.rs - add (line 7)":         "pass",
		"src/ext.rs::src/ext.rs - ext::double (line 7)": "pass", "src/ext.rs::src/ext.rs - ext::double (line 11)": "pass",
		"tests/it.rs::integration": "pass", "tests/it.rs::panics": "pass", "tests/more.rs::integration": "pass",
	})
	if os.Getenv("CARGO_TARGET_DIR") == "" && os.Getenv("CARGO_BUILD_TARGET_DIR") == "" {
		if _, err := os.Stat(filepath.Join(dir, "target", "debug")); err != nil {
			t.Errorf("the crate's own target folder was not used: %v", err)
		}
	}
	if _, text, _ := td(nil, "run"); !strings.Contains(text, "ran "+strconv.Itoa(total)+" tests") {
		t.Errorf("text summary does not count cargo's %d tests:\n%s", total, tail(text))
	}

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

// TestRunCargoSelections: a file runs its own tests and doc tests (a
// target's root file without its module files), a folder its targets,
// and a doc test's ID that doc test alone, though libtest filters are
// substrings and another file has a doc test on the same line.
func TestRunCargoSelections(t *testing.T) {
	_, td := cargoFixture(t)
	lib := "src/lib.rs::"
	for _, c := range []struct {
		args []string
		want map[string]testdex.Action
	}{
		{[]string{"src/ext.rs"}, map[string]testdex.Action{"src/ext.rs::ext::tests::doubles": "pass",
			"src/ext.rs::src/ext.rs - ext::double (line 7)": "pass", "src/ext.rs::src/ext.rs - ext::double (line 11)": "pass"}},
		{[]string{"src/lib.rs"}, map[string]testdex.Action{lib + "tests::pass": "pass", lib + "tests::fail": "fail", lib + "tests::ignored": "skip",
			lib + "tests::hang": "pass", lib + "tests::leak": "pass", lib + "tests::loud": "pass", lib + "src/lib.rs - add (line 7)": "pass"}},
		{[]string{"tests"}, map[string]testdex.Action{"tests/it.rs::integration": "pass", "tests/it.rs::panics": "pass", "tests/more.rs::integration": "pass"}},
		{[]string{"src/lib.rs::src/lib.rs - add (line 7)"}, map[string]testdex.Action{lib + "src/lib.rs - add (line 7)": "pass"}},
		{[]string{"src/ext.rs::src/ext.rs - ext::double (line 7)", "tests/more.rs::integration", lib + "tests::pass"},
			map[string]testdex.Action{"src/ext.rs::src/ext.rs - ext::double (line 7)": "pass", "tests/more.rs::integration": "pass", lib + "tests::pass": "pass"}},
	} {
		_, out, errs := td(nil, append([]string{"run", "--json"}, c.args...)...)
		t.Run(strings.Join(c.args, ","), func(t *testing.T) {
			if len(finals(t, out)) == 0 {
				t.Fatalf("no results:\n%s%s", tail(out), errs)
			}
			checkFinals(t, finals(t, out), c.want)
		})
	}
}

func TestRunCargoHangLeakLoud(t *testing.T) {
	td := fixtureRunner(t, "cargo", "cargo")
	// Build first, so that the timeout measures the tests alone.
	if code, out, errs := td(nil, "run", "src/lib.rs::tests::pass"); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, tail(out), errs)
	}
	pids := fixturePIDs(t)
	env := []string{"TESTDEX_FIXTURE_HANG=1", "TESTDEX_FIXTURE_LEAK=1", "TESTDEX_FIXTURE_LOUD=1"}
	code, out, errs := td(env, "run", "--timeout", "10s", "src/lib.rs::tests::leak", "src/lib.rs::tests::loud", "src/lib.rs::tests::hang")
	if code != run.ExitTimeout {
		t.Fatalf("exit %d, want %d (timed out)\n%s%s", code, run.ExitTimeout, tail(out), errs)
	}
	// libtest names a test only when it ends (or after 60 seconds, "has
	// been running for over 60 seconds"): the hung test is not reported,
	// and the batch timed out.
	if !strings.Contains(out, "timed out after 10s") || !strings.HasSuffix(out, "2 passed, 0 failed, 0 skipped, 1 not reported, 1 batch error\n") {
		t.Errorf("hang not reported as a timeout:\n%s", tail(out))
	}
	checkGone(t, pids, 1) // the leaked child

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
