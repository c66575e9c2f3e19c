package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/internal/cli"
)

// flakyTree is a Go module whose TestOdd fails on every other run (a
// counter under $MARKS), whose TestBad fails while $BAD is set, and whose
// TestGood passes.
var flakyTree = map[string]string{
	"go.mod": "module flk\n\ngo 1.21\n",
	"f_test.go": `package flk

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOdd(t *testing.T) {
	m := filepath.Join(os.Getenv("MARKS"), "n")
	b, _ := os.ReadFile(m)
	os.WriteFile(m, append(b, 'x'), 0o644)
	if len(b)%2 == 0 {
		t.Fatal("fails every other run")
	}
}

func TestBad(t *testing.T) {
	if os.Getenv("BAD") != "" {
		t.Fatal("broken")
	}
}

func TestGood(t *testing.T) {}
`,
}

// TestFlakyVerdicts: runs with --retries build the history; `testdex
// flaky` calls the test that passed on a rerun flaky and the one failing
// since a commit broken; --quarantine writes the flaky one to the
// quarantine list, after which its failure is said but fails no run, and
// `testdex failures` marks it; a quarantined test that fails nearly every
// run is broken and counts again.
func TestFlakyVerdicts(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, flakyTree)
	marks := t.TempDir()
	env := append(os.Environ(), "MARKS="+marks)
	for i := range 3 {
		e := env
		if i > 0 {
			e = append(env, "BAD=1")
		}
		cliIn(t, root, e, "run", "--retries", "1")
	}
	code, out, errs := cliIn(t, root, env, "flaky", "--json")
	if code != 0 {
		t.Fatalf("flaky: exit %d: %s", code, errs)
	}
	got := map[string]history.Verdict{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var v history.Verdict
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		got[v.ID] = v
	}
	if v := got["f_test.go::TestOdd"]; v.Kind != history.Flaky || v.RetryPassed == 0 {
		t.Errorf("TestOdd: %+v, want flaky (passed on a rerun)", v)
	}
	if v := got["f_test.go::TestBad"]; v.Kind != history.Broken || v.Failed != 2 {
		t.Errorf("TestBad: %+v, want broken for the last 2 runs", v)
	}
	if _, ok := got["f_test.go::TestGood"]; ok {
		t.Errorf("TestGood is ok and listed without --all: %+v", got)
	}

	if code, _, errs := cliIn(t, root, env, "flaky", "--quarantine"); code != 0 || !strings.Contains(errs, "1 flaky test(s) added") {
		t.Fatalf("flaky --quarantine: exit %d: %s", code, errs)
	}
	q, _ := os.ReadFile(filepath.Join(root, "testdex.quarantine.toml"))
	if !strings.Contains(string(q), `id = "f_test.go::TestOdd"`) || !strings.Contains(string(q), "reason = \"flaky: ") {
		t.Fatalf("quarantine file:\n%s", q)
	}
	os.WriteFile(filepath.Join(marks, "n"), nil, 0o644) // TestOdd fails on the next run
	code, _, errs = cliIn(t, root, env, "run")
	if code != cli.ExitOK || !strings.Contains(errs, "f_test.go::TestOdd failed but is quarantined") {
		t.Errorf("a quarantined failure: exit %d: %s", code, errs)
	}
	_, fails, _ := cliIn(t, root, env, "failures")
	if !strings.Contains(fails, "f_test.go::TestOdd") || !strings.Contains(fails, "(quarantined") {
		t.Errorf("failures:\n%s", fails)
	}
	if code, _, _ := cliIn(t, root, append(env, "BAD=1"), "run"); code != cli.ExitFailed {
		t.Errorf("a failure beside a quarantined one: exit %d, want 1", code)
	}

	// Broken under quarantine: it fails every run from here on; of its
	// last 10 runs, the first few still count as failing (verdicts are
	// per run: a pass on a rerun is not a failed run).
	writeFiles(t, root, map[string]string{"f_test.go": strings.Replace(flakyTree["f_test.go"], `if len(b)%2 == 0 {`, `if true {`, 1)})
	for range 9 {
		cliIn(t, root, env, "run", "f_test.go::TestOdd")
	}
	code, _, errs = cliIn(t, root, env, "run")
	if code != cli.ExitFailed || !strings.Contains(errs, "is quarantined but fails") {
		t.Errorf("a broken quarantined test: exit %d: %s", code, errs)
	}
}
