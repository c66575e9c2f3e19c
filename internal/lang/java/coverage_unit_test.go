package java

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
)

// testdata/cover-reader.txt is TestdexCoverageReader's output on a run of
// testdata/cover (JaCoCo 0.8.15, Java 17), plus one line of other output:
//
//	(the commands of coverageCommands, run by hand in a copy at /tmp/jc1)
//	java -cp SCRATCH/org.jacoco.cli-0.8.15-nodeps.jar jacoco/TestdexCoverageReader.java SCRATCH/exec /tmp/jc1

// TestCoverParser feeds the recorded reader output in every chunk size:
// one covered event per test, named as Surefire's reports name it, and
// the other line as batch output.
func TestCoverParser(t *testing.T) {
	want := parsertest.Run(t, parsertest.Case{Stream: "testdata/cover-reader.txt", Golden: "testdata/events/cover-reader.jsonl",
		New: func(emit func(lang.RunEvent)) lang.Parser { return &coverParser{emit: emit} }})
	if len(want) != 3 || want[2].Action != testdex.ActionOutput || want[2].Output != "testdex: a line of other output\n" {
		t.Fatalf("events %+v", want)
	}
	a := want[0]
	wantA := []lang.CoveredFile{
		{File: "/tmp/jc1/src/main/java/cov/Calc.java", Lines: []lang.Span{{Start: 4, End: 4}, {Start: 6, End: 7}}},
		{File: "/tmp/jc1/src/test/java/cov/CalcTest.java", Lines: []lang.Span{{Start: 7, End: 7}, {Start: 10, End: 11}}},
	}
	if a.Action != lang.ActionCovered || a.Scope != "cov.CalcTest" || a.Name != "testA()" || !reflect.DeepEqual(a.Covered, wantA) {
		t.Errorf("testA: %+v", a)
	}
}

// TestCoverageCommands: javac, the project's own mvn command with
// JaCoCo's goals and the listener in front, the reader last; the
// selection and the extra arguments as without coverage.
func TestCoverageCommands(t *testing.T) {
	scratch := t.TempDir()
	p := &lang.Project{Dir: "/j", Manifest: "pom.xml", Grapher: Grapher{Manifest: "pom.xml", TestDir: "tests"}}
	sel := &lang.Selection{Tests: []*testdex.Test{{Run: "a.BTest#m"}}}
	cmds, err := Runner{}.RunCommands(p, sel, lang.RunOptions{Dir: scratch, Coverage: true, Extra: []string{"-o"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 3 || !isJavac(cmds[0]) || cmds[1].Args[0] != "mvn" || !isReader(cmds[2]) {
		t.Fatalf("commands %+v", cmds)
	}
	mvn := strings.Join(cmds[1].Args, " ")
	for _, part := range []string{
		"mvn -B org.jacoco:jacoco-maven-plugin:" + JacocoVersion + ":prepare-agent " + DependencyPlugin + ":copy",
		"-Dmaven.test.additionalClasspath=" + scratch + "/listener",
		" test -Dtest=a.BTest#m -Dsurefire.failIfNoSpecifiedTests=false -o",
	} {
		if !strings.Contains(mvn, part) {
			t.Errorf("mvn command lacks %q:\n%s", part, mvn)
		}
	}
	if last := cmds[2].Args[len(cmds[2].Args)-1]; last != "/j/tests" {
		t.Errorf("reader's last source root %q, want the pom's test folder", last)
	}
	for _, f := range []string{"jacoco/TestdexCoverageListener.java", "jacoco/TestdexCoverageReader.java",
		"jacoco/stubs/org/junit/platform/launcher/TestIdentifier.java", "listener/META-INF/services/org.junit.platform.launcher.TestExecutionListener"} {
		if _, err := os.Stat(scratch + "/" + f); err != nil {
			t.Errorf("scratch folder: %v", err)
		}
	}
	if _, err := (Runner{}).RunCommands(p, sel, lang.RunOptions{Coverage: true}); err == nil {
		t.Error("no scratch folder gave no error")
	}
}

// TestCoverageCommandsCached: with a cache folder, mvn takes the
// listener from it; javac runs (through the shell that renames its
// fresh folder into place) only while the compiled listener is not
// there, and the reader gets its compiled folder beside it.
func TestCoverageCommandsCached(t *testing.T) {
	cache := t.TempDir()
	p := &lang.Project{Dir: "/j", Manifest: "pom.xml"}
	o := lang.RunOptions{Dir: t.TempDir(), Coverage: true, CacheDir: cache, Env: []string{"PATH=" + os.Getenv("PATH")}}
	cmds, err := Runner{}.RunCommands(p, &lang.Selection{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 3 || !isJavac(cmds[0]) || cmds[0].Args[3] != javacScriptName || isReader(cmds[0]) || !isReader(cmds[2]) {
		t.Fatalf("commands with an empty cache %+v", cmds)
	}
	compiled := compiledDir(o)
	if !strings.HasPrefix(compiled, cache+"/java-coverage/") {
		t.Fatalf("compiled folder %q outside the cache", compiled)
	}
	if !strings.Contains(strings.Join(cmds[1].Args, " "), "-Dmaven.test.additionalClasspath="+compiled+"/listener ") {
		t.Errorf("mvn does not take the cached listener: %q", cmds[1].Args)
	}
	if got := cmds[2].Args[6]; got != compiled+"/reader" {
		t.Errorf("reader's compiled folder %q, want %q", got, compiled+"/reader")
	}
	class := filepath.Join(compiled, "listener", "testdex", "TestdexCoverageListener.class")
	if err := os.MkdirAll(filepath.Dir(class), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(class, []byte("compiled"), 0o644)
	o.Dir = t.TempDir()
	if cmds, _ = (Runner{}).RunCommands(p, &lang.Selection{}, o); len(cmds) != 2 || cmds[0].Args[0] != "mvn" {
		t.Errorf("commands with the listener cached %+v, want mvn and the reader", cmds)
	}
	o.Env = []string{"PATH=/nonexistent"}
	if other := compiledDir(o); other == compiled {
		t.Errorf("another JDK (none) shares the compiled folder %q", other)
	}
}
