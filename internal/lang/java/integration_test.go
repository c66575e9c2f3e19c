package java_test

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/java"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// The integration tests need mvn and java, and the Maven artifacts that
// scripts/setup/java.sh prefetches. They build a copy of the fixture in a
// temporary folder (target/ never lands in the repository).

type key struct{ scope, name string }

// TestListerMatchesStatic runs the Lister's command (mvn test-compile, then
// the console launcher's discover) and checks both directions: every
// static non-dynamic record the launcher can see (suites, methods, JUnit 4
// Parameterized rows) is reported with the same Scope and Name, and every
// reported test is a static record or covered by a dynamic one.
func TestListerMatchesStatic(t *testing.T) {
	dir := buildableCopy(t)
	proj, probs := java.Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"pom.xml"})
	if len(probs) > 0 || proj == nil {
		t.Fatalf("detect: %v", probs)
	}
	setup := proj.Frameworks[0]
	cmd, err := setup.Lister.ListCommand(proj, nil)
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, cmd, false)
	listed, err := setup.Lister.ParseList(proj, stdout, stderr, code)
	if err != nil {
		t.Fatal(err)
	}
	runtime := map[key]bool{}
	for _, l := range listed {
		runtime[key{l.Scope, l.Name}] = true
	}
	static := buildShapes(t).Tests
	for _, r := range static {
		if r.Dynamic || (r.Kind == testdex.KindSubtest && !strings.Contains(r.Scope, "legacy")) {
			continue // Jupiter rows exist only when tests run: see TestRowsMatchExecution.
		}
		if !runtime[key{r.Scope, r.Name}] {
			t.Errorf("static record %s (%s %s) not reported by the launcher", r.ID, r.Scope, r.Name)
		}
	}
	for _, l := range listed {
		if !covered(static, l.Scope, l.Name) {
			t.Errorf("launcher reported %s %s (%s); no static record matches", l.Scope, l.Name, l.Kind)
		}
	}
	if len(listed) < 30 {
		t.Errorf("launcher reported only %d tests and suites: %v", len(listed), listed)
	}
}

// TestRowsMatchExecution runs the fixture's tests with the console
// launcher (the only way JUnit materialises parameterized, repeated,
// factory and template invocations) and compares the invocations of its
// XML report with the static rows: every non-dynamic static row ran, and
// every invocation is a static row or covered by a dynamic one.
func TestRowsMatchExecution(t *testing.T) {
	dir := buildableCopy(t)
	reports := filepath.Join(dir, "reports")
	args := "-jar ${settings.localRepository}/org/junit/platform/junit-platform-console-standalone/" + java.ConsoleVersion +
		"/junit-platform-console-standalone-" + java.ConsoleVersion + ".jar execute --disable-banner --details=none" +
		" -cp %classpath --scan-classpath ${project.build.testOutputDirectory} --reports-dir " + reports +
		` --include-classname ^(.*[.])?(Test[^.$]*|[^.$]*Test|[^.$]*Tests|[^.$]*TestCase)$`
	// Two fixture tests fail by design (parameters no resolver supplies);
	// the report is complete anyway.
	run(t, &lang.Command{Dir: dir, Args: []string{"mvn", "-q", "-B", "test-compile", java.ExecPlugin + ":exec",
		"-Dexec.executable=java", "-Dexec.classpathScope=test", "-Dexec.args=" + args}}, true)
	data, err := os.ReadFile(filepath.Join(reports, "TEST-junit-jupiter.xml"))
	if err != nil {
		t.Fatalf("no Jupiter report: %v", err)
	}
	var suite struct {
		Cases []struct {
			Class string `xml:"classname,attr"`
			Name  string `xml:"name,attr"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal(data, &suite); err != nil {
		t.Fatal(err)
	}
	ran := map[key]bool{}
	static := buildShapes(t).Tests
	for _, c := range suite.Cases {
		if !strings.Contains(c.Name, "[") {
			continue
		}
		ran[key{c.Class, c.Name}] = true
		if !covered(static, c.Class, c.Name) {
			t.Errorf("invocation %s %s ran; no static row matches", c.Class, c.Name)
		}
	}
	for _, r := range static {
		if r.Kind == testdex.KindSubtest && !r.Dynamic && !r.Skip && !strings.Contains(r.Scope, "legacy") && !ran[key{r.Scope, r.Name}] {
			t.Errorf("static row %s did not run", r.ID)
		}
	}
	if len(ran) < 8 {
		t.Errorf("only %d invocations ran: %v", len(ran), ran)
	}
}

// covered reports whether a reported name is a static record, or a row of
// a method whose static rows are dynamic.
func covered(static []testdex.Test, scope, name string) bool {
	method, _, isRow := strings.Cut(name, ")[")
	for _, r := range static {
		if r.Scope != scope {
			continue
		}
		if r.Name == name || (isRow && r.Dynamic && strings.HasPrefix(r.Name, method+"){")) {
			return true
		}
	}
	return false
}

// buildableCopy copies the fixture to a temporary folder, or skips the
// test when mvn or java is not installed.
func buildableCopy(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"mvn", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s not installed: the JUnit runtime listing cannot be checked (install a JDK and Maven, then run scripts/setup/java.sh)", tool)
		}
	}
	dir := filepath.Join(t.TempDir(), "junit")
	if err := os.CopyFS(dir, os.DirFS(shapesDir)); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "target"))
	return dir
}

// run runs a command; a non-zero exit fails the test unless allowFail.
func run(t *testing.T, c *lang.Command, allowFail bool) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(c.Args[0], c.Args[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), c.Env...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	code = parsertest.ExitCode(t, cmd)
	if code != 0 && !allowFail {
		t.Fatalf("%v exited %d: %s%s (run scripts/setup/java.sh first)", c.Args, code, out.String(), errb.String())
	}
	return []byte(out.String()), []byte(errb.String()), code
}
