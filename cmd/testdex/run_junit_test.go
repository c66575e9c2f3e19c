package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
)

const junitFile = "src/test/java/run/RunTest.java::RunTest."

func TestRunJUnit(t *testing.T) {
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed (scripts/setup/java.sh)")
	}
	td := fixtureRunner(t, "junit", "mvn")
	code, out, errs := td(nil, "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d, want 1\n%s%s", code, tail(out), errs)
	}
	checkFinals(t, finals(t, out), map[string]testdex.Action{
		"src/test/java/run/LegacyTest.java::LegacyTest": "pass", "src/test/java/run/LegacyTest.java::LegacyTest.plain()": "pass",
		"src/test/java/run/LegacyTest.java::LegacyTest.ignored()": "skip",
		"src/test/java/run/RunTest.java::RunTest":                 "fail",
		junitFile + "pass()":                                      "pass", junitFile + "fail()": "fail", junitFile + "skipped()": "skip",
		junitFile + "rows(int)": "fail", junitFile + "rows(int)[1]": "pass", junitFile + "rows(int)[2]": "fail",
		junitFile + "hang()": "skip", junitFile + "leak()": "skip", junitFile + "loud()": "skip",
	})

	code, out, _ = td(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	// The class is kept too: the core's failure filter does not know "."
	// separates a JUnit class from its methods (see the report).
	got := strings.Join(failureLines(t, out), "\n")
	for _, w := range []string{
		junitFile + "fail() src/test/java/run/RunTest.java:24 got 1, want 2 ==> expected: <2> but was: <1>",
		junitFile + "rows(int)[2] src/test/java/run/RunTest.java:34 row failed ==> expected: <true> but was: <false>",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("failures:\n%s\nlack:\n%s", got, w)
		}
	}

	code, out, _ = td(nil, "run", "--failed", "--json")
	res := finals(t, out)
	if code != cli.ExitFailed || res[junitFile+"fail()"] != "fail" || res[junitFile+"rows(int)[2]"] != "fail" || res["src/test/java/run/LegacyTest.java::LegacyTest.plain()"] != "" {
		t.Errorf("run --failed: exit %d, results %v", code, res)
	}
}

func TestRunJUnitHangLeakLoud(t *testing.T) {
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed (scripts/setup/java.sh)")
	}
	td := fixtureRunner(t, "junit", "mvn")
	env := []string{"TESTDEX_FIXTURE_HANG=1", "TESTDEX_FIXTURE_LEAK=1", "TESTDEX_FIXTURE_LOUD=1"}
	code, out, errs := td(env, "run", "--timeout", "20s", junitFile+"hang()")
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want 1\n%s%s", code, tail(out), errs)
	}
	if !strings.Contains(out, "--- FAIL: "+junitFile+"hang()") || !strings.Contains(out, "timed out after 20s") {
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
