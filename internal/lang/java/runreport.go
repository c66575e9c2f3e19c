package java

import (
	"encoding/xml"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
)

// NewParser returns the parser of one mvn test command. Its output lines
// become batch output; the results come from the reports at Close. A
// coverage run's javac and reader commands get a coverParser.
func (Runner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	if isReader(cmd) || isJavac(cmd) {
		return &coverParser{emit: emit}
	}
	return &reportParser{dir: p.Dir, reports: filepath.Join(p.Dir, "target", "surefire-reports"), emit: emit, start: time.Now()}
}

// reportParser reads Surefire's XML reports (target/surefire-reports/
// TEST-*.xml), the structured channel Surefire writes for every test
// class as it finishes: a testcase per test with its result, message,
// stack trace and captured output, in a schema Surefire versions (3.0).
// Console output is not parsed: it interleaves the tests' own printing.
// Reports older than the parser are left out (Surefire never cleans the
// folder). A class cut short by a timeout has no report; the core then
// marks its tests timed out.
//
// Each testcase is one result, as Surefire counts them (its "Tests run"):
// a class or a parameterized method gets no result of its own, and the
// rows of a parameterized method are the rows Surefire reports.
type reportParser struct {
	dir     string
	reports string // Surefire's reportsDirectory
	emit    func(lang.RunEvent)
	start   time.Time
	out     lines.Splitter
}

// Write makes each line of the console output a line of batch output.
func (rp *reportParser) Write(b []byte) (int, error) {
	rp.out.Line = rp.output // here, so that a reportParser literal works
	return rp.out.Write(b)
}

func (rp *reportParser) output(l []byte) {
	rp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: string(l) + "\n"})
}

// Close emits the results of every report this run wrote.
func (rp *reportParser) Close(int) error {
	rp.out.Line = rp.output
	rp.out.Flush()
	files, _ := filepath.Glob(filepath.Join(rp.reports, "TEST-*.xml"))
	sort.Strings(files)
	var all []testcase
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.ModTime().Before(rp.start) {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s testsuite
		if err := xml.Unmarshal(data, &s); err != nil {
			rp.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: "testdex: cannot read " + f + ": " + err.Error() + "\n"})
			continue
		}
		all = append(all, s.Cases...)
	}
	rp.emitCases(all)
	return nil
}

// testsuite is the part of Surefire's report testdex reads.
type testsuite struct {
	Cases []testcase `xml:"testcase"`
}

type testcase struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Failure   *problem `xml:"failure"`
	Error     *problem `xml:"error"`
	Skipped   *problem `xml:"skipped"`
	SystemOut string   `xml:"system-out"`
}

type problem struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

// emitCases emits each testcase's result.
func (rp *reportParser) emitCases(cases []testcase) {
	for _, c := range cases {
		rp.emit(rp.event(c))
	}
}

// event turns one testcase into a result named as the static records
// name it (see recordName).
func (rp *reportParser) event(c testcase) lang.RunEvent {
	ev := lang.RunEvent{Action: testdex.ActionPass, Scope: c.Classname, Name: recordName(c.Name)}
	if ev.Name == "" { // a failure of the class itself (a failing @BeforeAll)
		ev.Scope, ev.Name = splitClass(c.Classname)
	}
	ev.Elapsed, _ = strconv.ParseFloat(c.Time, 64)
	switch {
	case c.Failure != nil || c.Error != nil:
		pr := c.Failure
		if pr == nil {
			pr = c.Error
		}
		ev.Action, ev.Message = testdex.ActionFail, pr.Message
		if ev.Message == "" {
			ev.Message, _, _ = strings.Cut(strings.TrimSpace(pr.Body), "\n")
		}
		ev.File, ev.Line = rp.location(c.Classname, pr.Body)
		ev.Output = strings.TrimSpace(c.SystemOut+"\n"+pr.Body) + "\n"
	case c.Skipped != nil:
		ev.Action, ev.Message = testdex.ActionSkip, c.Skipped.Message
		if ev.Message == "" {
			first, _, _ := strings.Cut(strings.TrimSpace(c.Skipped.Body), "\n")
			ev.Message = strings.TrimPrefix(first[strings.Index(first, ":")+1:], " ")
		}
	}
	return ev
}

// nameRE splits Surefire's testcase name: method, optional (types), and
// optional [row].
var nameRE = regexp.MustCompile(`^([\w$]+)(\([^)]*\))?(\[.*\])?$`)

// recordName maps Surefire's testcase name to the static records' Name.
// Surefire names a JUnit 5 parameterized invocation method(Types)[i],
// which is the row record's name already, but a plain test only by its
// method name (add), and a JUnit 4 Parameterized row method[i]: those get
// "()" (add(), positive()[0]). A JUnit 5 test taking injected parameters
// (TestInfo) is therefore named wrongly; the core then keys it under an
// ID the listing does not hold (see the report).
func recordName(name string) string {
	m := nameRE.FindStringSubmatch(name)
	if m == nil || m[2] != "" {
		return name
	}
	return m[1] + "()" + m[3]
}

// frameRE is a stack frame: at pkg.Class.method(File.java:12).
var frameRE = regexp.MustCompile(`at ([\w.$]+)\.[\w$<>]+\(([\w$]+\.java):(\d+)\)`)

// location returns the first stack frame in the test class (or a class
// nested in it), as a project-relative source file when it exists under
// the test sources.
func (rp *reportParser) location(class, trace string) (string, int) {
	for _, m := range frameRE.FindAllStringSubmatch(trace, -1) {
		if m[1] != class && !strings.HasPrefix(m[1], class+"$") {
			continue
		}
		pkg, _ := splitClass(m[1])
		rel := path.Join(defaultTestDir, strings.ReplaceAll(pkg, ".", "/"), m[2])
		n, _ := strconv.Atoi(m[3])
		if _, err := os.Stat(filepath.Join(rp.dir, filepath.FromSlash(rel))); err != nil {
			return "", n
		}
		return rel, n
	}
	return "", 0
}
