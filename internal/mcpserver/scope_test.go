package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/mcpserver"
)

// TestRunScope: run_tests without a selection is a usage error naming
// what to pass, a scope beside IDs or an unknown one too; scope "failed"
// reruns the failures; scope "affected" runs what the work tree's change
// affects, and nothing when there is no change; raw appends the native
// runner's own lines.
func TestRunScope(t *testing.T) {
	root := goFixture(t)
	cs := connect(t, root, t.TempDir())
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{nil, `run_tests needs a selection: ids or paths (discover_tests lists them), or scope: "affected"`},
		{map[string]any{"scope": "everything"}, `scope "everything" is unknown`},
		{map[string]any{"scope": "all", "ids": []string{"run_test.go::TestPass"}}, `scope "all" selects the tests itself`},
		{map[string]any{"since": "HEAD", "ids": []string{"run_test.go::TestPass"}}, `since goes with scope: "affected"`},
	} {
		if text, isErr := call(t, cs, "run_tests", c.args, nil); !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%v: error %v, text %q, want %q", c.args, isErr, text, c.want)
		}
	}

	var ran mcpserver.RunOutput
	text, _ := call(t, cs, "run_tests", map[string]any{"ids": []string{"run_test.go::TestFail", "run_test.go::TestPass"}, "raw": true}, &ran)
	if ran.Failed != 1 || !strings.Contains(text, "--- raw runner output (whole: testdex://runs/1/raw) ---\n") || !strings.Contains(text, `"Action":"fail"`) {
		t.Errorf("raw: %+v\n%s", ran, text)
	}
	if ran.Rerun == nil || strings.Join(ran.Rerun.IDs, ",") != "run_test.go::TestFail" {
		t.Errorf("rerun %+v, want TestFail alone", ran.Rerun)
	}
	text, _ = call(t, cs, "run_tests", map[string]any{"scope": "failed"}, &ran)
	if ran.Failed != 1 || ran.Passed != 0 || len(ran.Results) != 1 || ran.Results[0].ID != "run_test.go::TestFail" {
		t.Errorf("scope failed: %+v\n%s", ran, text)
	}

	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "fixture")
	ran = mcpserver.RunOutput{}
	text, isErr := call(t, cs, "run_tests", map[string]any{"scope": "affected"}, &ran)
	if isErr || ran.Run != 0 || !strings.Contains(text, "nothing ran") || !strings.HasSuffix(text, "exit: 0\n") {
		t.Errorf("scope affected without a change: error %v, %+v\n%s", isErr, ran, text)
	}
	file := filepath.Join(root, "run_test.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src = []byte(strings.Replace(string(src), `t.Log("some context")`, `t.Log("other context")`, 1))
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	ran = mcpserver.RunOutput{}
	text, isErr = call(t, cs, "run_tests", map[string]any{"scope": "affected"}, &ran)
	if isErr || ran.Failed != 1 || ran.Passed != 0 || len(ran.Results) != 1 || ran.Results[0].ID != "run_test.go::TestFail" {
		t.Errorf("scope affected after a change: error %v, %+v\n%s", isErr, ran, text)
	}
}
