package report

import (
	"bytes"
	"encoding/xml"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/run"
)

// TestJUnitCases reads back the JUnit report of edge.jsonl and checks
// what becomes a testcase: the tests the runner reported, a suite only
// when it failed with its own message, a batch error as a testcase of its
// own with an <error>; never a test the runner did not report.
func TestJUnitCases(t *testing.T) {
	var doc junitSuites
	data := junitView(readStream(t, "testdata/edge.jsonl"))
	if err := xml.Unmarshal(bytes.TrimPrefix(data, []byte(xml.Header)), &doc); err != nil {
		t.Fatalf("invalid XML: %v\n%s", err, data)
	}
	cases := map[string]*junitCase{}
	for _, s := range doc.Suites {
		errors := 0
		for _, c := range s.Cases {
			cases[c.Classname+"|"+c.Name] = c
			if c.Error != nil {
				errors++
			}
		}
		if s.Tests != len(s.Cases) || s.Errors != errors {
			t.Errorf("suite %q: tests=%d errors=%d for %d cases, %d errors", s.Name, s.Tests, s.Errors, len(s.Cases), errors)
		}
	}
	if c := cases["web/hooks.test.js|db"]; c == nil || c.Failure == nil || c.Failure.Message != "beforeAll hook: connection refused" {
		t.Errorf("a suite failing with its own message is not a failed testcase: %+v", c)
	}
	if c := cases["web/cart.test.js|cart"]; c != nil {
		t.Errorf("a suite failing through its tests is a testcase: %+v", c)
	}
	for _, unreported := range []string{"web/cart.test.js|sku {sku}", "api/test_slow.py|test_after", "specs/checkout.spec.md|specs/checkout.spec.md"} {
		if c := cases[unreported]; c != nil {
			t.Errorf("unreported %s is a testcase: %+v", unreported, c)
		}
	}
	if !strings.Contains(string(data), "not reported: web/cart.test.js::sku {sku}: the runner did not report it") {
		t.Errorf("the suite's output does not name the unreported test")
	}
	c := cases[". cargo|. cargo"]
	if c == nil || c.Error == nil || c.Error.Type != "toolchain" || !strings.HasPrefix(c.Error.Message, "cargo not found in PATH") {
		t.Fatalf("the batch error is not an <error> testcase: %+v", c)
	}
	if c := cases["api pytest|api pytest"]; c == nil || c.Error == nil || c.Time != "5.000" {
		t.Errorf("the timed out batch's error testcase = %+v, want an error timed as its batch", c)
	}
	if c := cases["web/cart.test.js|cart > totals \\x1b[31mred\\x1b[0m"]; c == nil || !strings.Contains(c.Failure.Body, `\x1b]0;title\x07`) {
		t.Errorf("control characters are not escaped in the testcase: %+v", c)
	}
}

// TestInnerCounts reports two skill-test modules that counted their own
// checks: each testcase has its counts as properties and its testsuite
// their sum, and the summary's "ran" line adds them up while its last line
// stays the tests' counts.
func TestInnerCounts(t *testing.T) {
	events := []testdex.Event{
		{Action: testdex.ActionStart, Batch: ". skilltest"},
		{Action: testdex.ActionPass, ID: "tests/a.tests.mjs", Batch: ". skilltest", Inner: &testdex.Inner{Passed: 55}},
		{Action: testdex.ActionFail, ID: "tests/b.tests.mjs", Batch: ". skilltest", Message: "x\ny",
			Inner: &testdex.Inner{Passed: 2, Failed: 2, Errors: []string{"x", "y"}}},
		{Action: testdex.ActionPass, ID: "t.go::TestPlain", Batch: ". skilltest"},
		{Action: testdex.ActionFail, Batch: ". skilltest", Inner: &testdex.Inner{Passed: 57, Failed: 2, Errors: []string{"x", "y"}}},
	}
	var doc junitSuites
	if err := xml.Unmarshal(bytes.TrimPrefix(junitView(events), []byte(xml.Header)), &doc); err != nil {
		t.Fatal(err)
	}
	props := func(p *junitProps) string {
		if p == nil {
			return ""
		}
		var s []string
		for _, q := range p.Props {
			s = append(s, q.Name+"="+q.Value)
		}
		return strings.Join(s, " ")
	}
	s := doc.Suites[0]
	got := []string{props(s.Properties), props(s.Cases[0].Properties), props(s.Cases[1].Properties), props(s.Cases[2].Properties)}
	want := []string{"inner.passed=57 inner.failed=2", "inner.passed=55 inner.failed=0", "inner.passed=2 inner.failed=2", ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("properties %q, want %q", got, want)
	}
	sum := run.NewSummary()
	for _, e := range events {
		sum.Event(e)
	}
	sum.Finish()
	if in := sum.Inner; in == nil || in.Passed != 57 || in.Failed != 2 || !reflect.DeepEqual(in.Errors, []string{"x", "y"}) {
		t.Errorf("summary inner %+v, want 57 passed, 2 failed, errors x y", in)
	}
	var b bytes.Buffer
	Summary(&b, sum, time.Minute)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if !strings.HasSuffix(lines[0], "; their own checks: 57 passed, 2 failed") || lines[len(lines)-1] != "2 passed, 1 failed, 0 skipped" {
		t.Errorf("summary:\n%s", b.String())
	}
}

// TestJUnitOutputKeepsTheTail feeds a failing test's 200 KB of output:
// the failure's body keeps the first and the last 32 KB, the reason
// printed last included, and says how much it dropped.
func TestJUnitOutputKeepsTheTail(t *testing.T) {
	var j JUnit
	j.Event(testdex.Event{Action: testdex.ActionRun, ID: "a_test.go::TestA", Batch: ". go"})
	for range 2000 {
		j.Event(testdex.Event{Action: testdex.ActionOutput, ID: "a_test.go::TestA", Batch: ". go", Output: strings.Repeat("é", 49) + "\n"})
	}
	j.Event(testdex.Event{Action: testdex.ActionOutput, ID: "a_test.go::TestA", Batch: ". go", Output: "THE REASON\n"})
	j.Event(testdex.Event{Action: testdex.ActionFail, ID: "a_test.go::TestA", Batch: ". go", Message: "failed"})
	body := j.suites[0].Cases[0].Failure.Body
	if !strings.HasPrefix(body, "éé") || !strings.HasSuffix(body, "THE REASON\n") || !strings.Contains(body, "bytes of output dropped]") ||
		len(body) > maxJUnitOutput+100 || !utf8.ValidString(body) {
		t.Errorf("body of %d bytes: %q ... %q", len(body), body[:40], body[len(body)-40:])
	}
}
