package skilltest

import (
	"os"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
)

// The TAP recordings were made with:
//
//	cd testdata && node --test --test-reporter=tap node-tap.test.mjs > node-tap.txt   # node v20.20, exit 1
//	cd testdata/run/skilltest && ./checks/tap.sh 2>/dev/null > ../../../internal/lang/skilltest/testdata/fixture-tap.txt

// parse runs c (in every chunk size, with parsertest.Run) through parsers
// made by mk for a test "c", with the parsers' clock cleared, and returns
// the events.
func parse(t *testing.T, c parsertest.Case, mk func(testEvent) lang.Parser) []lang.RunEvent {
	t.Helper()
	c.New = func(emit func(lang.RunEvent)) lang.Parser {
		return mk(testEvent{scope: CommandScope, name: "c", emit: emit})
	}
	c.Normalize = func(e *lang.RunEvent) { e.Elapsed = 0 }
	return parsertest.Run(t, c)
}

func tapMaker(ev testEvent) lang.Parser { return newTAPParser(ev) }

// last returns the final event, which must be the result.
func last(t *testing.T, evs []lang.RunEvent) lang.RunEvent {
	t.Helper()
	if len(evs) < 2 || evs[0].Action != testdex.ActionRun {
		t.Fatalf("events %v: want run ... result", evs)
	}
	return evs[len(evs)-1]
}

// TestTAPChunks feeds each recording in every chunk size and expects the
// same events, those of its golden file in testdata/events: every line as
// output and the stated result. After a deliberate change of the parser,
// regenerate the golden files (and check the difference by hand) with
//
//	go test ./internal/lang/skilltest -run 'TestTAPChunks$' -update
func TestTAPChunks(t *testing.T) {
	for file, want := range map[string]lang.RunEvent{
		"node-tap":    {Action: "fail", Message: "not ok 2 - group"},
		"fixture-tap": {Action: "fail", Message: "not ok 2 - equipment has a price"},
	} {
		stream := "testdata/" + file + ".txt"
		all := parse(t, parsertest.Case{Stream: stream, Exit: 1, Golden: "testdata/events/" + file + ".jsonl"}, tapMaker)
		data, err := os.ReadFile(stream)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		for _, e := range all[1 : len(all)-2] {
			out.WriteString(e.Output)
		}
		if out.String() != string(data) {
			t.Errorf("%s: the output events do not add up to the stream", file)
		}
		if e := last(t, all); e.Action != want.Action || e.Message != want.Message || e.Name != "c" || e.Scope != CommandScope {
			t.Errorf("%s: result %+v, want %s %q", file, e, want.Action, want.Message)
		}
	}
}

// TestTAPResults covers each rule of the judgement.
func TestTAPResults(t *testing.T) {
	for _, c := range []struct {
		tap  string
		exit int
		want testdex.Action
		msg  string
	}{
		{"1..2\nok 1 - a\nok 2 b\n", 0, "pass", ""},
		{"ok 1\nok 2\n1..2", 0, "pass", ""},
		{"1..2\nok 1 - a\nnot ok 2 - b # todo later\n", 0, "pass", ""},
		{"1..2\nok 1 - a # a#b in the name\nok 2\n", 0, "pass", ""},
		{"1..2\nok 1 - a\nnot ok 2 - b\n", 1, "fail", "not ok 2 - b"},
		{"1..3\nok 1 - a\nok 2 - b\n", 0, "fail", "planned 3 tests, ran 2"},
		{"1..2\nok 1\nBail out! no database\nnot ok 2\n", 1, "fail", "bail out: no database"},
		{"1..1\nok 1\n", 2, "fail", "exited 2"},
		{"hello\n", 0, "fail", "no TAP plan or test points on stdout (exit code 0)"},
		{"1..0 # SKIP no network\n", 0, "skip", "no network"},
		{"1..2\nok 1 # skip a\nok 2 # SKIP b\n", 0, "skip", "a"},
		{"1..1\n    not ok 1 - a subtest\nok 1 - parent\n", 0, "pass", ""},
	} {
		e := last(t, parse(t, parsertest.Case{Data: []byte(c.tap), Exit: c.exit}, tapMaker))
		if e.Action != c.want || e.Message != c.msg {
			t.Errorf("%q exit %d: %s %q, want %s %q", c.tap, c.exit, e.Action, e.Message, c.want, c.msg)
		}
	}
	if evs := parse(t, parsertest.Case{Data: []byte("1..1\n"), Exit: parsertest.Killed}, tapMaker); len(evs) != 2 {
		t.Errorf("a killed command got a result: %v", evs)
	}
}
