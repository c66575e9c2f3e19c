package python

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// testdata/run_pytest.jsonl and run_unittest.jsonl were recorded with:
//
//	cd testdata/run/python && printf 'test_run.py::test_pass\ntest_run.py::test_fail\ntest_run.py::test_table\ntest_run.py::test_skip\ntest_run.py::test_xfail\ntest_run.py::TestGroup\n' > /tmp/pyids.txt &&
//	  python3 -B ../../../internal/lang/python/runner_pytest.py /tmp/pyids.txt -q --no-header --no-summary -p no:cacheprovider > ../../../internal/lang/python/testdata/run_pytest.jsonl
//	cd testdata/run/unittest && printf 'pkg.test_run.TestRun\npkg.test_run.TestOther.test_ok\n' > /tmp/utids.txt &&
//	  python3 -B ../../../internal/lang/python/runner_unittest.py /tmp/utids.txt > ../../../internal/lang/python/testdata/run_unittest.jsonl
//
// (the repository's run fixtures, python 3.11, pytest 9.2).

// parseChunks feeds a recorded stream in every chunk size, expects the
// same events each time, and returns them.
func parseChunks(t *testing.T, file string, r lang.Runner) []lang.RunEvent {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := &lang.Project{Dir: "/p"}
	parse := func(chunk int) []lang.RunEvent {
		var evs []lang.RunEvent
		ps := r.NewParser(p, &lang.Command{Dir: "/p"}, func(e lang.RunEvent) { evs = append(evs, e) })
		for i := 0; i < len(data); i += chunk {
			ps.Write(data[i:min(i+chunk, len(data))])
		}
		ps.Close(1)
		return evs
	}
	want := parse(len(data))
	for _, chunk := range []int{1, 2, 3, 7, 64, 100, 4096} {
		if got := parse(chunk); !reflect.DeepEqual(got, want) {
			t.Fatalf("chunk size %d: events differ", chunk)
		}
	}
	return want
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

func TestPytestParserChunks(t *testing.T) {
	got := finalsOf(parseChunks(t, "testdata/run_pytest.jsonl", pytestRunner{}))
	checkFinals(t, got, map[string]testdex.Action{
		"test_run.py::test_pass": "pass", "test_run.py::test_fail": "fail",
		"test_run.py::test_table": "fail", "test_run.py::test_table[good]": "pass", "test_run.py::test_table[bad]": "fail",
		"test_run.py::test_skip": "skip", "test_run.py::test_xfail": "skip",
		"test_run.py::TestGroup": "pass", "test_run.py::TestGroup::test_one": "pass",
		"test_run.py::TestGroup::test_rows": "pass", "test_run.py::TestGroup::test_rows[1]": "pass",
		"test_run.py::TestGroup::test_rows[2]": "pass",
	})
	if f := got["test_run.py::test_fail"]; f.Message != "got 1, want 2" || f.File != "test_run.py" || f.Line != 16 {
		t.Errorf("test_fail = %q at %s:%d", f.Message, f.File, f.Line)
	}
	if f := got["test_run.py::test_table"]; f.Message != "" {
		t.Errorf("a parent failed through its row carries no message of its own: %q", f.Message)
	}
	if s := got["test_run.py::test_xfail"]; s.Message != "xfail: known bug" {
		t.Errorf("xfail message %q", s.Message)
	}
}

func TestUnittestParserChunks(t *testing.T) {
	got := finalsOf(parseChunks(t, "testdata/run_unittest.jsonl", unittestRunner{}))
	checkFinals(t, got, map[string]testdex.Action{
		"pkg.test_run.TestRun": "fail", "pkg.test_run.TestRun.test_pass": "pass", "pkg.test_run.TestRun.test_fail": "fail",
		"pkg.test_run.TestRun.test_rows": "fail", "pkg.test_run.TestRun.test_skip": "skip",
		"pkg.test_run.TestRun.test_xfail": "skip", "pkg.test_run.TestOther": "pass", "pkg.test_run.TestOther.test_ok": "pass",
	})
	if f := got["pkg.test_run.TestRun.test_fail"]; f.Message != "1 != 2 : got 1, want 2" || f.File != "pkg/test_run.py" || f.Line != 17 {
		t.Errorf("test_fail = %q at %s:%d", f.Message, f.File, f.Line)
	}
	if f := got["pkg.test_run.TestRun.test_rows"]; f.Message != "(n=2): 2 not less than 2 : row failed" {
		t.Errorf("test_rows message %q", f.Message)
	}
}

// TestParserForeignLines: a line that is no event is the batch's output;
// a file outside the project is dropped, one in it made project-relative.
func TestParserForeignLines(t *testing.T) {
	var evs []lang.RunEvent
	ps := newEventParser(&lang.Project{Dir: "/p/sub"}, &lang.Command{Dir: "/p"}, func(e lang.RunEvent) { evs = append(evs, e) })
	ps.Write([]byte("Traceback: no pytest\n{\"action\":\"fail\",\"nodeid\":\"sub/t.py::x\",\"file\":\"lib/h.py\",\"line\":3}\n"))
	ps.Write([]byte(`{"action":"fail","nodeid":"sub/t.py::y","file":"sub/t.py","line":4}`))
	ps.Close(1)
	want := []lang.RunEvent{
		{Action: "output", Output: "Traceback: no pytest\n"},
		{Action: "fail", Name: "sub/t.py::x"},
		{Action: "fail", Name: "sub/t.py::y", File: "t.py", Line: 4},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("events:\n got %+v\nwant %+v", evs, want)
	}
}

func TestRunCommands(t *testing.T) {
	dir := t.TempDir()
	tests := []*testdex.Test{{Name: "t.py::a", Run: "t.py::a"}, {Name: "t.py::C", Run: "t.py::C"}, {Name: "t.py::b[x]", Run: "t.py::b[x]"}}
	o := lang.RunOptions{Dir: dir, Extra: []string{"-x"}, TestTimeout: 1500 * time.Millisecond}
	cmds, err := pytestRunner{rootRel: ".."}.RunCommands(&lang.Project{Dir: "/r/p"}, &lang.Selection{Tests: tests}, o)
	if err != nil {
		t.Fatal(err)
	}
	want := &lang.Command{Args: []string{Python, filepath.Join(dir, "testdex_pytest.py"), filepath.Join(dir, "testdex_pytest_ids.txt"),
		"-q", "--no-header", "--no-summary", "-x"}, Dir: "/r", Env: []string{"TESTDEX_TEST_TIMEOUT=1.5"}}
	if len(cmds) != 1 || !reflect.DeepEqual(cmds[0], want) {
		t.Fatalf("pytest command:\n got %+v\nwant %+v", cmds[0], want)
	}
	if ids, _ := os.ReadFile(filepath.Join(dir, "testdex_pytest_ids.txt")); string(ids) != "t.py::a\nt.py::C\nt.py::b[x]\n" {
		t.Errorf("ids file %q", ids)
	}
	if _, err := (unittestRunner{}).RunCommands(&lang.Project{Dir: "/r"}, &lang.Selection{Tests: tests}, lang.RunOptions{}); err == nil {
		t.Error("no scratch folder: want an error")
	}
}
