package js

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
)

// testdata/run/<framework>.jsonl are events files recorded by the
// reporters on the run fixtures (testdata/run/node/*, each project run
// whole with its own test command's options, the opt-in tests skipped or
// passing), with the fixture's absolute folder replaced by /fixture.
// Regenerate them (after scripts/setup/node.sh) with:
//
//	go test ./internal/lang/js -run TestRecordRuns -record
var record = flag.Bool("record", false, "rerun the run fixtures and rewrite testdata/run/*.jsonl")

// runFixtures are the run fixtures by framework, with their test file.
var runFixtures = []struct {
	fw        testdex.Framework
	dir, file string
}{
	{testdex.Jest, "jest", "__tests__/math.test.js"},
	{testdex.Vitest, "vitest", "test/math.test.js"},
	{testdex.Mocha, "mocha", "test/math.spec.js"},
	{testdex.NodeTest, "node-test", "test/math.test.js"},
}

func TestRecordRuns(t *testing.T) {
	if !*record {
		t.Skip("run with -record to rewrite testdata/run/*.jsonl")
	}
	for _, f := range runFixtures {
		dir, _ := filepath.Abs(filepath.Join("../../../testdata/run/node", f.dir))
		scratch := t.TempDir()
		cmds, err := runnerFor(f.fw).RunCommands(&lang.Project{Dir: dir}, wholeProject, lang.RunOptions{Dir: scratch})
		if err != nil {
			t.Fatal(err)
		}
		c := exec.Command(cmds[0].Args[0], cmds[0].Args[1:]...)
		c.Dir, c.Env = dir, append(os.Environ(), cmds[0].Env...)
		out, err := c.CombinedOutput()
		t.Logf("%s: %v\n%s", f.fw, err, tail(out))
		data, err := os.ReadFile(eventsFileOf(cmds[0]))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.ReplaceAll(data, []byte(dir), []byte("/fixture"))
		os.MkdirAll("testdata/run", 0o755)
		if err := os.WriteFile(filepath.Join("testdata/run", string(f.fw)+".jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// wholeProject is the selection of a whole project.
var wholeProject = &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}

// TestParserChunks feeds each recorded events file in every chunk size
// and expects the same events each time, those of its golden file in
// testdata/events: every result the framework reported, with the
// failure's message and line. After a deliberate change of the parser,
// regenerate the golden files (and check the difference by hand) with
//
//	go test ./internal/lang/js -run 'TestParserChunks$' -update
func TestParserChunks(t *testing.T) {
	for _, f := range runFixtures {
		t.Run(string(f.fw), func(t *testing.T) {
			want := parsertest.Run(t, parsertest.Case{Stream: filepath.Join("testdata/run", string(f.fw)+".jsonl"), Exit: 1,
				Golden: filepath.Join("testdata/events", string(f.fw)+".jsonl"),
				New:    func(emit func(lang.RunEvent)) lang.Parser { return eventsFeed{newParser("/fixture", emit)} }})
			checkFinals(t, f.fw, f.file, want)
		})
	}
}

// eventsFeed is a parser fed the reporter's events file itself, as the
// file grows, instead of the command's standard output.
type eventsFeed struct{ *parser }

func (f eventsFeed) Write(b []byte) (int, error) { return f.events.Write(b) }

// checkFinals checks the fixture's results: what passes, fails and skips
// (Jest cannot skip at run time: its opt-in tests pass at once), the test
// declared through an alias of test (which the listing does not see)
// among them, and no suite but node:test's, which reports its own, with
// Kind suite.
func checkFinals(t *testing.T, fw testdex.Framework, file string, evs []lang.RunEvent) {
	t.Helper()
	optIn := testdex.ActionSkip
	if fw == testdex.Jest {
		optIn = testdex.ActionPass
	}
	want := map[string]testdex.Action{"math > adds": "pass", "math > fails": "fail", "math > skipped": "skip",
		"math > double 1 is 2": "pass", "math > double 2 is 5": "fail", "top level": "pass", "alias fails": "fail",
		"hang": optIn, "leak": optIn, "loud": optIn, fixtureOwnTest[fw]: "pass"}
	if fw == testdex.NodeTest {
		want["top level > sub ok"] = "pass"
		want["math"] = "fail"
	}
	got := map[string]testdex.Action{}
	var fails lang.RunEvent
	for _, e := range evs {
		if e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip {
			if e.Scope != file {
				t.Errorf("%s: scope %q, want %q", e.Name, e.Scope, file)
			}
			if (e.Kind == testdex.KindSuite) != (e.Name == "math") {
				t.Errorf("%s: kind %q", e.Name, e.Kind)
			}
			got[e.Name] = e.Action
			if e.Name == "math > fails" {
				fails = e
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results:\n got %v\nwant %v", got, want)
	}
	line := map[testdex.Framework]int{testdex.Jest: 13, testdex.Vitest: 13, testdex.Mocha: 13, testdex.NodeTest: 14}[fw]
	if fails.File != file || fails.Line != line || !strings.Contains(fails.Message, "3") {
		t.Errorf("math > fails: %q at %s:%d, want a message naming 3 at %s:%d", fails.Message, fails.File, fails.Line, file, line)
	}
}

// fixtureOwnTest is each run fixture's test that checks it runs in the
// project's own process (its argv, its test command's options).
var fixtureOwnTest = map[testdex.Framework]string{testdex.Jest: "argv is the project's own",
	testdex.Vitest: "globals from the command", testdex.Mocha: "sees the project's own command",
	testdex.NodeTest: "sees the project's own command"}

// TestParserKeepsEverything checks that the parser reports every result
// as the reporter wrote it, in whatever file, with no suite made up but a
// file that failed to load.
func TestParserKeepsEverything(t *testing.T) {
	var evs []lang.RunEvent
	ps := newParser("/p", func(e lang.RunEvent) { evs = append(evs, e) })
	ps.events.Write([]byte(`{"a":"pass","file":"/p/a.js","titles":["s","t"]}
{"a":"fail","file":"/p/a.js","titles":["S","t"],"msg":"boom"}
{"a":"pass","file":"/p/b.js","titles":["s","t"]}
{"a":"fail","file":"/p/b.js","titles":["s"],"suite":true}
{"a":"error","file":"/p/c.js","msg":"cannot load"}
{"a":"error","msg":"unhandled"}
`))
	ps.Close(1)
	want := []lang.RunEvent{
		{Action: "pass", Scope: "a.js", Name: "s > t"},
		{Action: "fail", Scope: "a.js", Name: "S > t", Message: "boom"},
		{Action: "pass", Scope: "b.js", Name: "s > t"},
		{Action: "fail", Scope: "b.js", Name: "s", Kind: testdex.KindSuite},
		{Action: "fail", Scope: "c.js", Name: "c.js", Kind: testdex.KindSuite, Message: "cannot load"},
		{Action: "output", Output: "run: unhandled\n"},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("events:\n got %+v\nwant %+v", evs, want)
	}
}
