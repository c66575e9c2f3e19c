package java

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// testdata/surefire-reports holds the reports of a real run, recorded with
// (Maven 3.8.7, Surefire 3.2.5, JUnit 5.10.2, Java 17):
//
//	cp -r testdata/run/junit /tmp/jr && cd /tmp/jr
//	mvn -B -Dstyle.color=never test -Dtest=LegacyTest,RunTest -DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false
//	cp target/surefire-reports/TEST-*.xml $REPO/internal/lang/java/testdata/surefire-reports/
func TestReportParser(t *testing.T) {
	var evs []lang.RunEvent
	rp := &reportParser{dir: "../../../testdata/run/junit", reports: "testdata/surefire-reports", classes: []string{"run.RunTest"},
		emit: func(e lang.RunEvent) { evs = append(evs, e) }}
	rp.Write([]byte("[INFO] BUILD FAILURE\n[INFO] no newline"))
	rp.Close(1)
	got := map[string]lang.RunEvent{}
	var out []string
	for _, e := range evs {
		if e.Action == testdex.ActionOutput && e.Name == "" {
			out = append(out, e.Output)
			continue
		}
		got[e.Scope+" "+e.Name] = e
	}
	if w := []string{"[INFO] BUILD FAILURE\n", "[INFO] no newline\n"}; !reflect.DeepEqual(out, w) {
		t.Errorf("batch output %q, want %q", out, w)
	}
	want := map[string]testdex.Action{
		"run.LegacyTest plain()": "pass", "run.LegacyTest ignored()": "skip",
		"run.RunTest pass()": "pass", "run.RunTest fail()": "fail", "run.RunTest skipped()": "skip",
		"run.RunTest rows(int)[1]": "pass", "run.RunTest rows(int)[2]": "fail", "run.RunTest rows(int)": "fail",
		"run.RunTest hang()": "skip", "run.RunTest leak()": "skip", "run.RunTest loud()": "skip",
		"run RunTest": "fail",
	}
	for k, a := range want {
		if got[k].Action != a {
			t.Errorf("%s: %q, want %q", k, got[k].Action, a)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d results, want %d", len(got), len(want))
	}
	f := got["run.RunTest fail()"]
	if f.Message != "got 1, want 2 ==> expected: <2> but was: <1>" || f.File != "src/test/java/run/RunTest.java" || f.Line != 24 || !strings.HasPrefix(f.Output, "some context\n") {
		t.Errorf("fail() = %q at %s:%d, output %q", f.Message, f.File, f.Line, f.Output)
	}
	if m := got["run.RunTest skipped()"].Message; m != "not today" {
		t.Errorf("skipped() message %q", m)
	}
	if m := got["run.RunTest hang()"].Message; m != "Assumption failed: set TESTDEX_FIXTURE_HANG to hang" {
		t.Errorf("hang() message %q", m)
	}
}

func TestRecordName(t *testing.T) {
	for in, want := range map[string]string{"add": "add()", "square(int)[1]": "square(int)[1]", "positive[0]": "positive()[0]", "m(String, int)": "m(String, int)"} {
		if got := recordName(in); got != want {
			t.Errorf("recordName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRunCommands(t *testing.T) {
	p := &lang.Project{Dir: "/j", Manifest: "pom.xml"}
	tests := []*testdex.Test{
		{Run: "a.BTest#m"}, {Run: "a.BTest#n"}, {Run: "a.BTest#n"}, {Run: "a.CTest"}, {Run: "a.DTest#x"},
	}
	cmds, err := Runner{}.RunCommands(p, &lang.Selection{Tests: tests}, lang.RunOptions{Extra: []string{"-o"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "mvn -B -Dstyle.color=never test -Dtest=a.BTest#m+n,a.CTest,a.DTest#x -DfailIfNoTests=false -Dsurefire.failIfNoSpecifiedTests=false -o"
	if got := strings.Join(cmds[0].Args, " "); got != want {
		t.Errorf("command:\n got %s\nwant %s", got, want)
	}
	if c := selectedClasses(cmds[0]); !reflect.DeepEqual(c, []string{"a.CTest"}) {
		t.Errorf("whole classes %q", c)
	}
	if _, err := (Runner{}).RunCommands(&lang.Project{Manifest: "build.gradle"}, &lang.Selection{Tests: tests}, lang.RunOptions{}); err == nil {
		t.Error("a Gradle project gave no error")
	}
}
