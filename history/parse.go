package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// The formats Parse reads.
const (
	FormatJUnit  = "junit"   // JUnit XML: Surefire, pytest --junitxml, Jest and Vitest reporters, gotestsum, cargo-nextest
	FormatGoJSON = "go-json" // go test -json (test2json) events
)

// Report is what another tool's report file says ran: its results, and
// the time it began where it says so.
type Report struct {
	Format  string
	Time    time.Time
	Results []Reported
}

// Reported is one test as a report names it, and its tries in order. A
// JUnit testcase gives Suite (its testsuite's name), Class, Name and File
// (when written); a go test -json test gives Class (the package) and Name
// (the test's name, subtests with "/").
type Reported struct {
	Suite, Class, Name, File string
	Tries                    []Try
}

// Try is one attempt a report records.
type Try struct {
	Outcome  string
	Duration float64
	Untimed  bool
}

// Parse reads a report in any format it knows, told by its first bytes:
// "<" is JUnit XML, "{" go test -json. A file in neither, or malformed,
// is an error with the line where it broke.
func Parse(data []byte) (*Report, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(trimmed, []byte("<")):
		return parseJUnit(data)
	case bytes.HasPrefix(trimmed, []byte("{")):
		return parseGoJSON(data)
	}
	return nil, errors.New("neither JUnit XML nor go test -json")
}

// xmlCase is a JUnit testcase, with the retries Surefire and
// cargo-nextest record (flakyFailure and flakyError: failed tries before
// the pass; rerunFailure and rerunError: failed tries after the first
// failure).
type xmlCase struct {
	Name    string    `xml:"name,attr"`
	Class   string    `xml:"classname,attr"`
	File    string    `xml:"file,attr"`
	Time    string    `xml:"time,attr"`
	Stamp   string    `xml:"timestamp,attr"` // cargo-nextest's
	Failure []xmlTry  `xml:"failure"`
	Error   []xmlTry  `xml:"error"`
	Skipped *struct{} `xml:"skipped"`
	Flaky   []xmlTry  `xml:"flakyFailure"`
	FlakyE  []xmlTry  `xml:"flakyError"`
	Rerun   []xmlTry  `xml:"rerunFailure"`
	RerunE  []xmlTry  `xml:"rerunError"`
}

type xmlTry struct {
	Time string `xml:"time,attr"`
}

// parseJUnit reads JUnit XML: testcases at any depth of testsuites.
func parseJUnit(data []byte) (*Report, error) {
	rep := &Report{Format: FormatJUnit}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	var suites []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "testsuites", "testsuite":
				if t.Name.Local == "testsuite" {
					suites = append(suites, attr(t, "name"))
				}
				rep.began(attr(t, "timestamp"))
			case "testcase":
				var c xmlCase
				if err := dec.DecodeElement(&c, &t); err != nil {
					return nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
				}
				rep.began(c.Stamp)
				suite := ""
				if len(suites) > 0 {
					suite = suites[len(suites)-1]
				}
				rep.Results = append(rep.Results, Reported{Suite: suite, Class: c.Class, Name: c.Name, File: c.File, Tries: c.tries()})
			}
		case xml.EndElement:
			if t.Name.Local == "testsuite" && len(suites) > 0 {
				suites = suites[:len(suites)-1]
			}
		}
	}
	return rep, nil
}

// tries are a testcase's attempts in order: the flaky failures then the
// pass, or the failure then its reruns, or one pass or skip.
func (c xmlCase) tries() []Try {
	own := seconds(c.Time)
	var out []Try
	failed := len(c.Failure)+len(c.Error) > 0
	for _, f := range append(c.Flaky, c.FlakyE...) {
		out = append(out, f.try(Fail))
	}
	switch {
	case failed:
		out = append(out, Try{Outcome: Fail, Duration: own})
		for _, f := range append(c.Rerun, c.RerunE...) {
			out = append(out, f.try(Fail))
		}
	case c.Skipped != nil:
		out = append(out, Try{Outcome: Skip, Duration: own})
	default:
		out = append(out, Try{Outcome: Pass, Duration: own})
	}
	return out
}

func (t xmlTry) try(outcome string) Try {
	if t.Time == "" {
		return Try{Outcome: outcome, Untimed: true}
	}
	return Try{Outcome: outcome, Duration: seconds(t.Time)}
}

// seconds reads a JUnit time attribute ("0.012", "1,234.5" as some
// reporters write thousands).
func seconds(s string) float64 {
	f, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 64)
	if err != nil || f < 0 {
		return 0
	}
	return f
}

// began keeps the timestamp stamp as the report's start when it is the
// earliest yet.
func (rep *Report) began(stamp string) {
	if ts, ok := parseTime(stamp); ok && (rep.Time.IsZero() || ts.Before(rep.Time)) {
		rep.Time = ts
	}
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// parseTime reads a report's timestamp, with or without a zone (none is
// UTC).
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// goEvent is a line of go test -json.
type goEvent struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
}

// parseGoJSON reads go test -json events: each test's pass, fail and
// skip, a test that ran more than once (-count) with a try each. Lines
// that are not JSON (a build's output) are left out.
func parseGoJSON(data []byte) (*Report, error) {
	rep := &Report{Format: FormatGoJSON}
	at := map[[2]string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		l := bytes.TrimSpace(sc.Bytes())
		if len(l) == 0 || l[0] != '{' {
			continue
		}
		var e goEvent
		if err := json.Unmarshal(l, &e); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if !e.Time.IsZero() && (rep.Time.IsZero() || e.Time.Before(rep.Time)) {
			rep.Time = e.Time.UTC()
		}
		if e.Test == "" || e.Action != Pass && e.Action != Fail && e.Action != Skip {
			continue
		}
		k := [2]string{e.Package, e.Test}
		i, ok := at[k]
		if !ok {
			i = len(rep.Results)
			at[k] = i
			rep.Results = append(rep.Results, Reported{Class: e.Package, Name: e.Test})
		}
		rep.Results[i].Tries = append(rep.Results[i].Tries, Try{Outcome: e.Action, Duration: e.Elapsed})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return rep, nil
}

// lineAt is the 1-based line of offset in data.
func lineAt(data []byte, offset int64) int {
	return bytes.Count(data[:min(int(offset), len(data))], []byte("\n")) + 1
}
