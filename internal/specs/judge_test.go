package specs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// line is a driver line whose one judgement's last attempt printed text
// (a Claude result object).
func line(n int, attempts ...Attempt) string {
	data, _ := json.Marshal(Judgement{N: n, Attempts: attempts})
	return string(data) + "\n"
}

func claudeSaid(text string) Attempt {
	data, _ := json.Marshal(map[string]any{"type": "result", "is_error": false, "result": text, "total_cost_usd": 0.5})
	return Attempt{Stdout: string(data), Elapsed: 1}
}

func testJob(root string, judgements int) Job {
	return Job{Argv: []string{"claude"}, Format: FormatClaudeJSON, Judgements: judgements, Spec: JobSpec{
		Root: root, File: "specs/a.spec.md", Scope: "specs", Agent: "claude-code@1",
		Scenarios: []JobScenario{{ID: "x", Name: "a.spec.md::x", Line: 3, Text: "tx"}, {ID: "y", Name: "a.spec.md::y", Line: 9, Text: "ty"}},
	}}
}

// results feeds the driver's output to a parser in chunks of size n and
// returns each final event as "NAME ACTION MESSAGE".
func results(t *testing.T, job Job, out string, exit, n int) []string {
	t.Helper()
	var got []string
	p := NewParser(job, func(e lang.RunEvent) {
		if e.Action.Final() {
			msg, _, _ := strings.Cut(e.Message, "\n")
			got = append(got, fmt.Sprintf("%s %s %s", e.Name, e.Action, msg))
		}
	})
	for i := 0; i < len(out); i += n {
		p.Write([]byte(out[i:min(i+n, len(out))]))
	}
	if err := p.Close(exit); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestParserOutcomes(t *testing.T) {
	root := t.TempDir()
	both := `{"scenarios":[{"id":"x","status":"pass"},{"id":"y","status":"fail","observed":"no y","resolution":"add y"}]}`
	for _, c := range []struct {
		name string
		out  string
		exit int
		want []string
	}{
		{"verdicts", line(0, claudeSaid(both)), 0, []string{"a.spec.md::x pass ", "a.spec.md::y fail no y"}},
		{"one unanswered", line(0, claudeSaid(`{"scenarios":[{"id":"x","status":"pass"}]}`)), 0,
			[]string{"a.spec.md::x pass ", "a.spec.md::y fail error: no verdict: the agent did not answer this scenario"}},
		{"garbage", line(0, claudeSaid("looks fine to me")), 0,
			[]string{`a.spec.md::x fail error: no parsable verdict in the agent's answer (it began "looks fine to me")`, `a.spec.md::y fail error: no parsable verdict in the agent's answer (it began "looks fine to me")`}},
		{"empty three times", line(0, Attempt{Exit: 1, Stderr: "boom"}, Attempt{Exit: 1}, Attempt{Exit: 1, Stderr: "segfault"}), 0,
			[]string{"a.spec.md::x fail error: no answer: the agent answered nothing 3 times (it exited 1): segfault", "a.spec.md::y fail error: no answer: the agent answered nothing 3 times (it exited 1): segfault"}},
		{"empty then good", line(0, Attempt{}, claudeSaid(both)), 0, []string{"a.spec.md::x pass ", "a.spec.md::y fail no y"}},
		{"timed out", line(0, Attempt{Exit: -1, TimedOut: true}), 0,
			[]string{"a.spec.md::x fail error: the agent timed out after 0s and was stopped (frontmatter timeout, [specs] timeout or --test-timeout)", "a.spec.md::y fail error: the agent timed out after 0s and was stopped (frontmatter timeout, [specs] timeout or --test-timeout)"}},
		{"not started", line(0, Attempt{Exit: -1, Start: "claude not found in PATH"}), 0,
			[]string{"a.spec.md::x fail error: the agent could not be started: claude not found in PATH", "a.spec.md::y fail error: the agent could not be started: claude not found in PATH"}},
		{"stopped", line(0, Attempt{Exit: -1, Stopped: true}), 0,
			[]string{"a.spec.md::x fail error: no verdict: the agent was stopped (the run's timeout or a cancellation)", "a.spec.md::y fail error: no verdict: the agent was stopped (the run's timeout or a cancellation)"}},
		{"driver died", "", 2, []string{"a.spec.md::x fail error: no verdict: the specs driver exited 2 before the agent answered (its output says why)", "a.spec.md::y fail error: no verdict: the specs driver exited 2 before the agent answered (its output says why)"}},
	} {
		for _, n := range []int{1, 7, 1 << 20} {
			got := results(t, testJob(root, 1), c.out, c.exit, n)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("%s, chunks of %d:\n%s\nwant\n%s", c.name, n, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		}
	}
}

// TestParserKeeps: verdicts are kept with their key (the files read, and
// paths' files) only when they are a pass or a fail; an error forgets
// the scenario's stored verdict.
func TestParserKeeps(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src/a.go"), []byte("a"), 0o644)
	job := testJob(root, 1)
	job.Spec.Store = filepath.Join(t.TempDir(), "store.json")
	job.Spec.PathFiles = map[string]string{"docs/x.md": "absent"}
	UpdateStore(job.Spec.Store, map[string]*Stored{"specs/a.spec.md::y": {Status: StatusPass}})
	results(t, job, line(0, claudeSaid(`{"scenarios":[{"id":"x","status":"pass","files_read":["src/a.go","/etc/passwd","src/a.go:3"]}]}`)), 0, 1<<20)
	s, _ := LoadStore(job.Spec.Store)
	x, ok := s["specs/a.spec.md::x"]
	if !ok || x.Status != StatusPass || x.Text != "tx" || x.Agent != "claude-code@1" || len(x.Files) != 2 || x.Files["src/a.go"] != Hash(root, "src/a.go") || x.Files["docs/x.md"] != "absent" {
		t.Errorf("x: %+v", x)
	}
	if _, ok := s["specs/a.spec.md::y"]; ok {
		t.Error("y, unanswered, keeps its old verdict")
	}
}

// TestParserRepeat: --repeat's judgements are each reported, and the last
// carries the agreement; a split is unstable and not kept.
func TestParserRepeat(t *testing.T) {
	root := t.TempDir()
	job := testJob(root, 3)
	job.Spec.Store = filepath.Join(t.TempDir(), "store.json")
	pass := claudeSaid(`{"scenarios":[{"id":"x","status":"pass"},{"id":"y","status":"pass"}]}`)
	split := claudeSaid(`{"scenarios":[{"id":"x","status":"pass"},{"id":"y","status":"fail"}]}`)
	var last map[string]*testdex.Verdict = map[string]*testdex.Verdict{}
	finals := 0
	p := NewParser(job, func(e lang.RunEvent) {
		if e.Action.Final() {
			finals++
			last[e.Name] = e.Verdict
		}
	})
	p.Write([]byte(line(0, pass) + line(1, split) + line(2, pass)))
	p.Close(0)
	if finals != 6 {
		t.Errorf("%d results, want 3 judgements of 2 scenarios", finals)
	}
	x, y := last["a.spec.md::x"], last["a.spec.md::y"]
	if x.Judgements != 3 || x.Agreement != 1 || x.Unstable || y.Agreement < 0.66 || y.Agreement > 0.67 || !y.Unstable {
		t.Errorf("x %+v\ny %+v", x, y)
	}
	s, _ := LoadStore(job.Spec.Store)
	if _, ok := s["specs/a.spec.md::y"]; ok || s["specs/a.spec.md::x"].Judgements != 3 {
		t.Errorf("kept %+v", s)
	}
}

// TestParserWhole: a spec without scenarios takes the one answer it
// gets, whatever its ID.
func TestParserWhole(t *testing.T) {
	job := testJob(t.TempDir(), 1)
	job.Spec.Whole, job.Spec.Scenarios = true, []JobScenario{{ID: "a.spec.md", Name: "a.spec.md", Line: 1}}
	got := results(t, job, line(0, claudeSaid(`{"id":"readme","status":"fail","observed":"nope"}`)), 0, 5)
	if len(got) != 1 || got[0] != "a.spec.md fail nope" {
		t.Errorf("%q", got)
	}
}
