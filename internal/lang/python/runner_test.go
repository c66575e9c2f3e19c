package python

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
)

// testdata/run_pytest.jsonl and run_unittest.jsonl were recorded with:
//
//	cd testdata/run/python && printf '{"options":["-q","--no-header","--no-summary","-p","no:cacheprovider"],"select":["test_run.py::test_pass","test_run.py::test_fail","test_run.py::test_table","test_run.py::test_skip","test_run.py::test_xfail","test_run.py::TestGroup","test_run.py::test_odd_ids","test_run.py::test_made"]}' > /tmp/pyplan.json &&
//	  python3 -B ../../../internal/lang/python/runner_pytest.py /tmp/pyplan.json > ../../../internal/lang/python/testdata/run_pytest.jsonl
//	cd testdata/run/unittest && printf '{"discover":["."]}' > /tmp/utplan.json &&
//	  python3 -B ../../../internal/lang/python/runner_unittest.py /tmp/utplan.json > ../../../internal/lang/python/testdata/run_unittest.jsonl
//
// (the repository's run fixtures, python 3.11, pytest 9.2). The parser's
// events on each recording are kept in testdata/events; after a deliberate
// change of the parser, regenerate them (and check the difference by hand)
// with
//
//	go test ./internal/lang/python -run 'Test(Pytest|Unittest)ParserChunks$' -update

// parseChunks feeds a recorded stream in every chunk size, expects the
// same events each time, those of the golden file, and returns them.
func parseChunks(t *testing.T, file, golden string, r lang.Runner) []lang.RunEvent {
	t.Helper()
	p := &lang.Project{Dir: "/p"}
	return parsertest.Run(t, parsertest.Case{Stream: file, Exit: 1, Golden: golden,
		New: func(emit func(lang.RunEvent)) lang.Parser { return r.NewParser(p, &lang.Command{Dir: "/p"}, emit) }})
}

// finalsOf returns each name's last result event.
func finalsOf(evs []lang.RunEvent) map[string]lang.RunEvent {
	out := map[string]lang.RunEvent{}
	for _, e := range evs {
		switch e.Action {
		case testdex.ActionPass, testdex.ActionFail, testdex.ActionSkip:
			out[e.Name] = e
		}
	}
	return out
}

func checkFinals(t *testing.T, got map[string]lang.RunEvent, want map[string]testdex.Action) {
	t.Helper()
	for name, a := range want {
		if got[name].Action != a {
			t.Errorf("%s: %q, want %q", name, got[name].Action, a)
		}
	}
	if len(got) != len(want) {
		t.Errorf("results for %d names, want %d", len(got), len(want))
	}
}

// TestPytestParserChunks: one result per item pytest ran, nothing for
// classes or parametrized functions (pytest reports none), a test the
// listing cannot see included, row IDs holding "::" and "[" intact.
func TestPytestParserChunks(t *testing.T) {
	evs := parseChunks(t, "testdata/run_pytest.jsonl", "testdata/events/run_pytest.jsonl", pytestRunner{})
	got := finalsOf(evs)
	checkFinals(t, got, map[string]testdex.Action{
		"test_run.py::test_pass": "pass", "test_run.py::test_fail": "fail",
		"test_run.py::test_table[good]": "pass", "test_run.py::test_table[bad]": "fail",
		"test_run.py::test_skip": "skip", "test_run.py::test_xfail": "skip",
		"test_run.py::TestGroup::test_one":     "pass",
		"test_run.py::TestGroup::test_rows[1]": "pass", "test_run.py::TestGroup::test_rows[2]": "pass",
		"test_run.py::test_odd_ids[a::b]": "pass", "test_run.py::test_odd_ids[x[1]]": "pass",
		"test_run.py::test_made": "fail",
	})
	if f := got["test_run.py::test_fail"]; f.Message != "got 1, want 2" || f.File != "test_run.py" || f.Line != 16 {
		t.Errorf("test_fail = %q at %s:%d", f.Message, f.File, f.Line)
	}
	if s := got["test_run.py::test_xfail"]; s.Message != "xfail: known bug" {
		t.Errorf("xfail message %q", s.Message)
	}
	for _, e := range evs {
		if e.Action == testdex.ActionRun && got[e.Name].Action == "" {
			t.Errorf("%s started and never ended", e.Name)
		}
	}
}

// TestUnittestParserChunks: one result per method, each with the file
// declaring its class (a class made at run time in a package's
// __init__.py included); a failed subTest fails its method.
func TestUnittestParserChunks(t *testing.T) {
	evs := parseChunks(t, "testdata/run_unittest.jsonl", "testdata/events/run_unittest.jsonl", unittestRunner{})
	got := finalsOf(evs)
	checkFinals(t, got, map[string]testdex.Action{
		"pkg.TestMade.test_made":         "pass",
		"pkg.test_run.TestRun.test_pass": "pass", "pkg.test_run.TestRun.test_fail": "fail",
		"pkg.test_run.TestRun.test_rows": "fail", "pkg.test_run.TestRun.test_skip": "skip",
		"pkg.test_run.TestRun.test_xfail": "skip", "pkg.test_run.TestOther.test_ok": "pass",
		"pkg.test_run.TestSlow.test_hang": "skip", "pkg.test_run.TestSlow.test_leak": "skip",
		"pkg.test_run.TestSlow.test_loud": "skip",
	})
	if f := got["pkg.test_run.TestRun.test_fail"]; f.Message != "1 != 2 : got 1, want 2" || f.File != "pkg/test_run.py" || f.Line != 17 {
		t.Errorf("test_fail = %q at %s:%d", f.Message, f.File, f.Line)
	}
	if f := got["pkg.test_run.TestRun.test_rows"]; f.Message != "(n=2): 2 not less than 2 : row failed" {
		t.Errorf("test_rows message %q", f.Message)
	}
	for _, e := range evs {
		want := "pkg/test_run.py"
		if strings.HasPrefix(e.Name, "pkg.TestMade.") {
			want = "pkg/__init__.py"
		}
		if e.Name != "" && e.Decl != want {
			t.Errorf("%s %s: declared in %q, want %q", e.Action, e.Name, e.Decl, want)
		}
	}
}

// TestParserForeignLines: a line that is no event is the batch's output;
// a file outside the project is dropped, one in it made project-relative.
func TestParserForeignLines(t *testing.T) {
	var evs []lang.RunEvent
	ps := newEventParser(&lang.Project{Dir: "/p/sub"}, &lang.Command{Dir: "/p"}, func(e lang.RunEvent) { evs = append(evs, e) })
	ps.Write([]byte("Traceback: no pytest\n{\"action\":\"fail\",\"nodeid\":\"sub/t.py::x\",\"file\":\"lib/h.py\",\"line\":3}\n"))
	ps.Write([]byte(`{"action":"fail","nodeid":"sub/t.py::y","file":"sub/t.py","line":4,"decl":"sub/t.py"}`))
	ps.Close(1)
	want := []lang.RunEvent{
		{Action: "output", Output: "Traceback: no pytest\n"},
		{Action: "fail", Name: "sub/t.py::x"},
		{Action: "fail", Name: "sub/t.py::y", File: "t.py", Line: 4, Decl: "t.py"},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("events:\n got %+v\nwant %+v", evs, want)
	}
}
