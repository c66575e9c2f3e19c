package skilltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// runModule runs one module of source src through RunCommands, the real
// wrapper and node, as the core would, and returns the parser's events.
func runModule(t *testing.T, src string, limit time.Duration) []lang.RunEvent {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed: the skilltest runner needs it")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "m.tests.mjs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &lang.Project{Dir: root}
	r := &runner{}
	cmds, err := r.RunCommands(p, &lang.Selection{Tests: []*testdex.Test{{File: "m.tests.mjs", Scope: ".", Name: "m.tests.mjs"}}}, lang.RunOptions{Dir: t.TempDir(), TestTimeout: limit})
	if err != nil || len(cmds) != 1 {
		t.Fatalf("RunCommands: %v, %d commands", err, len(cmds))
	}
	evs, _ := parsertest.Live(t, r, p, cmds, nil)
	for _, e := range evs {
		if e.Scope != "." || e.Name != "m.tests.mjs" {
			t.Fatalf("event for %q %q, want . m.tests.mjs", e.Scope, e.Name)
		}
	}
	return evs
}

// TestModuleResults runs the wrapper on each shape of module the protocol
// allows or meets, and checks the result and the output.
func TestModuleResults(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      testdex.Action
		msg, out  string
	}{
		{"default", "export default () => ({passed: 2, failed: 0, errors: []})", "pass", "", "skilltest: 2 passed, 0 failed\n"},
		{"runTests", "export async function runTests() { return {passed: 1, failed: 1, errors: [new Error('e1')]} }", "fail", "e1", ""},
		{"default object", "export default { runTests: () => ({passed: 1, failed: 0}) }", "pass", "", ""},
		{"count only", "export default () => ({failed: 2})", "fail", "2 failed", ""},
		{"no counts", "export default () => {}", "pass", "", "returned undefined"},
		{"throws", "export default () => { throw new TypeError('bad') }", "fail", "bad", "TypeError: bad"},
		{"rejects", "export default async () => { throw 'plain' }", "fail", "plain", ""},
		{"no export", "export const x = 1", "fail", "the module exports neither a default function nor runTests (export one returning {passed, failed, errors})", ""},
		{"import error", "import './missing.mjs'; export default () => ({})", "fail", "Cannot find module", ""},
		{"syntax error", "export default () => {", "fail", "Unexpected", ""},
		{"never settles", "export default () => new Promise(() => {})", "fail", "the test function never settled: its promise was pending when node ran out of work", ""},
		{"exits", "export default () => process.exit(0)", "fail", "the module ended the process (exit code 0) before its test function settled", ""},
		{"async throw", "export default () => new Promise(() => setTimeout(() => { throw new Error('late') }, 1))", "fail", "uncaught exception: late", ""},
		{"stderr", "export default () => { console.error('to stderr'); return {passed: 1, failed: 0} }", "pass", "", "to stderr\n"},
		{"stdout lie", "export default () => { console.log('{\"passed\":1,\"failed\":0}'); return {passed: 0, failed: 1, errors: ['real']} }", "fail", "real", "{\"passed\":1,\"failed\":0}\n"},
		{"handle left open", "export default () => { setInterval(() => {}, 1000); return {passed: 1, failed: 0} }", "pass", "", ""},
		{"errors without a failure", "export default () => ({passed: 3, failed: 0, errors: ['said wrong']})", "fail", "said wrong", ""},
		{"prints past the pipe buffer", "export default () => { for (let i = 0; i < 6000; i++) console.log('y'.repeat(99)); console.log('LAST LINE'); return {passed: 1, failed: 0} }", "pass", "", "LAST LINE\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs := runModule(t, c.src, 300*time.Millisecond)
			e := evs[len(evs)-1]
			var out strings.Builder
			for _, o := range evs {
				out.WriteString(o.Output)
			}
			if evs[0].Action != testdex.ActionRun || e.Action != c.want || !strings.Contains(e.Message, c.msg) || !strings.Contains(out.String(), c.out) {
				t.Errorf("%s %q, output %q; want %s %q, output with %q", e.Action, e.Message, out.String(), c.want, c.msg, c.out)
			}
		})
	}
}

// TestModuleKilled leaves a killed module (no result file, exit -1) to the
// core and reports one that exited without a result.
func TestModuleKilled(t *testing.T) {
	ev := testEvent{scope: ".", name: "m"}
	var evs []lang.RunEvent
	ev.emit = func(e lang.RunEvent) { evs = append(evs, e) }
	newModuleParser(ev, filepath.Join(t.TempDir(), "none.json")).Close(-1)
	if len(evs) != 1 {
		t.Errorf("killed: %v, want the run event alone", evs)
	}
	evs = nil
	newModuleParser(ev, filepath.Join(t.TempDir(), "none.json")).Close(134)
	if e := evs[len(evs)-1]; e.Action != testdex.ActionFail || e.Message != "node exited 134 without a result (see the output above)" {
		t.Errorf("crashed: %+v", e)
	}
}

// TestModuleLimit checks that a module's command carries its per-test
// limit, the seed's 30 s unless the run sets one, for the core to enforce
// from outside (cmd/testdex's TestRunSkillTestBusy runs a busy loop), and
// that a declared command carries only the run's.
func TestModuleLimit(t *testing.T) {
	root := t.TempDir()
	p := &lang.Project{Dir: root}
	r := &runner{commands: map[string]config.Command{"c": {Name: "c", Run: []string{"true"}}}}
	sel := &lang.Selection{Tests: []*testdex.Test{{File: "m.tests.mjs", Scope: ".", Name: "m.tests.mjs"}, {File: config.FileName, Scope: CommandScope, Name: "c"}}}
	for _, c := range []struct {
		set, module, command time.Duration
	}{{0, DefaultTestTimeout, 0}, {2 * time.Second, 2 * time.Second, 2 * time.Second}} {
		cmds, err := r.RunCommands(p, sel, lang.RunOptions{Dir: t.TempDir(), TestTimeout: c.set})
		if err != nil || len(cmds) != 2 {
			t.Fatalf("RunCommands: %v, %d commands", err, len(cmds))
		}
		if cmds[0].Timeout != c.module || cmds[1].Timeout != c.command {
			t.Errorf("--test-timeout %v: module %v, command %v; want %v, %v", c.set, cmds[0].Timeout, cmds[1].Timeout, c.module, c.command)
		}
	}
}

// TestModuleInner checks the module's own counts on its result: passed,
// failed and the errors, as the module returned them.
func TestModuleInner(t *testing.T) {
	evs := runModule(t, "export default () => ({passed: 57, failed: 2, errors: ['a', new Error('b')]})", 10*time.Second)
	e := evs[len(evs)-1]
	want := &testdex.Inner{Passed: 57, Failed: 2, Errors: []string{"a", "b"}}
	if e.Action != testdex.ActionFail || !reflect.DeepEqual(e.Inner, want) {
		t.Errorf("%s inner %+v, want fail %+v", e.Action, e.Inner, want)
	}
}
