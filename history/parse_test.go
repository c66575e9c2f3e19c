package history

import (
	"encoding/xml"
	"regexp"
	"strings"
	"testing"
)

// suiteCounts sums what a JUnit report's testsuite elements say they
// hold: tests, failures with errors, and skipped.
func suiteCounts(t *testing.T, data []byte) (tests, failed, skipped int) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if s, ok := tok.(xml.StartElement); ok && s.Name.Local == "testsuite" {
			var n struct {
				Tests    int `xml:"tests,attr"`
				Failures int `xml:"failures,attr"`
				Errors   int `xml:"errors,attr"`
				Skipped  int `xml:"skipped,attr"`
			}
			dec.DecodeElement(&n, &s)
			tests, failed, skipped = tests+n.Tests, failed+n.Failures+n.Errors, skipped+n.Skipped
		}
	}
}

// goLine is the line go test prints as a test ends.
var goLine = regexp.MustCompile(`--- (PASS|FAIL|SKIP): `)

// TestParseRecorded: each recorded report of a real tool parses to the
// results it says it holds, by their final outcome: a JUnit report's
// testsuite counts, a go test -json stream's own "--- PASS/FAIL/SKIP"
// lines; with the time it began.
func TestParseRecorded(t *testing.T) {
	for name, data := range reports(t) {
		t.Run(name, func(t *testing.T) {
			rep, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, r := range rep.Results {
				if r.Name == "" || len(r.Tries) == 0 {
					t.Fatalf("result %+v", r)
				}
				got[r.Tries[len(r.Tries)-1].Outcome]++ // the final outcome, as the counts are
			}
			var tests, failed, skipped int
			switch rep.Format {
			case FormatJUnit:
				tests, failed, skipped = suiteCounts(t, data)
				if tests != len(rep.Results) {
					t.Errorf("%d results, the report says %d tests", len(rep.Results), tests)
				}
			case FormatGoJSON:
				for _, m := range goLine.FindAllStringSubmatch(string(data), -1) {
					tests++
					switch m[1] {
					case "FAIL":
						failed++
					case "SKIP":
						skipped++
					}
				}
			}
			if got[Fail] != failed || got[Skip] != skipped || got[Pass] != tests-failed-skipped {
				t.Errorf("outcomes %v; the report says %d tests, %d failed, %d skipped", got, tests, failed, skipped)
			}
			if !strings.HasPrefix(name, "surefire") && rep.Time.IsZero() { // Surefire writes no timestamp
				t.Error("no start time read")
			}
		})
	}
}

// TestParseRetries: the retries Surefire's and cargo-nextest's schemas
// record inside a testcase (flakyFailure before a pass, rerunFailure
// after a failure) are attempts of their own, in order.
func TestParseRetries(t *testing.T) {
	rep, err := Parse([]byte(`<testsuites><testsuite name="s">
<testcase classname="c" name="flaky" time="0.5"><flakyFailure time="0.25"/><flakyError/></testcase>
<testcase classname="c" name="broken" time="1.5"><failure/><rerunFailure time="1"/></testcase>
</testsuite></testsuites>`))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]Try{
		{{Outcome: Fail, Duration: 0.25}, {Outcome: Fail, Untimed: true}, {Outcome: Pass, Duration: 0.5}},
		{{Outcome: Fail, Duration: 1.5}, {Outcome: Fail, Duration: 1}},
	}
	for i, r := range rep.Results {
		if len(r.Tries) != len(want[i]) {
			t.Fatalf("%s: %+v", r.Name, r.Tries)
		}
		for j := range r.Tries {
			if r.Tries[j] != want[i][j] {
				t.Errorf("%s try %d: %+v, want %+v", r.Name, j, r.Tries[j], want[i][j])
			}
		}
	}
}

// TestParseBad: neither format, or a broken one, is an error with its
// line, never a panic.
func TestParseBad(t *testing.T) {
	for _, in := range []string{"", "plain text", "<testsuite><testcase name=\"a\">\n<oops", "{\"Action\": \"pass\"}\n{broken"} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%q parsed", in)
		}
	}
}
