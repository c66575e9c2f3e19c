package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/internal/mcpserver"
	"github.com/testdex/testdex/internal/testenv"
)

// oddRows are table rows whose names an exact rerun must carry through:
// spaces, brackets, a pipe, non-ASCII. The first three fail.
var oddRows = []string{"with spaces [1]", "pipe a|b", "ünïcödé ✓ 名前", "plain ok"}

// bigSuite writes a Go module of files*perFile passing tests, a table
// test of oddRows, and failing tests of which some print long messages:
// a suite whose whole answer is far over any budget.
func bigSuite(t *testing.T, files, perFile, failing int) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not installed")
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/big\n\ngo 1.21\n")
	write("big.go", "package big\n\nfunc Add(a, b int) int { return a + b }\n")
	for f := range files {
		var b strings.Builder
		b.WriteString("package big\n\nimport \"testing\"\n")
		for i := range perFile {
			fmt.Fprintf(&b, "\nfunc TestPass%d_%d(t *testing.T) {\n\tif Add(%d, 1) != %d {\n\t\tt.Fatal(\"add\")\n\t}\n}\n", f, i, i, i+1)
		}
		write(fmt.Sprintf("pass%d_test.go", f), b.String())
	}
	var b strings.Builder
	b.WriteString("package big\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nvar _ = strings.Repeat\n")
	b.WriteString("\nfunc TestRows(t *testing.T) {\n\tfor i, name := range []string{")
	for _, r := range oddRows {
		fmt.Fprintf(&b, "%q, ", r)
	}
	b.WriteString("} {\n\t\tt.Run(name, func(t *testing.T) {\n\t\t\tif i < 3 {\n\t\t\t\tt.Errorf(\"row %d failed\", i)\n\t\t\t}\n\t\t})\n\t}\n}\n")
	for i := range failing {
		fmt.Fprintf(&b, "\nfunc TestFail%d(t *testing.T) {\n\tt.Errorf(\"failure %d:\\n%%s\", strings.Repeat(\"    at frame of a long stack\\n\", 40))\n}\n", i, i)
	}
	write("fail_test.go", b.String())
	return dir
}

// connectBudget serves root with the given budget in memory.
func connectBudget(t *testing.T, root, cache string, budget int) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	srv := mcpserver.New(mcpserver.Config{Root: root, CacheDir: cache, Environ: os.Environ(), Budget: budget})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callSized calls a tool, fails the test when its result (text and
// structured content, marshalled) is over budget, and decodes the
// structured content into out.
func callSized(t *testing.T, cs *mcp.ClientSession, budget int, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	data, _ := json.Marshal(res)
	text := res.Content[0].(*mcp.TextContent).Text
	if len(data) > budget {
		t.Errorf("%s %v: %d bytes, over the budget of %d\n%s", tool, args, len(data), budget, text)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", tool, args, text)
	}
	if out != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	return text
}

// TestBudget runs a suite of 2,000 tests with 3 failing rows and 12
// failing tests through every tool, at the default budget and a small
// one: each answer stays under it, the run's answer names failures with
// file and line and the call that reruns them, that call reruns exactly
// the failed IDs (rows with spaces, brackets, a pipe, non-ASCII), and
// the resources hold what the answers left out.
func TestBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a suite of 2,000 tests")
	}
	root := bigSuite(t, 20, 100, 12)
	for _, budget := range []int{mcpserver.DefaultBudget, 2500} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			cs := connectBudget(t, root, t.TempDir(), budget)
			var disc mcpserver.DiscoverOutput
			text := callSized(t, cs, budget, "discover_tests", nil, &disc)
			t.Logf("discover_tests:\n%s", text)
			if disc.Total != 2017 || len(disc.Tests) == disc.Total || disc.Whole == "" || !strings.Contains(text, disc.Whole) {
				t.Errorf("discover_tests: total %d, %d shown, whole %q\n%s", disc.Total, len(disc.Tests), disc.Whole, text)
			}
			var ran mcpserver.RunOutput
			text = callSized(t, cs, budget, "run_tests", map[string]any{"scope": "all"}, &ran)
			t.Logf("run_tests:\n%s", text)
			checkRun(t, cs, budget, ran, text)
			var fs mcpserver.FailuresOutput
			callSized(t, cs, budget, "last_test_failures", nil, &fs)
			if len(fs.Failures)+fs.More != 15 || fs.Rerun == nil {
				t.Errorf("last_test_failures: %d shown, %d more, rerun %v", len(fs.Failures), fs.More, fs.Rerun)
			}
			callSized(t, cs, budget, "affected_tests", map[string]any{"files": []string{"big.go"}}, nil)
			callSized(t, cs, budget, "tests_covering", map[string]any{"file": "big.go", "line": 3}, nil)
			readWhole(t, cs, disc.Whole, `"total":2017`)
		})
	}
}

