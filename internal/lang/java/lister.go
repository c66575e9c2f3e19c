package java

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// ConsoleVersion is the JUnit Platform console launcher the Lister runs
// (org.junit.platform:junit-platform-console-standalone, from Maven
// Central; scripts/setup/java.sh fetches it into the local repository).
const ConsoleVersion = "1.10.2"

// ExecPlugin is the Maven plugin that starts the launcher with the
// project's test classpath.
const ExecPlugin = "org.codehaus.mojo:exec-maven-plugin:3.1.1"

// surefireClassRegex is Surefire's default includes and excludes as the
// launcher's --include-classname regular expression over binary names.
const surefireClassRegex = `^(.*[.])?(Test[^.$]*|[^.$]*Test|[^.$]*Tests|[^.$]*TestCase)$`

// Lister is the runtime method for Maven projects: one mvn invocation
// compiles the tests (test-compile, which runs the build's plugins: project
// code in the broad sense) and then runs the JUnit Platform console
// launcher's discover command on target/test-classes with the test
// classpath, restricted to the classes Surefire would include. discover
// lists test methods without running them; parameterized, repeated,
// factory and template invocations exist only when tests run, so the
// launcher reports their methods but never their rows. JUnit 4
// Parameterized rows are reported (the runner computes them at discovery).
// Its zero value is ready to use.
type Lister struct{}

// ListCommand returns the mvn command for project p; files are ignored
// (the launcher scans the whole test output folder).
func (Lister) ListCommand(p *lang.Project, _ []string) (*lang.Command, error) {
	if !isMaven(p.Manifest) {
		return nil, fmt.Errorf("junit listing needs a Maven project; %s has %q (Gradle projects are listed statically only)", p.Dir, p.Manifest)
	}
	jar := "${settings.localRepository}/org/junit/platform/junit-platform-console-standalone/" + ConsoleVersion +
		"/junit-platform-console-standalone-" + ConsoleVersion + ".jar"
	args := "-jar " + jar + " discover --disable-banner --disable-ansi-colors --details=verbose" +
		" -cp %classpath --scan-classpath ${project.build.testOutputDirectory}" + classFilterArgs(p)
	mvn := []string{"mvn", "-q", "-B", "-Dstyle.color=never"}
	if p.Manifest != "pom.xml" {
		mvn = append(mvn, "-f", p.Manifest) // a module whose POM has another name
	}
	return &lang.Command{Dir: p.Dir, Args: append(mvn, "test-compile", ExecPlugin+":exec",
		"-Dexec.executable=java", "-Dexec.classpathScope=test", "-Dexec.args="+args)}, nil
}

// classFilterArgs restricts the launcher to the classes Surefire
// includes: its defaults, or the POM's includes and excludes
// (SettingSurefireRuns) as regular expressions over binary names. With
// several runs, a class any run includes is taken and only the excludes
// every run shares are applied.
func classFilterArgs(p *lang.Project) string {
	var runs []surefireRun
	for _, fw := range p.Frameworks {
		if fw.Framework == testdex.JUnit {
			runs = parseRuns(fw.Settings[SettingSurefireRuns])
		}
	}
	if runs == nil {
		return " --include-classname " + surefireClassRegex
	}
	var inc []string
	exc := runs[0].excludes
	for _, r := range runs {
		for _, p := range r.includes {
			inc = appendNew(inc, antRegex(p))
		}
		exc = slices.DeleteFunc(slices.Clone(exc), func(e string) bool { return !slices.Contains(r.excludes, e) })
	}
	out := " --include-classname " + strings.Join(inc, "|")
	if len(exc) > 0 {
		var res []string
		for _, e := range exc {
			res = appendNew(res, antRegex(e))
		}
		out += " --exclude-classname " + strings.Join(res, "|")
	}
	return out
}

