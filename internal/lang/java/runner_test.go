package java

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
)

// testdata/surefire-reports and testdata/mvn-test.txt are a real run of
// the whole fixture, recorded with (Maven 3.8.7, Surefire 3.2.5, JUnit
// 5.10.2, Java 17):
//
//	cp -r testdata/run/junit /tmp/jr && cd /tmp/jr
//	mvn -B test > $REPO/internal/lang/java/testdata/mvn-test.txt 2>&1
//	cp target/surefire-reports/TEST-*.xml $REPO/internal/lang/java/testdata/surefire-reports/
//
// The parsers' events on each recording are kept in testdata/events; after
// a deliberate change of a parser, regenerate them (and check the
// difference by hand) with
//
//	go test ./internal/lang/java -run 'Test(ReportParser|CoverParser)$' -update

// parseReports feeds the recorded mvn output to a parser reading the
// recorded reports, in every chunk size, expects the same events each
// time, those of the golden file, and returns them.
func parseReports(t *testing.T) []lang.RunEvent {
	t.Helper()
	return parsertest.Run(t, parsertest.Case{Stream: "testdata/mvn-test.txt", Exit: 1, Golden: "testdata/events/mvn-test.jsonl",
		New: func(emit func(lang.RunEvent)) lang.Parser {
			return &reportParser{dir: "../../../testdata/run/junit", reports: "testdata/surefire-reports", emit: emit}
		}})
}

// TestReportParser: one result per Surefire testcase (13, Surefire's
// "Tests run"), named as the records name them, and nothing else: no
// result for a class or a parameterized method.
func TestReportParser(t *testing.T) {
	evs := parseReports(t)
	got := map[string]lang.RunEvent{}
	var results []string
	output := 0
	for _, e := range evs {
		if e.Action == testdex.ActionOutput && e.Name == "" {
			output++
			continue
		}
		got[e.Scope+" "+e.Name] = e
		results = append(results, e.Scope+" "+e.Name+" "+string(e.Action))
	}
	if output != 121 { // the last, a colour reset, without a newline
		t.Errorf("%d lines of batch output, want mvn's 121", output)
	}
	sort.Strings(results)
	want := []string{
		"run.LegacyTest ignored() skip", "run.LegacyTest plain() pass",
		"run.RunTest fail() fail", "run.RunTest hang() skip", "run.RunTest leak() skip", "run.RunTest loud() skip",
		"run.RunTest pass() pass", "run.RunTest rows(int)[1] pass", "run.RunTest rows(int)[2] fail", "run.RunTest skipped() skip",
		"run.RunTest$Inner inner() pass",
		"run.sub.RowsTest positive()[0] pass", "run.sub.RowsTest positive()[1] pass",
	}
	if !reflect.DeepEqual(results, want) {
		t.Errorf("results:\n got %q\nwant %q", results, want)
	}
	f := got["run.RunTest fail()"]
	if f.Message != "got 1, want 2 ==> expected: <2> but was: <1>" || f.File != "src/test/java/run/RunTest.java" || f.Line != 25 || !strings.HasPrefix(f.Output, "some context\n") {
		t.Errorf("fail() = %q at %s:%d, output %q", f.Message, f.File, f.Line, f.Output)
	}
	if m := got["run.RunTest skipped()"].Message; m != "not today" {
		t.Errorf("skipped() message %q", m)
	}
	if m := got["run.RunTest hang()"].Message; m != "Assumption failed: set TESTDEX_FIXTURE_HANG to hang" {
		t.Errorf("hang() message %q", m)
	}
}

// TestReportParserClassFailure: a testcase without a name (a class that
// failed before its tests) is the class's result.
func TestReportParserClassFailure(t *testing.T) {
	dir := t.TempDir()
	xml := `<testsuite><testcase name="" classname="a.b.CTest"><error message="boom">java.lang.IllegalStateException: boom</error></testcase></testsuite>`
	if err := os.WriteFile(dir+"/TEST-a.b.CTest.xml", []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	var evs []lang.RunEvent
	rp := &reportParser{dir: dir, reports: dir, start: time.Now().Add(-time.Minute), emit: func(e lang.RunEvent) { evs = append(evs, e) }}
	rp.Close(1)
	if len(evs) != 1 || evs[0].Scope != "a.b" || evs[0].Name != "CTest" || evs[0].Action != testdex.ActionFail || evs[0].Message != "boom" {
		t.Errorf("events %+v", evs)
	}
}

func TestRecordName(t *testing.T) {
	for in, want := range map[string]string{"add": "add()", "square(int)[1]": "square(int)[1]", "positive[0]": "positive()[0]", "m(String, int)": "m(String, int)"} {
		if got := recordName(in); got != want {
			t.Errorf("recordName(%q) = %q, want %q", in, got, want)
		}
	}
}

func command(t *testing.T, sel *lang.Selection, extra ...string) string {
	t.Helper()
	cmds, err := Runner{}.RunCommands(&lang.Project{Dir: "/j", Manifest: "pom.xml"}, sel, lang.RunOptions{Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 1 || cmds[0].Env != nil {
		t.Fatalf("commands %+v", cmds)
	}
	return strings.Join(cmds[0].Args, " ")
}

func TestRunCommands(t *testing.T) {
	const sel = " -Dsurefire.failIfNoSpecifiedTests=false"
	if got, w := command(t, &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}, "-o"), "mvn -B test -o"; got != w {
		t.Errorf("whole project:\n got %s\nwant %s", got, w)
	}
	tests := []*testdex.Test{
		{Run: "a.BTest#m"}, {Run: "a.BTest#n"}, {Run: "a.BTest#n"}, {Run: "a.CTest"}, {Run: "a.DTest#x"},
	}
	if got, w := command(t, &lang.Selection{Tests: tests}, "-o"), "mvn -B test -Dtest=a.BTest#m+n,a.CTest,a.DTest#x"+sel+" -o"; got != w {
		t.Errorf("tests:\n got %s\nwant %s", got, w)
	}
	class := &testdex.Test{Kind: testdex.KindSuite, Scope: "a", Name: "ETest", File: "m/tests/a/ETest.java", Project: "m"}
	for _, c := range []struct {
		ps   lang.PathSelection
		want string
	}{
		{lang.PathSelection{Path: "tests/a/ETest.java", Tests: []*testdex.Test{class}}, "-Dtest=a.ETest"},
		{lang.PathSelection{Path: "src/test/java/a/FTest.java"}, "-Dtest=a.FTest"},
		{lang.PathSelection{Path: "tests/a", Dir: true, Tests: []*testdex.Test{class}}, "-Dtest=a/**/*Test,a/**/*TestCase,a/**/*Tests,a/**/Test*"},
		{lang.PathSelection{Path: "tests", Dir: true, Tests: []*testdex.Test{class}}, ""},
		{lang.PathSelection{Path: "src", Dir: true}, ""},
	} {
		want := "mvn -B test"
		if c.want != "" {
			want += " " + c.want + sel
		}
		if got := command(t, &lang.Selection{Paths: []lang.PathSelection{c.ps}}); got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.ps.Path, got, want)
		}
	}
	if _, err := (Runner{}).RunCommands(&lang.Project{Manifest: "build.gradle"}, &lang.Selection{Tests: tests}, lang.RunOptions{}); err == nil {
		t.Error("a Gradle project gave no error")
	}
}

