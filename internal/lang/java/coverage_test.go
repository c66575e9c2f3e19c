package java_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/java"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// TestCoverageRecordsPerTest runs testdata/cover (Calc.a and Calc.b, a
// test for each; testB fails by design) with coverage, through the
// Runner's own commands: the results are those of a plain `mvn test`,
// testA executed a's body and not b's, and the failing testB still has
// its coverage (b's body). It runs twice with one cache folder: the
// first run compiles the listener and the reader into it, the second
// runs no javac and records the same.
func TestCoverageRecordsPerTest(t *testing.T) {
	dir := coverCopy(t)
	cache := t.TempDir()
	first, ncmd := runEventsCached(t, dir, true, cache)
	if ncmd != 3 {
		t.Errorf("first run with an empty cache: %d commands, want javac, mvn and the reader", ncmd)
	}
	covered, ncmd := runEventsCached(t, dir, true, cache)
	if ncmd != 2 {
		t.Errorf("second run: %d commands, want mvn and the reader (the listener cached)", ncmd)
	}
	if classes, _ := filepath.Glob(filepath.Join(cache, "java-coverage", "*", "reader", "TestdexCoverageReader.class")); len(classes) != 1 {
		t.Errorf("compiled readers in the cache %q, want one", classes)
	}
	if got, want := coveredOnly(covered), coveredOnly(first); !reflect.DeepEqual(got, want) {
		t.Errorf("the run from the cache recorded %+v, the first %+v", got, want)
	}
	if got, want := results(covered), []string{"cov.CalcTest testA() pass", "cov.CalcTest testB() fail"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("results with coverage %q, want a plain run's %q", got, want)
	}
	calc := filepath.Join(dir, "src/main/java/cov/Calc.java")
	aBody, bBody := lineOf(t, calc, "x + 1"), lineOf(t, calc, "x - 1")
	cov := map[string]lang.RunEvent{}
	for _, e := range covered {
		if e.Action == lang.ActionCovered {
			cov[e.Scope+" "+e.Name] = e
		}
	}
	for _, e := range covered {
		if e.Action == lang.ActionCovered && e.Name == "" {
			t.Errorf("note: %s", e.Message)
		}
	}
	for name, c := range map[string]struct{ ran, not int }{"testA()": {aBody, bBody}, "testB()": {bBody, aBody}} {
		e, ok := cov["cov.CalcTest "+name]
		if !ok {
			t.Errorf("%s: no coverage event (got %v)", name, keys(cov))
			continue
		}
		if !executed(e, calc, c.ran) || !executed(e, calc, c.ran+1) || executed(e, calc, c.not) {
			t.Errorf("%s: executed %+v; want Calc.java:%d-%d and not :%d", name, e.Covered, c.ran, c.ran+1, c.not)
		}
	}
}

// TestCoverageNoAgent: a pom whose Surefire <argLine> leaves out
// @{argLine} drops JaCoCo's agent; the tests run as usual, record
// nothing, and the reader says why and what to write (a note:
// lang.ActionCovered without a test).
func TestCoverageNoAgent(t *testing.T) {
	dir := coverCopy(t)
	pom := filepath.Join(dir, "pom.xml")
	data, _ := os.ReadFile(pom)
	surefire := "<artifactId>maven-surefire-plugin</artifactId>\n        <version>3.2.5</version>"
	if !bytes.Contains(data, []byte(surefire)) {
		t.Fatalf("%s has no %q", pom, surefire)
	}
	data = bytes.Replace(data, []byte(surefire), []byte(surefire+"\n        <configuration><argLine>-Xmx256m</argLine></configuration>"), 1)
	os.WriteFile(pom, data, 0o644)
	evs := runEvents(t, dir, true)
	if got, want := results(evs), []string{"cov.CalcTest testA() pass", "cov.CalcTest testB() fail"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("results %q, want %q", got, want)
	}
	var notes []string
	for _, e := range evs {
		switch {
		case e.Action == lang.ActionCovered && e.Name == "":
			notes = append(notes, e.Message)
		case e.Action == lang.ActionCovered:
			t.Errorf("%s recorded %+v without the agent", e.Name, e.Covered)
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "JaCoCo's agent is not in the test JVM") || !strings.Contains(notes[0], "<argLine>@{argLine} ...</argLine>") {
		t.Errorf("notes %q; want one saying the agent is missing and how to keep it", notes)
	}
}

// coverCopy copies testdata/cover to a temporary folder, or skips when
// mvn or java is not installed.
func coverCopy(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"mvn", "java", "javac"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s not installed: JaCoCo coverage cannot be checked (install a JDK and Maven, then run scripts/setup/java.sh)", tool)
		}
	}
	dir := filepath.Join(t.TempDir(), "cover")
	if err := os.CopyFS(dir, os.DirFS("testdata/cover")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runEvents runs the Runner's commands for the whole project, each into
// its parser, and returns the events.
func runEvents(t *testing.T, dir string, coverage bool) []lang.RunEvent {
	t.Helper()
	evs, _ := runEventsCached(t, dir, coverage, "")
	return evs
}

// runEventsCached is runEvents with a cache folder; it returns the
// number of commands too.
func runEventsCached(t *testing.T, dir string, coverage bool, cache string) ([]lang.RunEvent, int) {
	t.Helper()
	p, _ := java.Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"pom.xml"})
	r := p.Frameworks[0].Runner
	sel := &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	cmds, err := r.RunCommands(p, sel, lang.RunOptions{Dir: t.TempDir(), Coverage: coverage, Extra: []string{"-q"}, CacheDir: cache, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	evs, ran := parsertest.Live(t, r, p, cmds, nil)
	for _, c := range ran {
		if c.Stderr != "" {
			t.Logf("%s stderr: %s", c.Args[0], c.Stderr)
		}
	}
	return evs, len(cmds)
}

// coveredOnly keeps the coverage events, sorted by test.
func coveredOnly(evs []lang.RunEvent) []lang.RunEvent {
	var out []lang.RunEvent
	for _, e := range evs {
		if e.Action == lang.ActionCovered {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Scope+" "+out[i].Name < out[j].Scope+" "+out[j].Name })
	return out
}

func results(evs []lang.RunEvent) []string {
	var out []string
	for _, e := range evs {
		if e.Name != "" && e.Action != testdex.ActionOutput && e.Action != lang.ActionCovered {
			out = append(out, e.Scope+" "+e.Name+" "+string(e.Action))
		}
	}
	sort.Strings(out)
	return out
}

func executed(e lang.RunEvent, file string, line int) bool {
	for _, f := range e.Covered {
		for _, s := range f.Lines {
			if f.File == file && s.Start <= line && line <= s.End {
				return true
			}
		}
	}
	return false
}

func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("%s has no %q", file, text)
	return 0
}

func keys(m map[string]lang.RunEvent) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
