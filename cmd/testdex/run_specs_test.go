package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
)

// The markdown spec runner, end to end, with the stand-in agent CLIs of
// testdata/run/specs/agents (fakeagent.py behind bin/claude, bin/codex,
// bin/gemini, bin/opencode, bin/custom-agent): each spec of
// testdata/run/specs/project says in a comment how the agent answers it.

// agentCall is one line of the fake agents' log.
type agentCall struct {
	CLI   string   `json:"cli"`
	Argv  []string `json:"argv"`
	Model *string  `json:"model"`
	Skip  bool     `json:"skip"`
	IDs   []string `json:"ids"`
}

// specRun is a copy of a spec project with the fake agents on PATH.
type specRun struct {
	dir string
	run cliFunc
	log string
}

// specFixture copies testdata/run/specs/NAME (or the files of tree) to a
// temp folder with toml as its testdex.toml.
func specFixture(t *testing.T, name, toml string, extra ...string) *specRun {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		testenv.Missing(t, "python3 is not installed: the fake agents need it")
	}
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("../../testdata/run/specs", name))); err != nil {
		t.Fatal(err)
	}
	if toml != "" {
		if err := os.WriteFile(filepath.Join(dir, "testdex.toml"), []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return newSpecRun(t, dir, extra...)
}

func newSpecRun(t *testing.T, dir string, extra ...string) *specRun {
	t.Helper()
	bin, err := filepath.Abs("../../testdata/run/specs/agents/bin")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	base := append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"FAKE_AGENT_LOG=" + log, "FAKE_AGENT_STATE=" + t.TempDir()}, extra...)
	return &specRun{dir: dir, run: runnerIn(t, dir, base...), log: log}
}

// calls returns the agent calls logged since the last calls.
func (s *specRun) calls(t *testing.T) []agentCall {
	t.Helper()
	f, err := os.Open(s.log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []agentCall
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c agentCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("bad log line %q", sc.Text())
		}
		out = append(out, c)
	}
	f.Close()
	os.Remove(s.log)
	return out
}

// results maps each test's final event to "ACTION MESSAGE'S FIRST LINE".
func results(t *testing.T, jsonl string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, e := range events(t, jsonl) {
		if e.ID != "" && e.Action.Final() {
			msg, _, _ := strings.Cut(e.Message, "\n")
			out[e.ID] = string(e.Action) + " " + msg
		}
	}
	return out
}

// projectWant is what every agent's run of the project reports.
var projectWant = map[string]string{
	"specs/auth.spec.md::session-expiry":   "pass ",
	"specs/auth.spec.md::password-hashing": "fail the code does not do what password-hashing asks",
	"specs/auth.spec.md::chatty":           "pass ",
	"specs/auth.spec.md::forgotten":        "fail error: no verdict: the agent did not answer this scenario",
	"specs/auth.spec.md::unsure":           `fail error: the agent answered status "maybe", not "pass" or "fail"`,
	"specs/retry.spec.md":                  "pass ",
	"specs/garbage.spec.md::garbage":       `fail error: no parsable verdict in the agent's answer (it began "I looked around and everything seems fine, more or less. {not json")`,
	"specs/hang.spec.md::hang":             "fail error: the agent timed out after 1.5s and was stopped (frontmatter timeout, [specs] timeout or --test-timeout)",
	"specs/crash.spec.md::crash":           "fail error: no answer: the agent answered nothing 3 times (it exited 3): fake {cli}: segmentation fault (pretend)",
	"specs/login.spec.md::login":           "fail error: the agent failed (exit {exit}): Not logged in · Please run /login",
	"specs/api/routes.spec.md::routes":     "fail the code does not do what routes asks",
	"specs/api/routes.spec.md::listing":    "pass ",
	"specs/plain.spec.md":                  "pass ",
}

