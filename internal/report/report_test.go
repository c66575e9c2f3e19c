package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/run"
)

var stream = []testdex.Event{
	{Action: testdex.ActionStart, Batch: ". go"},
	{Action: testdex.ActionRun, ID: "a_test.go::TestA", Batch: ". go"},
	{Action: testdex.ActionOutput, ID: "a_test.go::TestA", Output: "a_test.go:3: boom\n", Batch: ". go"},
	{Action: testdex.ActionFail, ID: "a_test.go::TestA", Message: "boom", File: "a_test.go", Line: 3, Elapsed: 0.5, Batch: ". go"},
	{Action: testdex.ActionPass, ID: "a_test.go::TestB", Elapsed: 0.25, Batch: ". go"},
	{Action: testdex.ActionSkip, ID: "a_test.go::TestC", Message: "later", Batch: ". go"},
	{Action: testdex.ActionFail, Elapsed: 1, Batch: ". go"},
}

// TestReplay writes the stream as JSON Lines, reads it back, and feeds it
// to the text and JUnit handlers: every format is a view of one stream.
func TestReplay(t *testing.T) {
	var jsonl bytes.Buffer
	j := NewJSON(&jsonl)
	for _, e := range stream {
		if err := j.Event(e); err != nil {
			t.Fatal(err)
		}
	}
	var text bytes.Buffer
	tx := &Text{W: &text}
	ju := &JUnit{}
	err := ReadJSON(&jsonl, func(e testdex.Event) error {
		tx.Event(e)
		return ju.Event(e)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--- FAIL: a_test.go::TestA a_test.go:3 (0.50s)\n    boom\n    | a_test.go:3: boom\n", "FAIL  . go (1.0s)\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text view lacks %q:\n%s", want, text.String())
		}
	}
	var x bytes.Buffer
	ju.WriteTo(&x)
	var doc junitSuites
	if err := xml.Unmarshal(bytes.TrimPrefix(x.Bytes(), []byte(xml.Header)), &doc); err != nil {
		t.Fatalf("invalid XML: %v\n%s", err, x.String())
	}
	s := doc.Suites[0]
	if s.Tests != 3 || s.Failures != 1 || s.Skipped != 1 || s.Cases[0].Failure.Message != "boom" || s.Cases[0].Name != "TestA" || s.Cases[0].Classname != "a_test.go" {
		t.Errorf("junit suite = %+v, first case %+v", s, s.Cases[0])
	}
}

func TestSummaryLine(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sum := run.NewSummary()
	for i, a := range []testdex.Action{"pass", "pass", "pass", "fail", "skip", "skip", "unreported"} {
		sum.Event(testdex.Event{Time: start.Add(time.Duration(i) * 250 * time.Millisecond), Action: a, ID: fmt.Sprint("t", i), Message: "m"})
	}
	sum.Event(testdex.Event{Time: start, Action: testdex.ActionError, Batch: ". go", Cause: testdex.CauseRunner, Message: "go test exited 2"})
	sum.Finish()
	var b bytes.Buffer
	Summary(&b, sum, 5*time.Minute)
	if want := "ran 6 tests in 1.5s\n3 passed, 1 failed, 2 skipped, 1 not reported, 1 batch error\n"; b.String() != want {
		t.Errorf("summary = %q, want %q", b.String(), want)
	}
}
