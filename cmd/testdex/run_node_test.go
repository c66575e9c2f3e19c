package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
	"github.com/testdex/testdex/run"
)

// nodeRunFixtures are testdata/run/node's projects: the folder and the
// test file of each framework.
var nodeRunFixtures = []struct{ dir, file string }{
	{"jest", "__tests__/math.test.js"},
	{"vitest", "test/math.test.js"},
	{"mocha", "test/math.spec.js"},
	{"node-test", "test/math.test.js"},
}

// nodeFixture copies testdata/run/node/<name> to a temp folder (see
// copyNodeFixture) and returns a function running testdex there with extra
// environment.
func nodeFixture(t *testing.T, name string) func(env []string, args ...string) (int, string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	copyNodeFixture(t, name, dir)
	return runnerIn(t, dir)
}

// copyNodeFixture copies testdata/run/node/<name> to dir with its
// node_modules (as scripts/setup/node.sh installed it) symlinked. It
// skips the test when node, or the framework's node_modules, is missing.
func copyNodeFixture(t *testing.T, name, dir string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	src, _ := filepath.Abs(filepath.Join("../../testdata/run/node", name))
	modules := filepath.Join(src, "node_modules")
	if _, err := os.Stat(modules); err != nil && name != "node-test" {
		testenv.Missing(t, "%s is not installed (run scripts/setup/node.sh)", modules)
	}
	if err := copyTree(src, dir); err != nil {
		t.Fatal(err)
	}
	if name != "node-test" {
		if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
}

// copyTree copies the files under src to dst, leaving out node_modules.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		switch {
		case d.Name() == "node_modules" && d.IsDir():
			return filepath.SkipDir
		case d.Name() == "node_modules": // a link to another install
			return nil
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

// TestRunNode runs each framework's fixture whole, and then by its file,
// next to the framework run natively with its own JSON reporter under the
// project's own test command: the results per ID are the framework's, a
// test declared through an alias of test (which the listing does not see)
// that fails among them, as are the counts (tests, not describe blocks;
// node:test's own suites are not counted, as node counts them apart). The
// tests see the project's own process: each fixture has a test checking
// its argv or its test command's options. Then it lists and reruns the
// failures. Jest cannot skip at run time: its opt-in tests pass at once.
func TestRunNode(t *testing.T) {
	for _, f := range nodeRunFixtures {
		t.Run(f.dir, func(t *testing.T) {
			t.Parallel() // each run is one node process tree, mostly waiting on startup I/O
			dir := filepath.Join(t.TempDir(), f.dir)
			copyNodeFixture(t, f.dir, dir)
			td := runnerIn(t, dir)
			native, counts := nativeRun(t, dir, f.dir)
			for _, args := range [][]string{{"run", "--json"}, {"run", "--json", f.file}} {
				code, out, errs := td(nil, args...)
				if code != cli.ExitFailed {
					t.Fatalf("%s: exit %d, want 1\n%s%s", args, code, tail(out), errs)
				}
				got := finals(t, out)
				checkNodeResults(t, f.dir, f.file, got)
				for id, a := range got {
					if n := native[nativeName(f.dir, strings.TrimPrefix(id, f.file+"::"))]; n != a {
						t.Errorf("%s: %s: %q, natively %q", args, id, a, n)
					}
				}
				if len(got) != len(native) {
					t.Errorf("%s: results for %d tests, natively %d: %v\nnatively %v", args, len(got), len(native), got, native)
				}
				if c := summaryOf(t, out); c != counts {
					t.Errorf("%s: counted %+v, natively %+v", args, c, counts)
				}
			}
			checkNodeFailures(t, td, f.file)
			checkNodeFailed(t, td, f.file)
		})
	}
}

// checkNodeResults checks a whole run's results against the fixture.
func checkNodeResults(t *testing.T, dir, file string, got map[string]testdex.Action) {
	t.Helper()
	optIn := testdex.ActionSkip
	if dir == "jest" {
		optIn = testdex.ActionPass
	}
	own := map[string]string{"jest": "argv is the project's own", "vitest": "globals from the command",
		"mocha": "sees the project's own command", "node-test": "sees the project's own command"}[dir]
	want := map[string]testdex.Action{}
	for name, a := range map[string]testdex.Action{"math > adds": "pass", "math > fails": "fail",
		"math > skipped": "skip", "math > double 1 is 2": "pass", "math > double 2 is 5": "fail",
		"top level": "pass", "alias fails": "fail", "hang": optIn, "leak": optIn, "loud": optIn, own: "pass"} {
		want[file+"::"+name] = a
	}
	if dir == "node-test" { // node reports its suites and subtests
		want[file+"::math"] = "fail"
		want[file+"::top level > sub ok"] = "pass"
	}
	for id, a := range want {
		if got[id] != a {
			t.Errorf("%s: %q, want %q", id, got[id], a)
		}
	}
	if len(got) != len(want) {
		t.Errorf("results for %d tests, want %d: %v", len(got), len(want), got)
	}
}

// nodeCounts are a run's passed, failed and skipped tests.
type nodeCounts struct{ Passed, Failed, Skipped int }

// summaryOf replays a --json event stream into a summary, as testdex
// counts it.
func summaryOf(t *testing.T, jsonl string) nodeCounts {
	t.Helper()
	s := run.NewSummary()
	for _, e := range events(t, jsonl) {
		s.Event(e)
	}
	s.Finish()
	return nodeCounts{s.Passed, s.Failed, s.Skipped}
}

// nativeName is a testdex name as the native report names it: Mocha's
// JSON reporter joins the titles with spaces.
func nativeName(dir, name string) string {
	if dir == "mocha" {
		return strings.ReplaceAll(name, " > ", " ")
	}
	return name
}

// nativeRun runs a fixture as its project's own test command does, with
// the framework's own JSON or TAP report, and returns each test's result
// by name (titles joined with " > ") and the framework's own counts. The
// report is asked for where the tests cannot see it, since the fixtures
// check their argv: Jest through its runCLI API with --json's options,
// Mocha through MOCHA_OPTIONS, node:test by flags of the parent process
// (the tests run in children); Vitest's fixture does not read its argv.
func nativeRun(t *testing.T, dir, name string) (map[string]testdex.Action, nodeCounts) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report.json")
	var args, env []string
	switch name {
	case "jest":
		args = []string{"node", "-e", `require('jest').runCLI({_: [], $0: 'jest', json: true, outputFile: process.env.REPORT}, [process.cwd()])
			.then(({results}) => { process.exitCode = results.success ? 0 : 1; })`}
		env = []string{"REPORT=" + report}
	case "vitest":
		args = []string{"node_modules/.bin/vitest", "run", "--globals", "--reporter=json", "--outputFile=" + report}
	case "mocha":
		args = []string{"node_modules/.bin/mocha", "--require", "test/support/env.js", "--check-leaks"}
		env = []string{"MOCHA_OPTIONS=--reporter json --reporter-option output=" + report}
	case "node-test":
		args = []string{"node", "--test", "--require", "./setup.cjs", "--test-reporter=tap"}
	}
	c := exec.Command(args[0], args[1:]...)
	c.Dir, c.Env = dir, append(os.Environ(), env...)
	out, err := c.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s natively: %v", name, err)
	}
	if name == "node-test" {
		return parseTAP(string(out))
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("%s natively wrote no report: %v\n%s", name, err, out)
	}
	if name == "mocha" {
		return parseMochaJSON(t, data)
	}
	return parseJestJSON(t, data)
}

