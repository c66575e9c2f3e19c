package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/testdex/testdex"
)

// JUnit collects a run into JUnit XML, the format CI systems read: one
// testsuite per batch and one testcase per test the runner reported, as
// run.Summary counts them (classname: the file, name: the rest of the ID),
// failures with their message and output.
//
//   - A suite (a describe block, a test class) is a testcase only when it
//     failed with a message of its own (a failing hook); otherwise its
//     tests say it.
//   - A batch whose runner failed without results (an error event) is a
//     testcase named after the batch (classname and name: the batch) with
//     an <error> element: type is the cause, message the first line of
//     the runner's words, the body all of them. CI shows it as an error.
//   - A listed test the runner never reported is not a testcase: it did not
//     run, so it is neither a failure nor a skip (a <skipped> would count it
//     as one). Its suite's <system-out> names it with the reason, so it
//     stays visible.
//
// A test that counted checks inside itself (testdex.Event.Inner) has
// them as the testcase's properties inner.passed, inner.failed and
// inner.skipped, and its testsuite their sum.
//
// Text is escaped as the text view escapes it (XML cannot hold most
// control characters); a test's output is kept up to 64 KB, its first
// and last 32 KB.
type JUnit struct {
	cases   map[string]*junitCase // each test's testcase, by ID and occurrence, for its reruns
	suites  []*junitSuite
	byBatch map[string]*junitSuite
	out     map[string]*keptOutput
	// errored is each batch's error testcase, until the batch's end gives
	// it a time.
	errored map[string]*junitCase
}

type junitSuites struct {
	XMLName xml.Name      `xml:"testsuites"`
	Suites  []*junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string       `xml:"name,attr"`
	Tests      int          `xml:"tests,attr"`
	Failures   int          `xml:"failures,attr"`
	Errors     int          `xml:"errors,attr"`
	Skipped    int          `xml:"skipped,attr"`
	Time       string       `xml:"time,attr"`
	Flakes     int          `xml:"flakes,attr,omitempty"` // Surefire's: the testcases that passed on a rerun
	Properties *junitProps  `xml:"properties,omitempty"`
	Cases      []*junitCase `xml:"testcase"`
	SystemOut  *junitText   `xml:"system-out,omitempty"`
	inner      *testdex.Inner
}

// junitCase is a testcase. Its elements come in the order of the
// sequence of Surefire's surefire-test-report.xsd (failure, rerunFailure,
// flakyFailure, skipped, error, system-out); properties, before them, is
// the one element that schema lacks (the inner counts, as pytest writes
// them).
type junitCase struct {
	Classname     string        `xml:"classname,attr"`
	Name          string        `xml:"name,attr"`
	Time          string        `xml:"time,attr"`
	Properties    *junitProps   `xml:"properties,omitempty"`
	Failure       *junitMessage `xml:"failure,omitempty"`
	RerunFailures []junitRerun  `xml:"rerunFailure,omitempty"`
	FlakyFailures []junitRerun  `xml:"flakyFailure,omitempty"`
	Skipped       *junitMessage `xml:"skipped,omitempty"`
	Error         *junitMessage `xml:"error,omitempty"`
	SystemOut     *junitText    `xml:"system-out,omitempty"`

	suite *junitSuite
}

// junitRerun is one failed attempt of a rerun test, as Surefire writes
// it: <rerunFailure> for a test that failed every time (after its
// <failure>), <flakyFailure> for one that passed on a rerun (and has no
// <failure>). Surefire's schema requires its <stackTrace>, empty or not.
type junitRerun struct {
	Message    string `xml:"message,attr,omitempty"`
	StackTrace string `xml:"stackTrace"`
	SystemOut  string `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",cdata"`
}