// TestRowsNote: a selection naming parameterized rows says that their
// whole methods ran (Surefire selects no single invocation); one naming
// methods alone says nothing.
func TestRowsNote(t *testing.T) {
	row := func(n int) *testdex.Test {
		return &testdex.Test{Kind: testdex.KindSubtest, Name: fmt.Sprintf("BTest.m(String)[%d]", n), Run: "a.BTest#m"}
	}
	note := func(tests ...*testdex.Test) string {
		cmds, err := Runner{}.RunCommands(&lang.Project{Dir: "/j", Manifest: "pom.xml"}, &lang.Selection{Tests: tests}, lang.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return cmds[0].Note
	}
	if got := note(row(1), row(3)); !strings.Contains(got, "the 2 selected rows ran with their whole methods") {
		t.Errorf("rows: note %q", got)
	}
	if got := note(&testdex.Test{Run: "a.BTest#m"}); got != "" {
		t.Errorf("a method: note %q, want none", got)
	}
}

// TestGradleRunner: a Gradle project runs its own test task, addressed
// by its Gradle path from the build's root (so that a:b's tests run, not
// a's subprojects' too), with --tests filters for a selection; a build
// file outside any settings runs `gradle test` in its folder.
func TestGradleRunner(t *testing.T) {
	root, _ := filepath.Abs("testdata/layout/gradle-groovy")
	env := &lang.DetectEnv{Root: root, ReadFile: os.ReadFile}
	root2, _ := filepath.Abs("testdata/layout/gradle-kts")
	util, _ := Detector.Detect(env, root, []string{"build.gradle", "settings.gradle"})
	var sub *lang.Project
	for _, s := range util.Subprojects {
		if s.Name == ":libs:util" {
			sub = s
		}
	}
	kts, _ := Detector.Detect(&lang.DetectEnv{Root: root2, ReadFile: os.ReadFile}, filepath.Join(root2, "impl"), []string{"build.gradle.kts"})
	lone, _ := Detector.Detect(&lang.DetectEnv{}, t.TempDir(), []string{"build.gradle"})
	method := &testdex.Test{ID: "m", Kind: testdex.KindTest, Run: "util.UtilCheck#works"}
	suite := &testdex.Test{Kind: testdex.KindSuite, Scope: "util", Name: "UtilCheck", File: "libs/util/src/test/java/util/UtilCheck.java", Project: "libs/util"}
	cases := []struct {
		p        *lang.Project
		sel      *lang.Selection
		dir      string
		wantArgs string
	}{
		{util, &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}, root, "gradle --console=plain :test"},
		{sub, &lang.Selection{Tests: []*testdex.Test{method}}, root, "gradle --console=plain :libs:util:test --tests util.UtilCheck.works"},
		{sub, &lang.Selection{Paths: []lang.PathSelection{{Path: "src/test/java/util", Dir: true, Tests: []*testdex.Test{suite}}}}, root, "gradle --console=plain :libs:util:test --tests util.*"},
		{sub, &lang.Selection{Paths: []lang.PathSelection{{Path: "src/test/java/util/UtilCheck.java", Tests: []*testdex.Test{suite}}}}, root, "gradle --console=plain :libs:util:test --tests util.UtilCheck"},
		{kts, &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}, root2, "gradle --console=plain :impl:test"},
		{lone, &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}, lone.Dir, "gradle --console=plain test"},
	}
	for i, c := range cases {
		if c.p == nil {
			t.Fatalf("case %d: no project", i)
		}
		r, ok := c.p.Frameworks[0].Runner.(GradleRunner)
		if !ok {
			t.Fatalf("%s: runner %T", c.p.Dir, c.p.Frameworks[0].Runner)
		}
		cmds, err := r.RunCommands(c.p, c.sel, lang.RunOptions{})
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if got := strings.Join(cmds[0].Args, " "); got != c.wantArgs || cmds[0].Dir != c.dir {
			t.Errorf("case %d: %q in %s, want %q in %s", i, got, cmds[0].Dir, c.wantArgs, c.dir)
		}
	}
}