// parseJestJSON reads Jest's --json report (Vitest's json reporter writes
// the same shape).
func parseJestJSON(t *testing.T, data []byte) (map[string]testdex.Action, nodeCounts) {
	t.Helper()
	var r struct {
		NumPassedTests, NumFailedTests, NumPendingTests, NumTodoTests int
		TestResults                                                   []struct {
			AssertionResults []struct {
				AncestorTitles []string
				Title, Status  string
			}
		}
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]testdex.Action{}
	for _, f := range r.TestResults {
		for _, a := range f.AssertionResults {
			action := map[string]testdex.Action{"passed": "pass", "failed": "fail"}[a.Status]
			if action == "" {
				action = testdex.ActionSkip
			}
			got[strings.Join(append(a.AncestorTitles, a.Title), " > ")] = action
		}
	}
	return got, nodeCounts{r.NumPassedTests, r.NumFailedTests, r.NumPendingTests + r.NumTodoTests}
}

// parseMochaJSON reads Mocha's json reporter's output.
func parseMochaJSON(t *testing.T, data []byte) (map[string]testdex.Action, nodeCounts) {
	t.Helper()
	type test struct{ FullTitle string }
	var r struct {
		Stats                     struct{ Passes, Failures, Pending int }
		Passes, Failures, Pending []test
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]testdex.Action{}
	for a, list := range map[testdex.Action][]test{"pass": r.Passes, "fail": r.Failures, "skip": r.Pending} {
		for _, x := range list {
			got[x.FullTitle] = a
		}
	}
	return got, nodeCounts{r.Stats.Passes, r.Stats.Failures, r.Stats.Pending}
}