// junitProps are a testcase's or testsuite's properties: here the
// checks a test counted inside itself (testdex.Event.Inner) as
// inner.passed, inner.failed and inner.skipped, and their sum on the
// testsuite (the properties pytest's record_property writes, which CI
// systems show with the case).
type junitProps struct {
	Props []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// innerProps returns the properties of a test's own counts, nil for none.
func innerProps(in *testdex.Inner) *junitProps {
	if in == nil {
		return nil
	}
	p := &junitProps{Props: []junitProp{{"inner.passed", strconv.Itoa(in.Passed)}, {"inner.failed", strconv.Itoa(in.Failed)}}}
	if in.Skipped > 0 {
		p.Props = append(p.Props, junitProp{"inner.skipped", strconv.Itoa(in.Skipped)})
	}
	return p
}

// junitText is text kept as CDATA, so that its lines stay lines.
type junitText struct {
	Text string `xml:",cdata"`
}

// maxJUnitOutput bounds the bytes of a test's output kept in the report:
// its first and its last half (keptOutput).
const maxJUnitOutput = 64 << 10

// keptOutput keeps a test's output within maxJUnitOutput: its first half
// as written and its last half, with a line saying how much of the middle
// was dropped, so a failure's reason printed last is in the report.
type keptOutput struct {
	head    strings.Builder
	tail    []byte // the output after the head; its last half is kept
	dropped int    // bytes cut from the tail's start
}

func (k *keptOutput) write(s string) {
	half := maxJUnitOutput / 2
	if room := half - k.head.Len(); room > 0 {
		n := runeCut(s, min(room, len(s)))
		k.head.WriteString(s[:n])
		s = s[n:]
	}
	k.tail = append(k.tail, s...)
	if len(k.tail) > 2*half { // trimmed now and then, not on every write
		k.trim()
	}
}

// trim keeps the tail's last half, from a rune boundary.
func (k *keptOutput) trim() {
	n := len(k.tail) - maxJUnitOutput/2
	if n <= 0 {
		return
	}
	for n < len(k.tail) && !utf8.RuneStart(k.tail[n]) {
		n++
	}
	k.dropped += n
	k.tail = append(k.tail[:0], k.tail[n:]...)
}

func (k *keptOutput) String() string {
	k.trim()
	if k.dropped == 0 {
		return k.head.String() + string(k.tail)
	}
	return fmt.Sprintf("%s\n[... %d bytes of output dropped]\n%s", k.head.String(), k.dropped, k.tail)
}

// runeCut moves n back to a rune boundary of s (n < len(s)).
func runeCut(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// Event implements run.Handler.
func (j *JUnit) Event(e testdex.Event) error {
	if j.byBatch == nil {
		j.byBatch, j.out, j.errored, j.cases = map[string]*junitSuite{}, map[string]*keptOutput{}, map[string]*junitCase{}, map[string]*junitCase{}
	}
	switch {
	case e.Action == testdex.ActionError:
		j.batchError(e)
	case e.ID == "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail):
		t := seconds(e.Elapsed)
		j.suite(e).Time = t
		if c := j.errored[e.Batch]; c != nil {
			c.Time = t
			delete(j.errored, e.Batch)
		}
	case e.ID == "":
	case e.Action == testdex.ActionOutput:
		b := j.out[e.ID]
		if b == nil {
			b = &keptOutput{}
			j.out[e.ID] = b
		}
		b.write(e.Output)
	case e.Action == testdex.ActionUnreported, e.Action == testdex.ActionUnchanged: // not testcases: they did not run
		s := j.suite(e)
		if s.SystemOut == nil {
			s.SystemOut = &junitText{}
		}
		label := "not reported"
		if e.Action == testdex.ActionUnchanged {
			label = "unchanged"
		}
		s.SystemOut.Text += fmt.Sprintf("%s: %s: %s\n", label, Escape(e.ID), Escape(e.Message))
	case e.Attempt > 0 && j.cases[caseKey(e)] != nil:
		j.rerun(e)
	case e.Action == testdex.ActionFlaky: // a test first reported by a rerun is a pass there
	case e.Action.Final():
		j.result(e)
	}
	if e.Action.Final() {
		delete(j.out, e.ID)
	}
	return nil
}

// suite returns the event's batch's testsuite, creating it. Events of no
// batch (the tests testdex cannot run) go to a suite named "not run".
func (j *JUnit) suite(e testdex.Event) *junitSuite {
	name := e.Batch
	if name == "" {
		name = "not run"
	}
	s := j.byBatch[name]
	if s == nil {
		s = &junitSuite{Name: Escape(name), Time: seconds(0)}
		j.byBatch[name] = s
		j.suites = append(j.suites, s)
	}
	return s
}

// result adds a test's final pass, fail or skip as a testcase.
func (j *JUnit) result(e testdex.Event) {
	if e.Kind == testdex.KindSuite && (e.Action != testdex.ActionFail || e.Message == "") {
		return // a suite's result is its tests'
	}
	s := j.suite(e)
	file, name := testdex.SplitID(e.ID)
	if name == "" {
		name = file
	}
	c := &junitCase{Classname: Escape(file), Name: Escape(name), Time: seconds(e.Elapsed), Properties: innerProps(e.Inner)}
	if e.Inner != nil {
		if s.inner == nil {
			s.inner = &testdex.Inner{}
		}
		s.inner.Add(&testdex.Inner{Passed: e.Inner.Passed, Failed: e.Inner.Failed, Skipped: e.Inner.Skipped})
		s.Properties = innerProps(s.inner)
	}
	out := j.output(e)
	if out != "" && e.Action != testdex.ActionFail {
		c.SystemOut = &junitText{out}
	}
	c.suite = s
	j.cases[caseKey(e)] = c
	s.Tests++
	switch e.Action {
	case testdex.ActionFail:
		s.Failures++
		c.Failure = &junitMessage{Message: escapeBlock(e.Message), Body: out}
	case testdex.ActionSkip:
		s.Skipped++
		c.Skipped = &junitMessage{Message: escapeBlock(e.Message)}
	}
	s.Cases = append(s.Cases, c)
}

// caseKey names a test's testcase: its ID and occurrence.
func caseKey(e testdex.Event) string { return e.ID + "\x00" + strconv.Itoa(e.Occurrence) }

// output is what the test printed, escaped.
func (j *JUnit) output(e testdex.Event) string {
	if b := j.out[e.ID]; b != nil {
		return escapeBlock(b.String())
	}
	return ""
}

// rerun records a rerun's result on the test's testcase, as Surefire
// does: a failure again is a <rerunFailure>; the flaky verdict moves the
// <failure> and the reruns' failures into <flakyFailure>s, and the
// testcase counts as passed. A pass on its own changes nothing (the
// verdict follows it).
func (j *JUnit) rerun(e testdex.Event) {
	c := j.cases[caseKey(e)]
	switch e.Action {
	case testdex.ActionFail:
		if c.Failure != nil {
			c.RerunFailures = append(c.RerunFailures, junitRerun{Message: escapeBlock(e.Message), StackTrace: escapeBlock(e.Message), SystemOut: j.output(e)})
		}
	case testdex.ActionFlaky:
		if c.Failure == nil {
			return
		}
		first := junitRerun{Message: c.Failure.Message, StackTrace: c.Failure.Message, SystemOut: c.Failure.Body}
		c.FlakyFailures = append([]junitRerun{first}, c.RerunFailures...)
		c.Failure, c.RerunFailures = nil, nil
		c.suite.Failures--
		c.suite.Flakes++
	}
}

// batchError adds a batch's error as a testcase of its own.
func (j *JUnit) batchError(e testdex.Event) {
	s := j.suite(e)
	first, _, _ := strings.Cut(e.Message, "\n")
	name := Escape(e.Batch)
	c := &junitCase{Classname: name, Name: name, Time: seconds(0),
		Error: &junitMessage{Message: Escape(first), Type: e.Cause, Body: escapeBlock(e.Message)}}
	s.Tests++
	s.Errors++
	s.Cases = append(s.Cases, c)
	j.errored[e.Batch] = c
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// WriteTo writes the XML document.
func (j *JUnit) WriteTo(w io.Writer) (int64, error) {
	data, err := xml.MarshalIndent(junitSuites{Suites: j.suites}, "", "  ")
	if err != nil {
		return 0, err
	}
	n, err := io.WriteString(w, xml.Header+string(data)+"\n")
	return int64(n), err
}
