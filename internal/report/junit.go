package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/testdex/testdex"
)

// JUnit collects a run into JUnit XML, the format CI systems read: one
// testsuite per batch, one testcase per test (classname: the file, name:
// the rest of the ID), failures with their message and output.
type JUnit struct {
	suites []*junitSuite
	bySeen map[string]*junitSuite
	out    map[string]*strings.Builder
}

type junitSuites struct {
	XMLName xml.Name      `xml:"testsuites"`
	Suites  []*junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Cases    []*junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// Event implements run.Handler.
func (j *JUnit) Event(e testdex.Event) error {
	if j.bySeen == nil {
		j.bySeen, j.out = map[string]*junitSuite{}, map[string]*strings.Builder{}
	}
	s := j.bySeen[e.Batch]
	if s == nil {
		s = &junitSuite{Name: e.Batch}
		j.bySeen[e.Batch] = s
		j.suites = append(j.suites, s)
	}
	switch {
	case e.ID == "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail):
		s.Time = fmt.Sprintf("%.3f", e.Elapsed)
	case e.ID == "":
	case e.Action == testdex.ActionOutput:
		b := j.out[e.ID]
		if b == nil {
			b = &strings.Builder{}
			j.out[e.ID] = b
		}
		if b.Len() < maxShown {
			b.WriteString(e.Output)
		}
	case e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip:
		file, name := testdex.SplitID(e.ID)
		c := &junitCase{Classname: file, Name: name, Time: fmt.Sprintf("%.3f", e.Elapsed)}
		if name == "" {
			c.Name = file
		}
		if b := j.out[e.ID]; b != nil {
			c.SystemOut = b.String()
			delete(j.out, e.ID)
		}
		s.Tests++
		switch e.Action {
		case testdex.ActionFail:
			s.Failures++
			c.Failure = &junitMessage{Message: e.Message, Body: c.SystemOut}
		case testdex.ActionSkip:
			s.Skipped++
			c.Skipped = &junitMessage{Message: e.Message}
		}
		s.Cases = append(s.Cases, c)
	}
	return nil
}

// WriteTo writes the XML document.
func (j *JUnit) WriteTo(w io.Writer) (int64, error) {
	data, err := xml.MarshalIndent(junitSuites{Suites: j.suites}, "", "  ")
	if err != nil {
		return 0, err
	}
	n, err := io.WriteString(w, xml.Header+string(data)+"\n")
	return int64(n), err
}