// tapSubtest and tapResult are TAP's subtest header and result lines:
// the indent, the name; ok or not, the name, a directive.
var (
	tapSubtest = regexp.MustCompile(`^(\s*)# Subtest: (.*)$`)
	tapResult  = regexp.MustCompile(`^(\s*)(ok|not ok) \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$`)
)

// parseTAP reads node --test's TAP report: the results by their nesting
// (four spaces a level, the subtest headers naming the ancestors), suites
// included, and node's closing counts.
func parseTAP(out string) (map[string]testdex.Action, nodeCounts) {
	got := map[string]testdex.Action{}
	var stack []string
	var c nodeCounts
	for _, l := range strings.Split(out, "\n") {
		if m := tapSubtest.FindStringSubmatch(l); m != nil {
			level := len(m[1]) / 4
			stack = append(stack[:min(level, len(stack))], m[2])
			continue
		}
		if m := tapResult.FindStringSubmatch(l); m != nil {
			level := len(m[1]) / 4
			a := testdex.ActionPass
			switch {
			case m[4] != "":
				a = testdex.ActionSkip
			case m[2] == "not ok":
				a = testdex.ActionFail
			}
			got[strings.Join(append(append([]string{}, stack[:min(level, len(stack))]...), m[3]), " > ")] = a
			continue
		}
		var n int
		for _, k := range []struct {
			prefix string
			to     *int
		}{{"# pass ", &c.Passed}, {"# fail ", &c.Failed}, {"# skipped ", &c.Skipped}, {"# todo ", &c.Skipped}} {
			if _, err := fmt.Sscanf(l, k.prefix+"%d", &n); err == nil && strings.HasPrefix(l, k.prefix) {
				*k.to += n
			}
		}
	}
	return got, c
}

// checkNodeFailures expects exactly the failing tests, located in the
// test file with the assertion's message; the suite that failed only
// through them is left out.
func checkNodeFailures(t *testing.T, td cliFunc, file string) {
	t.Helper()
	code, out, _ := td(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	var ids []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var f struct {
			ID, File, Message string
			Line              int
		}
		json.Unmarshal([]byte(l), &f)
		if f.File != file || f.Line == 0 || f.Message == "" {
			t.Errorf("failure %s at %s:%d with message %q, want a line of %s and a message", f.ID, f.File, f.Line, f.Message, file)
		}
		ids = append(ids, f.ID)
	}
	sort.Strings(ids)
	if w := []string{file + "::alias fails", file + "::math > double 2 is 5", file + "::math > fails"}; strings.Join(ids, "\n") != strings.Join(w, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(ids, "\n"), strings.Join(w, "\n"))
	}
}

// checkNodeFailed reruns the failures by name: they fail again and no
// other test passes or fails. The tests their name pattern leaves out are
// not reported: the frameworks that say them skipped (Jest, Vitest, node
// 20) have those skips dropped by the run core, and Mocha is silent. The failed row of a loop (Mocha,
// node:test) and the alias test have IDs the listing may not hold; the
// ID rules place them and the runner selects them by name.
func checkNodeFailed(t *testing.T, td cliFunc, file string) {
	t.Helper()
	code, out, errs := td(nil, "run", "--failed", "--json")
	got := finals(t, out)
	if code != cli.ExitFailed {
		t.Errorf("run --failed: exit %d\n%s", code, errs)
	}
	failed := map[string]bool{file + "::alias fails": true, file + "::math > double 2 is 5": true, file + "::math > fails": true}
	for id := range failed {
		if got[id] != testdex.ActionFail {
			t.Errorf("run --failed: %s: %q, want fail", id, got[id])
		}
	}
	for id, a := range got {
		if !failed[id] && id != file+"::math" && a != testdex.ActionSkip { // node's suite fails through its tests
			t.Errorf("run --failed: %s: %q, want it left out or skipped", id, a)
		}
	}
}

