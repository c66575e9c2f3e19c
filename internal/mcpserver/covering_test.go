package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/mcpserver"
	"github.com/testdex/testdex/internal/testenv"
)

// TestTestsCovering: before any recording the tool says how to record;
// run_tests with coverage records each test; tests_covering names the test
// that executed a line, and none for a line no test executed.
func TestTestsCovering(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not installed")
	}
	root := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":    "module example.com/cov\n\ngo 1.22\n",
		"a.go":      "package cov\n\nfunc Pos(x int) int {\n\treturn x\n}\n\nfunc Neg(x int) int {\n\treturn -x\n}\n",
		"a_test.go": "package cov\n\nimport \"testing\"\n\nfunc TestPos(t *testing.T) { Pos(1) }\n\nfunc TestNeg(t *testing.T) { t.Fatal(Neg(1)) }\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, root, t.TempDir())
	var out mcpserver.CoveringOutput
	text, isErr := call(t, cs, "tests_covering", map[string]any{"file": "a.go", "line": 4}, &out)
	if isErr || out.Recorded || !strings.Contains(text, "call run_tests with coverage: true first") {
		t.Fatalf("before a recording: error %v, %+v, %q", isErr, out, text)
	}
	var ran mcpserver.RunOutput
	if text, isErr := call(t, cs, "run_tests", map[string]any{"coverage": true, "scope": "all"}, &ran); isErr || ran.Passed != 1 || ran.Failed != 1 {
		t.Fatalf("run_tests with coverage: error %v, %+v\n%s", isErr, ran, text)
	}
	text, isErr = call(t, cs, "tests_covering", map[string]any{"file": "a.go", "line": 4}, &out)
	if isErr || !out.Recorded || len(out.Tests) != 1 || out.Tests[0].ID != "a_test.go::TestPos" || out.Tests[0].Outcome != "pass" ||
		!strings.HasPrefix(text, "a_test.go::TestPos  pass  recorded ") {
		t.Errorf("line 4: error %v, %+v, %q", isErr, out, text)
	}
	call(t, cs, "tests_covering", map[string]any{"file": "a.go", "line": 8}, &out)
	if len(out.Tests) != 1 || out.Tests[0].ID != "a_test.go::TestNeg" || out.Tests[0].Outcome != "fail" {
		t.Errorf("line 8: %+v", out)
	}
	if text, _ := call(t, cs, "tests_covering", map[string]any{"file": "a.go", "line": 6}, &out); len(out.Tests) != 0 || !strings.HasSuffix(text, "0 tests executed it") {
		t.Errorf("a blank line: %+v, %q", out, text)
	}
	if text, isErr := call(t, cs, "tests_covering", map[string]any{"file": "../x.go", "line": 1}, nil); !isErr || !strings.Contains(text, "outside the workspace root") {
		t.Errorf("outside the root: error %v, %q", isErr, text)
	}
}

// TestRunTestsCoverageWarning: run_tests with coverage on a module whose
// tests execute no measured line answers with the warning, in its
// structured warnings and in its text's stderr part, and passes;
// tests_covering then gives the reason, with the batch as unrecorded.
func TestRunTestsCoverageWarning(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not installed")
	}
	root := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":    "module example.com/none\n\ngo 1.22\n",
		"a.go":      "package none\n\n// N has no statement for coverage to count.\nconst N = 2\n",
		"a_test.go": "package none\n\nimport \"testing\"\n\nfunc TestN(t *testing.T) {\n\tif N+N != 4 {\n\t\tt.Fatal(N)\n\t}\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, root, t.TempDir())
	var ran mcpserver.RunOutput
	text, isErr := call(t, cs, "run_tests", map[string]any{"coverage": true, "scope": "all"}, &ran)
	want := "project . (go): no coverage recorded for the 1 test that ran: "
	if isErr || ran.Exit != 0 || len(ran.Warnings) != 1 || !strings.HasPrefix(ran.Warnings[0], want) ||
		!strings.Contains(text, "--- stderr ---\ntestdex: warning: "+ran.Warnings[0]+"\n") {
		t.Fatalf("run_tests: error %v, %+v\n%s", isErr, ran, text)
	}
	var out mcpserver.CoveringOutput
	text, isErr = call(t, cs, "tests_covering", map[string]any{"file": "a.go", "line": 4}, &out)
	if isErr || out.Recorded || len(out.Unrecorded) != 1 || out.Unrecorded[0].Project != "." || out.Unrecorded[0].Framework != "go" ||
		!strings.Contains(text, "recorded nothing for project . (go): ") {
		t.Errorf("tests_covering: error %v, %+v, %q", isErr, out, text)
	}
}
