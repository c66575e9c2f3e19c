package golang

import (
	"os"
	"reflect"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// testdata/run.jsonl was recorded with:
//
//	cd testdata/run/go && go test -json -count=1 ./... > ../../../internal/lang/golang/testdata/run.jsonl
//
// (the repository's run fixture, go1.26).

// TestParserChunks feeds the recorded stream in every chunk size and
// expects the same events each time.
func TestParserChunks(t *testing.T) {
	data, err := os.ReadFile("testdata/run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := &lang.Project{Name: "example.com/runfixture"}
	parse := func(chunk int) []lang.RunEvent {
		var evs []lang.RunEvent
		ps := runner{}.NewParser(p, nil, func(e lang.RunEvent) { evs = append(evs, e) })
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
	finals := map[string]testdex.Action{}
	var failMsg, failFile string
	var failLine int
	for _, e := range want {
		switch e.Action {
		case testdex.ActionPass, testdex.ActionFail, testdex.ActionSkip:
			if e.Name == "" {
				t.Errorf("package-level result leaked as a test event: %+v", e)
			}
			finals[e.Name] = e.Action
			if e.Name == "TestFail" {
				failMsg, failFile, failLine = e.Message, e.File, e.Line
			}
		}
	}
	for name, a := range map[string]testdex.Action{"TestPass": "pass", "TestPass/sub_ok": "pass", "TestFail": "fail",
		"TestTable/bad": "fail", "TestTable/good": "pass", "TestSkip": "skip"} {
		if finals[name] != a {
			t.Errorf("%s: %q, want %q", name, finals[name], a)
		}
	}
	if failMsg != "got 1, want 2" || failFile != "run_test.go" || failLine != 17 {
		t.Errorf("TestFail failure = %q at %s:%d", failMsg, failFile, failLine)
	}
}

func TestRunCommands(t *testing.T) {
	p := &lang.Project{Dir: "/m", Name: "m"}
	tests := []*testdex.Test{
		{Scope: "m/a", Run: "^TestA$", Kind: testdex.KindTest},
		{Scope: "m/a", Run: "^BenchmarkA$", Kind: testdex.KindBenchmark},
		{Scope: "m/b", Run: "^TestB$/^x$", Kind: testdex.KindSubtest},
		{Scope: "m/c", Run: "^TestB$/^x$", Kind: testdex.KindSubtest},
	}
	cmds, err := runner{}.RunCommands(p, tests, lang.RunOptions{Extra: []string{"-race"}})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, c := range cmds {
		got = append(got, c.Args)
	}
	want := [][]string{
		{"go", "test", "-json", "-count=1", "-run", "^TestA$", "-bench", "^BenchmarkA$", "-race", "m/a"},
		{"go", "test", "-json", "-count=1", "-run", "^TestB$/^x$", "-race", "m/b", "m/c"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands:\n got %q\nwant %q", got, want)
	}
}