// TestRunNodeNotInstalled runs fixtures whose dependencies are not
// installed: one toolchain error per project, naming the fix, and no test
// failures; nothing is fetched (npx would fetch the framework).
func TestRunNodeNotInstalled(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	root := t.TempDir()
	for _, f := range nodeRunFixtures[:3] { // node:test needs only node
		src, _ := filepath.Abs(filepath.Join("../../testdata/run/node", f.dir))
		if err := copyTree(src, filepath.Join(root, f.dir)); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runnerIn(t, root)(nil, "run")
	if code != cli.ExitFailed {
		t.Errorf("exit %d, want 1\n%s%s", code, out, errs)
	}
	for _, f := range nodeRunFixtures[:3] {
		fw := map[string]string{"jest": "jest", "vitest": "vitest", "mocha": "mocha"}[f.dir]
		dir := filepath.Join(root, f.dir)
		msg := "not installed: " + fw + " (no node_modules/" + fw + " in " + dir + " or a parent folder; run npm install in " + dir + ")"
		if n := strings.Count(out+errs, msg); n != 1 {
			t.Errorf("%q said %d times, want once:\n%s%s", msg, n, out, errs)
		}
	}
	if strings.Contains(out, "--- FAIL") {
		t.Errorf("tests reported failed:\n%s", out)
	}
}

// TestRunNodeHangLeakLoud runs the opt-in tests of the four frameworks at
// once: the hangs are killed at --timeout, the leaked children reported,
// the megabytes of output kept from the terminal view.
func TestRunNodeHangLeakLoud(t *testing.T) {
	root := t.TempDir()
	var hang, leakLoud []string
	for _, f := range nodeRunFixtures {
		copyNodeFixture(t, f.dir, filepath.Join(root, f.dir))
		id := f.dir + "/" + f.file + "::"
		hang = append(hang, id+"hang", id+"top level")
		leakLoud = append(leakLoud, id+"leak", id+"loud")
	}
	td := runnerIn(t, root)
	pids := fixturePIDs(t)
	env := []string{"TESTDEX_FIXTURE_HANG=1", "TESTDEX_FIXTURE_LEAK=1", "TESTDEX_FIXTURE_LOUD=1"}
	// 20 s: the four runners start at once on a loaded 2-core machine, and
	// Vitest alone took over 10 s to reach its hang under the whole suite.
	code, out, errs := td(env, append([]string{"run", "--jobs", "4", "--timeout", "20s"}, hang...)...)
	if code != run.ExitTimeout {
		t.Fatalf("exit %d, want %d (the timeout)\n%s%s", code, run.ExitTimeout, tail(out), errs)
	}
	// Vitest's worker sends its task updates in batches; a worker stuck in
	// the hang may never send the batch that says its tests started, and
	// then Vitest has reported nothing of the file: both its tests end
	// "not reported" beside the batch's timeout, which is the truth of
	// what the runner said. The other three report every test as it goes.
	vitestSilent := !strings.Contains(out, "vitest/test/math.test.js::") &&
		strings.Contains(out, "--- ERROR: vitest vitest\n    timed out after 20s")
	for _, f := range nodeRunFixtures {
		id := f.dir + "/" + f.file + "::hang"
		if f.dir == "vitest" && vitestSilent {
			continue
		}
		if !strings.Contains(out, "--- FAIL: "+id+" ") || !strings.Contains(out, "timed out after 20s") {
			t.Errorf("%s not reported as a timeout:\n%s", id, tail(out))
		}
	}
	// "top level" passes in each (node:test adds "top level > sub ok");
	// the tests the name pattern leaves out are skipped where the framework
	// reports them before the hang.
	// node:test's parent may report the file itself failed as the kill
	// reaches its child first (a race the runner reports truthfully): 4 or
	// 5 failed.
	want := `\n5 passed, [45] failed, \d+ skipped, 4 batch errors\n$`
	if vitestSilent { // Vitest's "top level" and hang are the ones not reported
		want = `\n4 passed, [34] failed, \d+ skipped, 2 not reported, 4 batch errors\n$`
	}
	if !regexp.MustCompile(want).MatchString(out) {
		t.Errorf("the tests that ended before the hang lost their results:\n%s", tail(out))
	}

	code, out, errs = td(env[1:], append([]string{"run", "--jobs", "4"}, leakLoud...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, tail(out), errs)
	}
	if n := strings.Count(out, "leaked: process"); n != 4 || !strings.Contains(out, "(sleep)") {
		t.Errorf("%d leaks reported, want 4:\n%s", n, tail(out))
	}
	if len(out) > 1<<20 {
		t.Errorf("output is %d bytes; megabytes of test output must not reach the terminal view of passing tests", len(out))
	}
	checkGone(t, pids, 8) // the processes that ran the test files, and the four leaked children
}
