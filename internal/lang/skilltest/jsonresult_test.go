package skilltest

import (
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
)

func jsonMaker(ev testEvent) lang.Parser { return newJSONParser(ev) }

// TestJSONResults checks the judgement of a JSON command's stdout, fed in
// every chunk size.
func TestJSONResults(t *testing.T) {
	for _, c := range []struct {
		out  string
		exit int
		want testdex.Action
		msg  string
	}{
		{`{"passed": 2, "failed": 0, "errors": []}` + "\n", 0, "pass", ""},
		{`{"passed": 1, "failed": 2, "errors": ["a", {"message": "b"}, 3]}`, 1, "fail", "a\nb\n3"},
		{`{"passed": 1, "failed": 0}`, 3, "fail", "exited 3"},
		{`{"failed": 1}`, 1, "fail", "1 failed"},
		{`{"passed": 4, "failed": 0, "errors": ["still wrong"]}`, 0, "fail", "still wrong"}, // never a false green
		{"log line\n{\"passed\": 1, \"failed\": 0}\n", 0, "fail", "stdout is not one JSON object {passed, failed, errors}: invalid character 'l' looking for beginning of value (print the result alone on stdout; logs go to stderr)"},
		{`{"passed": 1} {"passed": 2}`, 0, "fail", "stdout is not one JSON object {passed, failed, errors}: more than one value (print the result alone on stdout; logs go to stderr)"},
		{`{"ok": true}`, 0, "fail", "stdout is not one JSON object {passed, failed, errors}: no passed or failed count (print the result alone on stdout; logs go to stderr)"},
	} {
		all := parse(t, parsertest.Case{Data: []byte(c.out), Exit: c.exit}, jsonMaker)
		if e := last(t, all); e.Action != c.want || e.Message != c.msg {
			t.Errorf("%q exit %d: %s %q, want %s %q", c.out, c.exit, e.Action, e.Message, c.want, c.msg)
		}
	}
	if evs := parse(t, parsertest.Case{Data: []byte(`{"passed": 1}`), Exit: parsertest.Killed}, jsonMaker); len(evs) != 2 {
		t.Errorf("a killed command got a result: %v", evs)
	}
}
