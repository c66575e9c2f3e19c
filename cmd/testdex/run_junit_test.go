package main

import (
	"encoding/xml"
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

const junitFile = "src/test/java/run/RunTest.java::RunTest."

// junitFixture copies testdata/run/junit to a temp folder and returns it
// with a cliFunc running there; it skips the test without java and mvn.
func junitFixture(t *testing.T) (string, cliFunc) {
	t.Helper()
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s is not installed (scripts/setup/java.sh)", tool)
		}
	}
	dir := filepath.Join(t.TempDir(), "junit")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/run/junit")); err != nil {
		t.Fatal(err)
	}
	return dir, runnerIn(t, dir)
}

// surefireTotalRE is Surefire's closing count: "Tests run: 13, Failures:
// 2, Errors: 0, Skipped: 5" with no " -- in CLASS" after it.
var surefireTotalRE = regexp.MustCompile(`Tests run: (\d+), Failures: \d+, Errors: \d+, Skipped: \d+\s*$`)

// nativeMaven runs the project's own `mvn -B test` in dir and returns
// each testcase of Surefire's reports as "CLASS NAME ACTION" (sorted; a
// method's name with "()" as the records have it) and Surefire's own
// count of the tests it ran.
func nativeMaven(t *testing.T, dir string) ([]string, int) {
	t.Helper()
	cmd := exec.Command("mvn", "-B", "test")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	total := -1
	for _, l := range strings.Split(string(out), "\n") {
		if m := surefireTotalRE.FindStringSubmatch(l); m != nil {
			total, _ = strconv.Atoi(m[1])
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "target", "surefire-reports", "TEST-*.xml"))
	var cases []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Cases []struct {
				Name      string    `xml:"name,attr"`
				Classname string    `xml:"classname,attr"`
				Failure   *struct{} `xml:"failure"`
				Error     *struct{} `xml:"error"`
				Skipped   *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		}
		if err := xml.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range s.Cases {
			action := "pass"
			switch {
			case c.Failure != nil || c.Error != nil:
				action = "fail"
			case c.Skipped != nil:
				action = "skip"
			}
			name := c.Name
			if !strings.Contains(name, "(") { // add, positive[0]
				base, row, isRow := strings.Cut(name, "[")
				name = base + "()"
				if isRow {
					name += "[" + row
				}
			}
			cases = append(cases, c.Classname+" "+name+" "+action)
		}
	}
	sort.Strings(cases)
	return cases, total
}

// reportedCases returns each test result of a JSON Lines stream as "SCOPE
// NAME ACTION", sorted.
func reportedCases(t *testing.T, jsonl string) []string {
	var out []string
	for _, e := range events(t, jsonl) {
		if e.ID != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip) {
			out = append(out, e.Scope+" "+e.Name+" "+string(e.Action))
		}
	}
	sort.Strings(out)
	return out
}

// TestRunJUnit runs the fixture natively and through testdex: the same
// results, one per Surefire testcase (parameterized rows as Surefire
// reports them, no result for a class or a parameterized method), the same
// count as Surefire's.
func TestRunJUnit(t *testing.T) {
	dir, td := junitFixture(t)
	native, total := nativeMaven(t, dir)
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, tail(out), errs)
	}
	if got := reportedCases(t, out); strings.Join(got, "\n") != strings.Join(native, "\n") || len(got) != total {
		t.Errorf("testdex reported:\n%s\nmvn test (Surefire ran %d):\n%s", strings.Join(got, "\n"), total, strings.Join(native, "\n"))
	}
	legacy, rows := "src/test/java/run/LegacyTest.java::LegacyTest.", "src/test/java/run/sub/RowsTest.java::RowsTest."
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		legacy + "plain()": "pass", legacy + "ignored()": "skip",
		junitFile + "pass()": "pass", junitFile + "fail()": "fail", junitFile + "skipped()": "skip",
		junitFile + "rows(int)[1]": "pass", junitFile + "rows(int)[2]": "fail",
		junitFile + "hang()": "skip", junitFile + "leak()": "skip", junitFile + "loud()": "skip",
		"src/test/java/run/RunTest.java::RunTest$Inner.inner()": "pass",
		rows + "positive()[0]": "pass", rows + "positive()[1]": "pass",
	})

	code, out, _ = td(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	got := strings.Join(failureLines(t, out), "\n")
	want := strings.Join([]string{
		junitFile + "fail() src/test/java/run/RunTest.java:25 got 1, want 2 ==> expected: <2> but was: <1>",
		junitFile + "rows(int)[2] src/test/java/run/RunTest.java:35 row failed ==> expected: <true> but was: <false>",
	}, "\n")
	if got != want {
		t.Errorf("failures:\n%s\nwant:\n%s", got, want)
	}

	// --failed reruns the failed method and the method of the failed row
	// (Surefire cannot select one row).
	code, out, _ = td(nil, "run", "--failed", "--json")
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		junitFile + "fail()": "fail", junitFile + "rows(int)[1]": "pass", junitFile + "rows(int)[2]": "fail",
	})
	if code != cli.ExitFailed {
		t.Errorf("run --failed: exit %d", code)
	}
}

// TestRunJUnitSelections: a folder runs the classes Surefire finds below
// it, a file its class, an ID its method.
func TestRunJUnitSelections(t *testing.T) {
	_, td := junitFixture(t)
	_, out, errs := td(nil, "run", "--json", "src/test/java/run/sub", "src/test/java/run/LegacyTest.java", junitFile+"pass()")
	if len(finals(t, out)) == 0 {
		t.Fatalf("no results:\n%s%s", tail(out), errs)
	}
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		"src/test/java/run/sub/RowsTest.java::RowsTest.positive()[0]": "pass", "src/test/java/run/sub/RowsTest.java::RowsTest.positive()[1]": "pass",
		"src/test/java/run/LegacyTest.java::LegacyTest.plain()": "pass", "src/test/java/run/LegacyTest.java::LegacyTest.ignored()": "skip",
		junitFile + "pass()": "pass",
	})
}

func TestRunJUnitHangLeakLoud(t *testing.T) {
	if _, err := exec.LookPath("java"); err != nil {
		testenv.Missing(t, "java is not installed (scripts/setup/java.sh)")
	}
	td := fixtureRunner(t, "junit", "mvn")
	env := []string{"TESTDEX_FIXTURE_HANG=1", "TESTDEX_FIXTURE_LEAK=1", "TESTDEX_FIXTURE_LOUD=1"}
	code, out, errs := td(env, "run", "--timeout", "20s", junitFile+"hang()")
	if code != run.ExitTimeout {
		t.Fatalf("exit %d, want %d (timed out)\n%s%s", code, run.ExitTimeout, tail(out), errs)
	}
	// Surefire writes a class's results when the class ends: the hung
	// test is not reported, and the batch timed out.
	if !strings.Contains(out, "timed out after 20s") || !strings.HasSuffix(out, "0 passed, 0 failed, 0 skipped, 1 not reported, 1 batch error\n") {
		t.Errorf("hang not reported as a timeout:\n%s", tail(out))
	}

	code, out, errs = td(env[1:], "run", junitFile+"leak()", junitFile+"loud()")
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
