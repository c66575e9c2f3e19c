package golang

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
)

// testdata/run.jsonl was recorded with:
//
//	cd testdata/run/go && go test -json -count=1 ./... > ../../../internal/lang/golang/testdata/run.jsonl
//
// (the repository's run fixture, go1.26). The parser's events on each
// recording are kept in testdata/events; after a deliberate change of the
// parser, regenerate them (and check the difference by hand) with
//
//	go test ./internal/lang/golang -run 'TestParser(Chunks|Benchmarks)$' -update

// newParser makes the parser of a plain go test -json run of module.
func newParser(module string) func(func(lang.RunEvent)) lang.Parser {
	return func(emit func(lang.RunEvent)) lang.Parser {
		return runner{}.NewParser(&lang.Project{Name: module}, nil, emit)
	}
}

// TestParserChunks feeds the recorded stream in every chunk size and
// expects the same events each time, those of the golden file.
func TestParserChunks(t *testing.T) {
	want := parsertest.Run(t, parsertest.Case{Stream: "testdata/run.jsonl", New: newParser("example.com/runfixture"),
		Exit: 1, Golden: "testdata/events/run.jsonl"})
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
	cmds, err := runner{}.RunCommands(p, &lang.Selection{Tests: tests}, lang.RunOptions{Extra: []string{"-race"}})
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

// TestRunCommandsPaths hands folders to go test as package patterns (no
// benchmarks unless asked), and a file as its package with its tests'
// patterns.
func TestRunCommandsPaths(t *testing.T) {
	p := &lang.Project{Dir: "/m", Name: "m"}
	file := []*testdex.Test{{Scope: "m/a", Run: "^TestA$", Kind: testdex.KindTest},
		{Scope: "m/a", Run: "^BenchmarkA$", Kind: testdex.KindBenchmark}}
	sel := &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}, {Path: "b", Dir: true}, {Path: "a/a_test.go", Tests: file}}}
	for _, c := range []struct {
		bench bool
		want  [][]string
	}{
		{false, [][]string{
			{"go", "test", "-json", "-count=1", "./...", "./b/..."},
			{"go", "test", "-json", "-count=1", "-run", "^TestA$", "m/a"},
		}},
		{true, [][]string{
			{"go", "test", "-json", "-count=1", "-bench", ".", "./...", "./b/..."},
			{"go", "test", "-json", "-count=1", "-run", "^TestA$", "-bench", "^BenchmarkA$", "m/a"},
		}},
	} {
		cmds, err := runner{}.RunCommands(p, sel, lang.RunOptions{Bench: c.bench})
		if err != nil {
			t.Fatal(err)
		}
		var got [][]string
		for _, c := range cmds {
			got = append(got, c.Args)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("bench %v:\n got %q\nwant %q", c.bench, got, c.want)
		}
	}
}

// testdata/bench.jsonl was recorded with:
//
//	cd testdata/benchmod && go test -json -count=1 -run '^$' -bench . -benchtime 100x . > ../bench.jsonl
//
// test2json reports no pass for a benchmark: the parser passes one when its
// figures were printed, with the figures as the message, in every chunk size.
func TestParserBenchmarks(t *testing.T) {
	evs := parsertest.Run(t, parsertest.Case{Stream: "testdata/bench.jsonl", New: newParser("gb"),
		Exit: 1, Golden: "testdata/events/bench.jsonl"})
	got := map[string]string{}
	for _, e := range evs {
		if e.Action.Final() {
			if e.Kind != testdex.KindBenchmark {
				t.Errorf("%s has kind %q", e.Name, e.Kind)
			}
			got[e.Name] = string(e.Action) + " " + strings.Fields(e.Message + " -")[0]
		}
	}
	want := map[string]string{"BenchmarkB": "pass 100", "BenchmarkC": "pass 100", "BenchmarkD": "fail no"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
}

// TestJoinPatterns: patterns that differ in their last level share one
// element, so go test sees few top-level alternatives (each of which it
// recompiles per test); other shapes are kept.
func TestJoinPatterns(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"^TestA$"}, "^TestA$"},
		{[]string{"^TestA$", "^TestB$", "^TestA$"}, "^(?:TestA|TestB)$"},
		{[]string{"^TestA$/^x$", "^TestA$/^y$", "^TestB$", "^TestC$/^d$/^e$"}, "^TestA$/^(?:x|y)$|^TestB$|^TestC$/^d$/^e$"},
		{[]string{"^$"}, "^$"},
		{[]string{`^Test\|Pipe$`, "^TestB$"}, `^(?:Test\|Pipe|TestB)$`},
		{nil, ""},
	} {
		if got := joinPatterns(c.in); got != c.want {
			t.Errorf("joinPatterns(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
