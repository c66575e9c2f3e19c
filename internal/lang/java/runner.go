package java

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Runner runs a Maven project's JUnit tests with `mvn -B test` in the
// project's folder, as the project's own `mvn test` runs them: the whole
// project (".") with no option of testdex's but -B (batch mode: no
// prompts, no colours); other selections with Surefire's -Dtest
// (Class#method+method2,Class2, or path patterns) and
// -Dsurefire.failIfNoSpecifiedTests=false, so that a name that matches
// nothing is a test testdex reports as not found rather than a build
// error. Surefire hands Maven's -D properties to the tests' JVM as system
// properties: those two are what the tests see of testdex, as they would
// see them under `mvn test -Dtest=...`.
//
// A parameterized row runs its whole method (Surefire cannot select one
// invocation). Results are read from Surefire's XML reports when mvn ends
// (see reportParser); mvn's own output becomes the batch's output. Extra
// arguments go to mvn. Surefire has no per-test timeout, so
// RunOptions.TestTimeout is not used. Gradle projects have their own
// runner, GradleRunner.
type Runner struct{}

// RunCommands returns the one mvn command running sel: a file runs its
// classes, a folder the classes Surefire's default includes (Test*, *Test,
// *Tests, *TestCase) find below it, a record named by ID its class or
// method. With RunOptions.Coverage the same mvn command records JaCoCo's
// coverage, between a javac and a reader command (see coverage.go).
func (Runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	if !isMaven(p.Manifest) {
		return nil, fmt.Errorf("testdex runs JUnit tests through Maven only; %s has %q (run the tests with Gradle itself)", p.Dir, p.Manifest)
	}
	args := []string{"mvn", "-B", "test"}
	if p.Manifest != "pom.xml" {
		args = []string{"mvn", "-B", "-f", p.Manifest, "test"} // a module whose POM has another name
	}
	if !sel.Whole() && !coversTestRoot(sel) {
		sels, err := selectors(sel)
		if err != nil {
			return nil, err
		}
		args = append(args, "-Dtest="+strings.Join(sels, ","), "-Dsurefire.failIfNoSpecifiedTests=false")
	}
	if o.Coverage {
		return coverageCommands(p, o, append(args[2:], o.Extra...))
	}
	return []*lang.Command{{Args: append(args, o.Extra...), Dir: p.Dir, Note: rowsNote(sel), Exclusive: reportsLock(p)}}, nil
}

// rowsNote says, when sel names parameterized rows, that each ran with
// its whole method: Surefire selects a method, not one invocation.
func rowsNote(sel *lang.Selection) string {
	n := 0
	for _, t := range sel.Tests {
		if t.Kind == testdex.KindSubtest {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("Surefire cannot select one invocation of a parameterized test: the %d selected rows ran with their whole methods, other rows included", n)
}

// selectors returns Surefire's -Dtest selectors for sel, sorted.
func selectors(sel *lang.Selection) ([]string, error) {
	methods := map[string][]string{} // class -> methods
	whole := map[string]bool{}       // classes and patterns run whole
	for _, ps := range sel.Paths {
		for _, s := range pathSelectors(ps) {
			whole[s] = true
		}
	}
	for _, t := range sel.Tests {
		class, method, _ := strings.Cut(t.Run, "#")
		switch {
		case class == "":
			return nil, fmt.Errorf("test %s has no JUnit selector (run 'testdex list' again to refresh the records)", t.ID)
		case method == "":
			whole[class] = true
		case !slices.Contains(methods[class], method):
			methods[class] = append(methods[class], method)
		}
	}
	var sels []string
	for c := range whole {
		sels = append(sels, c)
	}
	for c, ms := range methods {
		if !whole[c] {
			sels = append(sels, c+"#"+strings.Join(ms, "+"))
		}
	}
	sort.Strings(sels)
	return sels, nil
}

// surefireIncludes are Surefire's default includes, as -Dtest patterns.
var surefireIncludes = []string{"Test*", "*Test", "*Tests", "*TestCase"}

// pathSelectors returns the -Dtest selectors of one path: a file's
// top-level classes (by its records, else by its path under the test
// sources), a folder's Surefire patterns below it.
func pathSelectors(ps lang.PathSelection) []string {
	root := testRoot(ps.Tests)
	if ps.Dir {
		rel, ok := strings.CutPrefix(ps.Path, root+"/")
		if !ok {
			rel = "**" // not below the test sources: what Surefire finds by name
		}
		var out []string
		for _, inc := range surefireIncludes {
			out = append(out, rel+"/**/"+inc)
		}
		return out
	}
	var out []string
	for _, t := range ps.Tests {
		if t.Kind == testdex.KindSuite {
			out = append(out, joinScope(t.Scope, t.Name))
		}
	}
	if len(out) > 0 {
		return out
	}
	class := strings.TrimSuffix(ps.Path, ".java")
	if rel, ok := strings.CutPrefix(class, root+"/"); ok {
		return []string{strings.ReplaceAll(rel, "/", ".")}
	}
	return []string{path.Base(class)} // Surefire's **/Name
}

// testRoot is the project-relative test source folder, as the records
// show it (a class's file is its package path under the folder), else
// Maven's default.
func testRoot(tests []*testdex.Test) string {
	for _, t := range tests {
		if t.Kind != testdex.KindSuite || t.File == "" {
			continue
		}
		rel := strings.ReplaceAll(joinScope(t.Scope, t.Name), ".", "/") + ".java"
		if root, ok := strings.CutSuffix(t.File, "/"+rel); ok {
			return projectPart(t, root)
		}
	}
	return defaultTestDir
}

// projectPart makes a root-relative folder of t's project relative to
// the project.
func projectPart(t *testdex.Test, dir string) string {
	if t.Project == "" || t.Project == "." {
		return dir
	}
	return strings.TrimPrefix(dir, t.Project+"/")
}

// coversTestRoot reports whether a selected folder holds the whole test
// source folder (src/, src/test): the project runs as `mvn test` does.
func coversTestRoot(sel *lang.Selection) bool {
	for _, ps := range sel.Paths {
		if ps.Dir && (ps.Path == "." || strings.HasPrefix(testRoot(ps.Tests)+"/", ps.Path+"/")) {
			return true
		}
	}
	return false
}

func joinScope(scope, name string) string {
	if scope == "" {
		return name
	}
	return scope + "." + name
}

// reportsLock is the lock a Maven run holds while Surefire writes its
// reports and the parser reads them (lang.Command.Exclusive): the reports
// folder is the module's, and its parser takes every report newer than
// its start, so two testdex runs of one module at once (two shards of a
// machine, watch beside a run) would take each other's results. Surefire
// has no property to move its reports from the command line.
func reportsLock(p *lang.Project) string {
	return filepath.Join(p.Dir, "target", "surefire-reports.testdex-lock")
}
