package java

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// Runner runs a Maven project's JUnit tests with one `mvn test` whose
// -Dtest selector (Surefire's Class#method+method2,Class2) names exactly
// the selected classes and methods; a parameterized row runs its whole
// method (Surefire cannot select one invocation). Results are read from
// Surefire's XML reports when mvn ends (see reportParser); mvn's own
// output becomes the batch's output. Extra arguments go to mvn. Surefire
// has no per-test timeout, so RunOptions.TestTimeout is not used. Gradle
// projects are not run yet (RunCommands says so).
type Runner struct{}

// RunCommands returns the one mvn command running tests.
func (Runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	tests := sel.Records()
	if p.Manifest != "pom.xml" {
		return nil, fmt.Errorf("testdex runs JUnit tests through Maven only; %s has %q (run the tests with Gradle itself)", p.Dir, p.Manifest)
	}
	methods := map[string][]string{} // class -> methods; nil for the whole class
	whole := map[string]bool{}
	for _, t := range tests {
		class, method, _ := strings.Cut(t.Run, "#")
		if class == "" {
			return nil, fmt.Errorf("test %s has no JUnit selector (run 'testdex list' again to refresh the records)", t.ID)
		}
		if method == "" {
			whole[class] = true
		} else if !slices.Contains(methods[class], method) {
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
	args := []string{"mvn", "-B", "-Dstyle.color=never", "test", "-Dtest=" + strings.Join(sels, ","),
		"-DfailIfNoTests=false", "-Dsurefire.failIfNoSpecifiedTests=false"}
	return []*lang.Command{{Args: append(args, o.Extra...), Dir: p.Dir}}, nil
}

// selectedClasses returns the classes a command's -Dtest selects whole.
func selectedClasses(cmd *lang.Command) []string {
	if cmd == nil {
		return nil
	}
	var out []string
	for _, a := range cmd.Args {
		if sel, ok := strings.CutPrefix(a, "-Dtest="); ok {
			for _, s := range strings.Split(sel, ",") {
				if s != "" && !strings.Contains(s, "#") {
					out = append(out, s)
				}
			}
		}
	}
	return out
}
