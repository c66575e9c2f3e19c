package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
)

// repeatTree has a Go test that fails on its second execution only (a
// counter file under $MARKS), one that always fails and one that passes.
var repeatTree = map[string]string{
	"go.mod": "module rpt\n\ngo 1.21\n",
	"r_test.go": `package rpt

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSecond(t *testing.T) {
	m := filepath.Join(os.Getenv("MARKS"), "n")
	b, _ := os.ReadFile(m)
	os.WriteFile(m, append(b, 'x'), 0o644)
	if len(b) == 1 {
		t.Fatal("fails the second time")
	}
}

func TestSteady(t *testing.T) {}
func TestAlways(t *testing.T) { t.Fatal("always fails") }
`,
}

// repeatResults runs testdex in root and returns each test's final action
// and the attempts each ran.
func repeatResults(t *testing.T, root string, env []string, args ...string) (int, map[string]testdex.Action, map[string][]int) {
	t.Helper()
	code, out, errs := cliIn(t, root, env, args...)
	final, attempts := map[string]testdex.Action{}, map[string][]int{}
	for _, e := range events(t, out) {
		if e.ID == "" || !e.Action.Final() {
			continue
		}
		final[e.ID] = e.Action
		if e.Action != testdex.ActionFlaky {
			attempts[e.ID] = append(attempts[e.ID], e.Attempt)
		}
	}
	if len(final) == 0 {
		t.Fatalf("no result: exit %d\n%s", code, errs)
	}
	return code, final, attempts
}

// TestRunRepeat: --repeat 3 runs the code tests three times as attempts
// 0 to 2; the test that failed once ends flaky, the one that failed every
// time fails, and the history's verdict calls the first flaky.
func TestRunRepeat(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repeatTree)
	marks := t.TempDir()
	env := append(os.Environ(), "MARKS="+marks)
	hist := filepath.Join(t.TempDir(), "h.json")
	code, final, attempts := repeatResults(t, root, env, "run", "--json", "--repeat", "3", "--history", hist)
	want := map[string]testdex.Action{"r_test.go::TestSecond": testdex.ActionFlaky, "r_test.go::TestAlways": testdex.ActionFail, "r_test.go::TestSteady": testdex.ActionPass}
	for id, a := range want {
		if final[id] != a || len(attempts[id]) != 3 || attempts[id][2] != 2 {
			t.Errorf("%s ended %q after attempts %v; want %q after 0, 1, 2", id, final[id], attempts[id], a)
		}
	}
	if code != cli.ExitFailed {
		t.Errorf("exit %d with a test that always fails", code)
	}
	_, out, _ := cliIn(t, root, env, "flaky", "--json", "--history", hist)
	if !strings.Contains(out, `"id":"r_test.go::TestSecond","verdict":"flaky"`) || !strings.Contains(out, `"id":"r_test.go::TestAlways","verdict":"new failure"`) {
		t.Errorf("flaky verdicts:\n%s", out)
	}
	if code, _, errs := cliIn(t, root, env, "run", "--repeat-budget", "1m"); code != cli.ExitUsage {
		t.Errorf("--repeat-budget without --repeat: exit %d: %s", code, errs)
	}
}

// TestRunDetectNew: --detect-new runs the tests the change adds (and
// not the others) up to ten times within its budget, and names a test
// that fails once among them flaky.
func TestRunDetectNew(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Missing(t, "git is not installed")
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"go.mod": "module rpt\n\ngo 1.21\n", "old/old_test.go": "package old\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {}\n"})
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qm", "base"}} {
		c := exec.Command("git", args...)
		c.Dir = root
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	writeFiles(t, root, map[string]string{"r_test.go": repeatTree["r_test.go"]})
	marks := t.TempDir()
	code, final, attempts := repeatResults(t, root, append(os.Environ(), "MARKS="+marks), "run", "--json", "--detect-new")
	if _, ran := final["old/old_test.go::TestOld"]; ran {
		t.Errorf("the unchanged test ran: %v", final)
	}
	if final["r_test.go::TestSecond"] != testdex.ActionFlaky || len(attempts["r_test.go::TestSecond"]) != 10 || final["r_test.go::TestSteady"] != testdex.ActionPass {
		t.Errorf("final %v, attempts %v; want TestSecond flaky after 10 attempts", final, attempts)
	}
	if code != cli.ExitFailed {
		t.Errorf("exit %d with a new test that always fails", code)
	}
}
