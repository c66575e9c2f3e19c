package js

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// testdata/run/<framework>.jsonl are events files recorded by the
// reporters on the run fixtures (testdata/run/node/*, whole files, the
// opt-in tests skipped or passing), with the fixture's absolute folder
// replaced by /fixture. Regenerate them with:
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
		tests := []*testdex.Test{{Scope: f.file, Dynamic: true}}
		cmds, err := runnerFor(f.fw).RunCommands(&lang.Project{Dir: dir}, &lang.Selection{Tests: tests}, lang.RunOptions{Dir: scratch})
		if err != nil {
			t.Fatal(err)
		}
		c := exec.Command(cmds[0].Args[0], cmds[0].Args[1:]...)
		c.Dir, c.Env = dir, append(os.Environ(), cmds[0].Env...)
		out, err := c.CombinedOutput()
		t.Logf("%s: %v\n%s", f.fw, err, tail(out))
		data, err := os.ReadFile(filepath.Join(scratch, "events.jsonl"))
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

// TestParserChunks feeds each recorded events file in every chunk size
// and expects the same events each time: the tests' results with the
// failure's message and line, and the suite settled from its tests.
func TestParserChunks(t *testing.T) {
	for _, f := range runFixtures {
		t.Run(string(f.fw), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/run", string(f.fw)+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			parse := func(chunk int) []lang.RunEvent {
				var evs []lang.RunEvent
				ps := newParser("/fixture", map[string][]string{f.file: {""}}, func(e lang.RunEvent) { evs = append(evs, e) })
				for i := 0; i < len(data); i += chunk {
					ps.events.Write(data[i:min(i+chunk, len(data))])
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
			checkFinals(t, f.fw, f.file, want)
		})
	}
}

// checkFinals checks the fixture's results: what passes, fails and skips
// (Jest cannot skip at run time: its opt-in tests pass at once).
func checkFinals(t *testing.T, fw testdex.Framework, file string, evs []lang.RunEvent) {
	t.Helper()
	optIn := testdex.ActionSkip
	if fw == testdex.Jest {
		optIn = testdex.ActionPass
	}
	want := map[string]testdex.Action{"math": "fail", "math > adds": "pass", "math > fails": "fail", "math > skipped": "skip",
		"math > double 1 is 2": "pass", "math > double 2 is 5": "fail", "top level": "pass",
		"hang": optIn, "leak": optIn, "loud": optIn}
	if fw == testdex.NodeTest {
		want["top level > sub ok"] = "pass"
	}
	got := map[string]testdex.Action{}
	var fails lang.RunEvent
	for _, e := range evs {
		if e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip {
			if e.Scope != file {
				t.Errorf("%s: scope %q, want %q", e.Name, e.Scope, file)
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
	line := map[testdex.Framework]int{testdex.Jest: 12, testdex.Vitest: 13, testdex.Mocha: 13, testdex.NodeTest: 14}[fw]
	if fails.File != file || fails.Line != line || !strings.Contains(fails.Message, "3") {
		t.Errorf("math > fails: %q at %s:%d, want a message naming 3 at %s:%d", fails.Message, fails.File, fails.Line, file, line)
	}
}

// TestRunCommands checks each framework's command line: the files, the
// union of the records' patterns, the reporter and the selection file.
func TestRunCommands(t *testing.T) {
	tests := []*testdex.Test{
		{Scope: "b.test.js", Name: "s > t", Run: "^s t$"},
		{Scope: "a.test.js", Name: "s", Run: "^s( |$)", Kind: testdex.KindSuite},
		{Scope: "a.test.js", Name: "x", Run: "^x$"},
	}
	dir := t.TempDir()
	rep := func(fw string) string { return filepath.Join(dir, "testdex-"+fw+"-reporter") }
	want := map[testdex.Framework][]string{
		testdex.Jest: {"npx", "--no-install", "jest", "--ci", "--reporters=" + rep("jest") + ".cjs",
			"--testNamePattern=^s t$|^s( |$)|^x$", "--testTimeout=2000", "--bail", "--runTestsByPath", "a.test.js", "b.test.js"},
		testdex.Vitest: {"npx", "--no-install", "vitest", "run", "--reporter=" + rep("vitest") + ".mjs",
			"--testNamePattern=^s t$|^s( |$)|^x$", "--testTimeout=2000", "--bail", "/p/a.test.js", "/p/b.test.js"},
		testdex.Mocha: {"npx", "--no-install", "mocha", "--no-parallel", "--reporter=" + rep("mocha") + ".cjs",
			"--grep", "^s t$|^s( |$)|^x$", "--timeout", "2000", "--bail", "a.test.js", "b.test.js"},
		testdex.NodeTest: {"node", "--test", "--test-reporter=" + rep("node") + ".mjs", "--test-reporter-destination=stdout",
			"--test-name-pattern=^s t$|^s( |$)|^x$", "--test-timeout=2000", "--bail", "a.test.js", "b.test.js"},
	}
	for fw, w := range want {
		cmds, err := runnerFor(fw).RunCommands(&lang.Project{Dir: "/p"}, &lang.Selection{Tests: tests}, lang.RunOptions{Dir: dir, Extra: []string{"--bail"}, TestTimeout: 2e9})
		if err != nil {
			t.Fatal(err)
		}
		if len(cmds) != 1 || !reflect.DeepEqual(cmds[0].Args, w) {
			t.Errorf("%s:\n got %q\nwant %q", fw, cmds[0].Args, w)
		}
		if _, err := os.Stat(w[4][strings.Index(w[4], "=")+1:]); fw != testdex.NodeTest && err != nil {
			t.Errorf("%s: reporter not written: %v", fw, err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "selection.json"))
	var sel map[string][]string
	json.Unmarshal(data, &sel)
	if w := map[string][]string{"a.test.js": {"s", "x"}, "b.test.js": {"s > t"}}; !reflect.DeepEqual(sel, w) {
		t.Errorf("selection.json = %s", data)
	}
}

// TestSelected checks that results outside the selection are dropped and
// their failures kept as output.
func TestSelected(t *testing.T) {
	var evs []lang.RunEvent
	ps := newParser("/p", map[string][]string{"a.js": {"s"}}, func(e lang.RunEvent) { evs = append(evs, e) })
	ps.events.Write([]byte(`{"a":"pass","file":"/p/a.js","titles":["s","t"]}
{"a":"fail","file":"/p/a.js","titles":["S","t"],"msg":"boom"}
{"a":"pass","file":"/p/b.js","titles":["s","t"]}
`))
	ps.Close(1)
	want := []lang.RunEvent{
		{Action: "pass", Scope: "a.js", Name: "s > t"},
		{Action: "output", Output: "a.js S > t: boom\n"},
		{Action: "pass", Scope: "a.js", Name: "s"},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("events:\n got %+v\nwant %+v", evs, want)
	}
}