// wantFailed are the IDs the big suite fails.
func wantFailed() []string {
	ids := []string{"fail_test.go::TestRows/with_spaces_[1]", "fail_test.go::TestRows/pipe_a|b", "fail_test.go::TestRows/ünïcödé_✓_名前"}
	for i := range 12 {
		ids = append(ids, fmt.Sprintf("fail_test.go::TestFail%d", i))
	}
	slices.Sort(ids)
	return ids
}

// checkRun checks the run's answer, reruns its rerun call and reads its
// resources.
func checkRun(t *testing.T, cs *mcp.ClientSession, budget int, ran mcpserver.RunOutput, text string) {
	t.Helper()
	if ran.Passed != 2001 || ran.Failed != 16 || ran.Exit != 1 || ran.ResultsOmitted != 2017 || len(ran.Failures) == 0 || ran.Run == 0 {
		t.Errorf("run_tests: passed %d failed %d exit %d, %d results omitted, %d failures shown, run %d\n%s",
			ran.Passed, ran.Failed, ran.Exit, ran.ResultsOmitted, len(ran.Failures), ran.Run, text)
	}
	for _, f := range ran.Failures {
		if f.File != "fail_test.go" || f.Line == 0 || !strings.Contains(text, f.ID) {
			t.Errorf("failure %+v: want fail_test.go:line, named in the text", f)
		}
		if n := strings.Count(f.Message, "\n"); n > 5 {
			t.Errorf("failure %s keeps %d message lines, want at most 6", f.ID, n+1)
		}
	}
	if len(ran.Failures)+ran.MoreFailures != 15 || ran.Rerun == nil || !strings.Contains(text, "rerun: run_tests ") {
		t.Fatalf("run_tests: %d failures shown, %d more, rerun %v\n%s", len(ran.Failures), ran.MoreFailures, ran.Rerun, text)
	}
	args := map[string]any{}
	data, _ := json.Marshal(ran.Rerun)
	_ = json.Unmarshal(data, &args)
	var again mcpserver.RunOutput
	callSized(t, cs, budget, "run_tests", args, &again)
	whole := readWhole(t, cs, fmt.Sprintf("testdex://runs/%d/results", again.Run), `"results":[`)
	if err := json.Unmarshal([]byte(whole), &again); err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, r := range again.Results {
		if r.Action == "fail" && r.ID != "fail_test.go::TestRows" {
			failed = append(failed, r.ID)
		}
		if r.Action == "pass" && r.ID != "fail_test.go::TestRows/plain_ok" {
			t.Errorf("the rerun ran %s, which had passed", r.ID)
		}
	}
	slices.Sort(failed)
	if !slices.Equal(failed, wantFailed()) || again.Failed != 16 || again.Passed > 1 {
		t.Errorf("rerun %s: %d failed, %d passed: %q, want %q", data, again.Failed, again.Passed, failed, wantFailed())
	}
	readWhole(t, cs, fmt.Sprintf("testdex://runs/%d/results", ran.Run), `"id":"fail_test.go::TestRows/pipe_a|b"`)
	readWhole(t, cs, fmt.Sprintf("testdex://runs/%d/events", ran.Run), `"action":"fail"`)
	readWhole(t, cs, fmt.Sprintf("testdex://runs/%d/raw", ran.Run), `"Action":"fail"`)
	readWhole(t, cs, fmt.Sprintf("testdex://runs/%d/output", ran.Run), "--- FAIL: fail_test.go::TestFail11")
}

// readWhole reads a resource, checks it holds want and returns it.
func readWhole(t *testing.T, cs *mcp.ClientSession, uri, want string) string {
	t.Helper()
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("%s: %v", uri, err)
	}
	text := res.Contents[0].Text
	if !strings.Contains(text, want) {
		t.Errorf("%s: %d bytes without %q", uri, len(text), want)
	}
	return text
}
