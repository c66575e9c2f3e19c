package java

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// GradleRunner runs a Gradle project's JUnit tests with its own test
// task, addressed by the project's Gradle path from the build's root
// folder: `gradle --console=plain :a:b:test --tests pkg.Class.method`
// (the build's ./gradlew when it has one). Addressing the task by path
// runs that project alone: a bare `gradle test` in a/ would run the test
// task of a's subprojects too. A project outside any settings runs
// `gradle test` in its folder. The whole project runs with no --tests
// filter; a folder under the test sources runs its package pattern
// (pkg.*), a file its classes, a record its class or method. Results come
// from Gradle's JUnit XML reports (build/test-results/test/TEST-*.xml,
// the schema Surefire writes), read by the same parser. Extra arguments
// go to Gradle. No Gradle runs on the machine this was written on: the
// commands are unit-tested, the report format is Surefire's.
type GradleRunner struct{}

// RunCommands returns the one Gradle command running sel.
func (GradleRunner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	root, task := gradleTask(p)
	exe := filepath.Join(root, "gradlew")
	if _, err := os.Stat(exe); err != nil {
		exe = "gradle"
		if _, err := lookPath(exe, o.Getenv("PATH")); err != nil && o.Getenv("PATH") != "" {
			return nil, fmt.Errorf("%w: gradle (install Gradle, or add the Gradle wrapper to %s)", lang.ErrNotInstalled, root)
		}
	}
	args := []string{exe, "--console=plain", task}
	if !sel.Whole() && !coversTestRoot(sel) {
		filters, err := gradleFilters(sel)
		if err != nil {
			return nil, err
		}
		if len(filters) == 0 { // without a filter Gradle would run them all
			return nil, fmt.Errorf("nothing of %s to run under the selected paths (run 'testdex list' again to refresh the records)", p.Dir)
		}
		for _, f := range filters {
			args = append(args, "--tests", f)
		}
	}
	return []*lang.Command{{Args: append(args, o.Extra...), Dir: root}}, nil
}

// gradleTask returns the folder to run Gradle in and the test task's
// path: the build's root and :a:b:test for a project of a build (the
// Detector names it by its Gradle path), else the project's folder and
// test.
func gradleTask(p *lang.Project) (root, task string) {
	if !strings.HasPrefix(p.Name, ":") {
		return p.Dir, "test"
	}
	root = p.Dir
	if b := findGradleBuild(&lang.DetectEnv{ReadFile: os.ReadFile}, p.Dir); b != nil {
		root = b.dir
	}
	if p.Name == ":" {
		return root, ":test"
	}
	return root, p.Name + ":test"
}

// gradleFilters returns the --tests filters of sel, sorted: Gradle takes
// pkg.Class, pkg.Class.method and wildcard patterns.
func gradleFilters(sel *lang.Selection) ([]string, error) {
	var out []string
	add := func(f string) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, ps := range sel.Paths {
		for _, f := range gradlePathFilters(ps) {
			add(f)
		}
	}
	for _, t := range sel.Tests {
		class, method, _ := strings.Cut(t.Run, "#")
		if class == "" {
			return nil, fmt.Errorf("test %s has no JUnit selector (run 'testdex list' again to refresh the records)", t.ID)
		}
		if method != "" {
			class += "." + method
		}
		add(class)
	}
	slices.Sort(out)
	return out, nil
}

// gradlePathFilters returns the filters of one path: a folder's package
// pattern below the test sources (its listed classes elsewhere), a file's
// classes (by its records, else by its path under the test sources).
func gradlePathFilters(ps lang.PathSelection) []string {
	root := testRoot(ps.Tests)
	if ps.Dir {
		if rel, ok := strings.CutPrefix(ps.Path, root+"/"); ok {
			return []string{strings.ReplaceAll(rel, "/", ".") + ".*"}
		}
	}
	var out []string
	for _, t := range ps.Tests {
		if t.Kind == testdex.KindSuite {
			out = append(out, joinScope(t.Scope, t.Name))
		}
	}
	if len(out) > 0 || ps.Dir {
		return out
	}
	class := strings.TrimSuffix(ps.Path, ".java")
	if rel, ok := strings.CutPrefix(class, root+"/"); ok {
		return []string{strings.ReplaceAll(rel, "/", ".")}
	}
	return []string{"*." + filepath.Base(class)}
}

// NewParser reads the project's Gradle test reports when the command
// ends; Gradle's own output becomes the batch's output.
func (GradleRunner) NewParser(p *lang.Project, _ *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	return &reportParser{dir: p.Dir, reports: filepath.Join(p.Dir, "build", "test-results", "test"), emit: emit, start: time.Now()}
}