// TestRunSpecsAgents runs the project with each preset and a custom
// agent: the same verdicts whatever the CLI's format, the agent called
// with its preset's argv (the spec's model and permission flag), once
// per spec file, again only on an empty answer.
func TestRunSpecsAgents(t *testing.T) {
	for _, c := range []struct {
		name, toml, cli string
		authArgv        []string
		loginExit       string
	}{
		{"claude-code", "", "claude", []string{"-p", "--output-format", "json", "--no-session-persistence", "--model", "some-model", "--dangerously-skip-permissions", "PROMPT"}, "1"},
		{"codex", "[specs]\nagent = \"codex\"\n", "codex", []string{"exec", "--json", "--skip-git-repo-check", "--ephemeral", "--dangerously-bypass-approvals-and-sandbox", "-m", "some-model", "PROMPT"}, "1"},
		{"gemini", "[specs]\nagent = \"gemini\"\n", "gemini", []string{"--output-format", "json", "-m", "some-model", "--yolo", "--skip-trust", "-p", "PROMPT"}, "41"},
		{"opencode", "[specs]\nagent = \"opencode\"\n", "opencode", []string{"run", "--format", "json", "-m", "some-model", "--auto", "PROMPT"}, "1"},
		{"custom", "[specs]\nagent = [\"custom-agent\", \"--prompt-file\", \"{prompt_file}\", \"--model={model}\", \"{permissions}\"]\npermission_flag = \"--yes\"\n", "custom-agent", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := specFixture(t, "project", c.toml)
			code, out, errs := s.run(nil, "run", "--json")
			if code != cli.ExitFailed {
				t.Fatalf("exit %d, want 1\n%s%s", code, out, errs)
			}
			got := results(t, out)
			for id, w := range projectWant {
				w = strings.NewReplacer("{cli}", c.cli, "{exit}", c.loginExit).Replace(w)
				if c.cli == "custom-agent" && id == "specs/login.spec.md::login" { // its error is on stderr, stdout empty: asked again
					w = "fail error: no answer: the agent answered nothing 3 times (it exited 1): Not logged in · Please run /login"
				}
				if got[id] != w {
					t.Errorf("%s:\n  %q\nwant\n  %q", id, got[id], w)
				}
			}
			if len(got) != len(projectWant) {
				t.Errorf("%d results, want %d: %v", len(got), len(projectWant), got)
			}
			calls := s.calls(t)
			perSpec := map[string]int{}
			for _, k := range calls {
				if k.CLI != c.cli {
					t.Errorf("called %s, want %s", k.CLI, c.cli)
				}
				perSpec[strings.Join(k.IDs, ",")]++
				if strings.Contains(strings.Join(k.IDs, ","), "session-expiry") {
					if c.authArgv != nil && !reflect.DeepEqual(k.Argv, c.authArgv) {
						t.Errorf("auth's argv %q, want %q", k.Argv, c.authArgv)
					}
					if k.Model == nil || *k.Model != "some-model" || !k.Skip {
						t.Errorf("auth judged with model %v skip %v, want some-model and no permission prompts", k.Model, k.Skip)
					}
				}
			}
			wantCalls := map[string]int{"session-expiry,password-hashing,chatty,forgotten,unsure": 1, "retry.spec.md": 2, "garbage": 1,
				"hang": 1, "crash": 3, "login": 1, "routes,listing": 1, "plain.spec.md": 1}
			if c.cli == "custom-agent" {
				wantCalls["login"] = 3
			}
			if !reflect.DeepEqual(perSpec, wantCalls) {
				t.Errorf("calls per spec %v, want %v", perSpec, wantCalls)
			}
		})
	}
}

// TestRunSpecsFailures: a failure's location is the agent's, its message
// the observed text and the resolution; an error has its reason. Both
// are what `failures` and --failed work from.
func TestRunSpecsFailures(t *testing.T) {
	s := specFixture(t, "project", "")
	s.run(nil, "run", "specs/auth.spec.md", "specs/api")
	code, out, _ := s.run(nil, "failures", "--json")
	if code != 0 {
		t.Fatalf("failures: exit %d", code)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var f struct {
			ID, File, Message string
			Line              int
		}
		json.Unmarshal([]byte(l), &f)
		lines = append(lines, f.ID+" "+f.File+":"+strconv.Itoa(f.Line)+" "+strings.ReplaceAll(f.Message, "\n", " | "))
	}
	sort.Strings(lines)
	want := []string{
		"specs/api/routes.spec.md::routes src/routes.go:3 the code does not do what routes asks | resolution: make it do so",
		"specs/auth.spec.md::forgotten specs/auth.spec.md:27 error: no verdict: the agent did not answer this scenario",
		"specs/auth.spec.md::password-hashing src/hash.go:3 the code does not do what password-hashing asks | resolution: make it do so",
		`specs/auth.spec.md::unsure specs/auth.spec.md:31 error: the agent answered status "maybe", not "pass" or "fail"`,
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("failures\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// --failed judges exactly them again: one call for auth's three, one
	// for routes (the stored failures are reused: no call is made for them).
	s.calls(t)
	s.run(nil, "run", "--failed")
	var asked []string
	for _, k := range s.calls(t) {
		asked = append(asked, strings.Join(k.IDs, ","))
	}
	sort.Strings(asked)
	if !reflect.DeepEqual(asked, []string{"forgotten,unsure"}) {
		t.Errorf("--failed asked the agent about %q, want only the errors (the failures' verdicts are reused)", asked)
	}
}