// antRegex turns an Ant pattern over class file paths (com/x/*Test.java)
// into a regular expression over binary names (com.x.FooTest).
func antRegex(p string) string {
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".java"), ".class")
	var b strings.Builder
	b.WriteString("^")
	for i, seg := range strings.Split(p, "/") {
		last := i == len(strings.Split(p, "/"))-1
		if seg == "**" {
			b.WriteString(`(.*\.)?`)
			continue
		}
		for _, r := range seg {
			switch r {
			case '*':
				b.WriteString(`[^.]*`)
			case '?':
				b.WriteString(`[^.]`)
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		if !last {
			b.WriteString(`\.`)
		}
	}
	b.WriteString("$")
	return b.String()
}

// ParseList reads the launcher's verbose tree: every MethodSource line is
// a test; its class and enclosing classes are suites. Names follow the
// static records: method(SimpleTypes) from the source's parameter types
// (whatever @DisplayName says), and JUnit 4 Parameterized rows as
// method()[i] beside their method().
func (Lister) ParseList(_ *lang.Project, stdout, stderr []byte, exitCode int) ([]lang.Listed, error) {
	if exitCode != 0 {
		return nil, fmt.Errorf("mvn test-compile or the junit launcher failed (exit %d): %s (run the command in the project folder to see why)", exitCode, lastLines(stderr, stdout))
	}
	var out []lang.Listed
	seen := map[lang.Listed]bool{}
	add := func(l lang.Listed) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	var uniqueID string
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "uniqueId: "); i >= 0 {
			uniqueID = line[i+len("uniqueId: "):]
			continue
		}
		i := strings.Index(line, "source: MethodSource [")
		if i < 0 {
			continue
		}
		class, method, types, ok := methodSource(line[i:])
		if !ok {
			continue
		}
		for c := class; c != ""; c = outerOf(c) {
			pkg, bin := splitClass(c)
			add(lang.Listed{Scope: pkg, Name: bin, Kind: testdex.KindSuite})
		}
		sig := method + "(" + simpleTypes(types) + ")"
		add(lang.Listed{Scope: class, Name: sig, Kind: testdex.KindTest})
		if row := vintageRow(uniqueID, method); row != "" {
			add(lang.Listed{Scope: class, Name: sig + row, Kind: testdex.KindSubtest})
		}
	}
	return out, sc.Err()
}

// methodSource parses "MethodSource [className = 'a.B', methodName = 'm',
// methodParameterTypes = 'int, java.lang.String']".
func methodSource(s string) (class, method, types string, ok bool) {
	field := func(key string) (string, bool) {
		i := strings.Index(s, key+" = '")
		if i < 0 {
			return "", false
		}
		rest := s[i+len(key)+4:]
		j := strings.IndexByte(rest, '\'')
		if j < 0 {
			return "", false
		}
		return rest[:j], true
	}
	class, ok1 := field("className")
	method, ok2 := field("methodName")
	types, _ = field("methodParameterTypes")
	return class, method, types, ok1 && ok2
}

// vintageRow returns "[i]" when a JUnit 4 unique ID's last segment is a
// parameterized row of method (test:m[i](Class)), "" otherwise.
func vintageRow(uniqueID, method string) string {
	i := strings.LastIndex(uniqueID, "[test:")
	if !strings.Contains(uniqueID, "[engine:junit-vintage]") || i < 0 {
		return ""
	}
	seg, err := url.PathUnescape(strings.TrimSuffix(uniqueID[i+len("[test:"):], "]"))
	if err != nil || !strings.HasPrefix(seg, method+"[") {
		return ""
	}
	rest := seg[len(method):]
	if j := strings.IndexByte(rest, ']'); j >= 0 {
		return rest[:j+1]
	}
	return ""
}

// splitClass splits a binary class name into its package and the name
// within it.
func splitClass(c string) (pkg, bin string) {
	if i := strings.LastIndexByte(c, '.'); i >= 0 {
		return c[:i], c[i+1:]
	}
	return "", c
}

// simpleTypes renders JVM type names (java.lang.String, [I,
// [Ljava.util.List;, a.Outer$Inner) as Class.getSimpleName does.
func simpleTypes(types string) string {
	if strings.TrimSpace(types) == "" {
		return ""
	}
	parts := strings.Split(types, ",")
	for i, t := range parts {
		parts[i] = simpleJVM(strings.TrimSpace(t))
	}
	return strings.Join(parts, ", ")
}

var primitives = map[byte]string{'Z': "boolean", 'B': "byte", 'C': "char", 'S': "short", 'I': "int", 'J': "long", 'F': "float", 'D': "double"}

func simpleJVM(t string) string {
	n := 0
	for n < len(t) && t[n] == '[' {
		n++
	}
	elem := t[n:]
	if n > 0 {
		if p, ok := primitives[firstByte(elem)]; ok && len(elem) == 1 {
			elem = p
		} else {
			elem = strings.TrimSuffix(strings.TrimPrefix(elem, "L"), ";")
		}
	}
	return lastSegment(elem) + strings.Repeat("[]", n)
}

// lastLines returns the last few lines of the first non-empty output,
// for an error message.
func lastLines(outs ...[]byte) string {
	for _, o := range outs {
		lines := strings.Split(strings.TrimSpace(string(o)), "\n")
		if len(lines) == 1 && lines[0] == "" {
			continue
		}
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		return strings.Join(lines, " | ")
	}
	return "no output"
}

func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

// Reports says which records the launcher's discover command can confirm:
// not invocations (parameterized and repeated rows), which exist only once
// the tests run.
func (Lister) Reports(t *testdex.Test) bool { return t.Kind != testdex.KindSubtest }
