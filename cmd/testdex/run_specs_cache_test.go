package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
)

// good are the project's specs whose every scenario gets a verdict (no
// errors, which are never kept and so always judged again).
var good = []string{"specs/api", "specs/plain.spec.md", "specs/retry.spec.md"}

// asked lists the scenario IDs of each agent call, sorted.
func asked(calls []agentCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, strings.Join(c.IDs, ","))
	}
	sort.Strings(out)
	return out
}

// TestRunSpecsReuse: a verdict is reused until its key changes: the
// second run makes no agent call; editing a file judges again exactly the
// scenarios whose inputs hold it (paths, or the files the agent read);
// --no-cache judges everything.
func TestRunSpecsReuse(t *testing.T) {
	s := specFixture(t, "project", "")
	args := append([]string{"run"}, good...)
	s.run(nil, args...)
	if got := asked(s.calls(t)); !reflect.DeepEqual(got, []string{"plain.spec.md", "retry.spec.md", "retry.spec.md", "routes,listing"}) {
		t.Fatalf("first run asked %q", got)
	}
	code, out, _ := s.run(nil, args...)
	if code != cli.ExitFailed { // routes' failure is reused, and still fails
		t.Errorf("second run: exit %d, want 1", code)
	}
	if calls := s.calls(t); len(calls) != 0 {
		t.Errorf("second run made %d agent calls, want 0: %v", len(calls), asked(calls))
	}
	for _, w := range []string{"--- FAIL: specs/api/routes.spec.md::routes src/routes.go:3", "(verdict reused: failed when judged",
		"specs: 4 scenarios: 0 judged by 0 agent calls, 4 verdicts reused (3 calls saved)", "0 passed, 1 failed, 0 skipped, 3 unchanged"} {
		if !strings.Contains(out, w) {
			t.Errorf("second run's output lacks %q:\n%s", w, out)
		}
	}
	// README.md is what plain and retry read; src/routes.go is routes'
	// paths (both its scenarios).
	os.WriteFile(filepath.Join(s.dir, "README.md"), []byte("# changed\n"), 0o644)
	s.run(nil, args...)
	if got := asked(s.calls(t)); !reflect.DeepEqual(got, []string{"plain.spec.md", "retry.spec.md"}) {
		t.Errorf("after README.md changed, asked %q, want plain and retry", got)
	}
	os.WriteFile(filepath.Join(s.dir, "src/routes.go"), []byte("package api // v2\n"), 0o644)
	s.run(nil, args...)
	if got := asked(s.calls(t)); !reflect.DeepEqual(got, []string{"routes,listing"}) {
		t.Errorf("after src/routes.go changed, asked %q, want routes' two scenarios", got)
	}
	// A spec's own edit judges again only the scenario whose text changed.
	spec := filepath.Join(s.dir, "specs/api/routes.spec.md")
	data, _ := os.ReadFile(spec)
	os.WriteFile(spec, []byte(strings.Replace(string(data), "Routes are listed", "Routes are listed in order", 1)), 0o644)
	s.run(nil, args...)
	if got := asked(s.calls(t)); !reflect.DeepEqual(got, []string{"listing"}) {
		t.Errorf("after listing's text changed, asked %q, want listing alone", got)
	}
	// The agent upgraded (its program changed): everything is judged again.
	s.run(nil, append([]string{"--no-cache"}, args...)...)
	if got := asked(s.calls(t)); len(got) != 3 {
		t.Errorf("--no-cache asked %q, want every spec", got)
	}
}

// TestRunSpecsAffected: affected names the scenarios a change reaches
// through the files the agent read, and run --changed and --affected
// judge exactly those again.
func TestRunSpecsAffected(t *testing.T) {
	s := specFixture(t, "project", "")
	s.run(nil, "run", "specs/auth.spec.md", "specs/api")
	s.calls(t)
	code, out, errs := s.run(nil, "affected", "--files", "src/hash.go")
	if code != 0 || !strings.Contains(out, "specs/auth.spec.md::password-hashing  spec:specs/auth.spec.md::password-hashing → (changed) src/hash.go") ||
		strings.Contains(out, "session-expiry") {
		t.Errorf("affected by src/hash.go: exit %d\n%s%s", code, out, errs)
	}
	os.WriteFile(filepath.Join(s.dir, "src/hash.go"), []byte("package auth // bcrypt\n"), 0o644)
	s.run(nil, "run", "--changed", "specs")
	got := asked(s.calls(t))
	// password-hashing read src/hash.go; forgotten and unsure have no
	// verdict (errors), so they are asked again; the other specs of the
	// folder were never judged.
	want := []string{"crash", "crash", "crash", "garbage", "hang", "login", "password-hashing,forgotten,unsure", "plain.spec.md", "retry.spec.md", "retry.spec.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("run --changed asked %q\nwant %q", got, want)
	}
}

// TestRunSpecsMissingAgent: an agent CLI that is not installed is one
// error naming it and how to install it, not a failure per scenario.
func TestRunSpecsMissingAgent(t *testing.T) {
	s := specFixture(t, "project", "")
	code, out, _ := s.run([]string{"PATH=" + t.TempDir()}, "run", "--json", "specs/auth.spec.md", "specs/plain.spec.md")
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want 1", code)
	}
	var errs []testdex.Event
	for _, e := range events(t, out) {
		switch {
		case e.Action == testdex.ActionError:
			errs = append(errs, e)
		case e.Action == testdex.ActionFail && e.ID != "":
			t.Errorf("a failure of %s: %s", e.ID, e.Message)
		}
	}
	if len(errs) != 1 || errs[0].Cause != testdex.CauseToolchain ||
		!strings.Contains(errs[0].Message, "not installed: claude (the claude-code agent CLI, judging specs/auth.spec.md): install it with 'npm install -g @anthropic-ai/claude-code'") {
		t.Errorf("errors %+v", errs)
	}
}

// TestRunSpecsRepeat: --repeat 5 judges each scenario five times; an
// agent answering at random is flagged unstable, a steady one is not,
// and the unstable verdict is not kept.
func TestRunSpecsRepeat(t *testing.T) {
	s := specFixture(t, "project", "", "FAKE_AGENT_SEED=1")
	os.WriteFile(filepath.Join(s.dir, "specs/coin.spec.md"), []byte("# Coin - id: coin\n<!-- fake: random -->\nHeads or tails.\n"), 0o644)
	code, out, _ := s.run(nil, "run", "--repeat", "5", "--json", "specs/coin.spec.md", "specs/plain.spec.md")
	if code != cli.ExitFailed {
		t.Errorf("exit %d, want 1 (a judgement failed)", code)
	}
	if n := len(s.calls(t)); n != 10 {
		t.Errorf("%d calls, want 5 per spec", n)
	}
	last := map[string]*testdex.Verdict{}
	counts := map[string]int{}
	for _, e := range events(t, out) {
		if e.ID != "" && e.Action.Final() {
			counts[e.ID]++
			last[e.ID] = e.Verdict
		}
	}
	coin, plain := last["specs/coin.spec.md::coin"], last["specs/plain.spec.md"]
	if counts["specs/coin.spec.md::coin"] != 5 || coin == nil || !coin.Unstable || coin.Agreement != 0.6 || coin.Judgements != 5 {
		t.Errorf("coin: %d results, last %+v", counts["specs/coin.spec.md::coin"], coin)
	}
	if plain == nil || plain.Unstable || plain.Agreement != 1 {
		t.Errorf("plain: %+v", plain)
	}
	_, text, _ := s.run(nil, "run", "--repeat", "5", "specs/coin.spec.md")
	if !strings.Contains(text, "unstable: specs/coin.spec.md::coin: ") {
		t.Errorf("the text view does not flag coin:\n%s", text)
	}
	s.calls(t)
	s.run(nil, "run", "specs/coin.spec.md")
	if n := len(s.calls(t)); n != 1 {
		t.Errorf("an unstable verdict was kept: %d calls after it, want 1", n)
	}
}

// TestRunSpecsStrict: with --strict a spec with a duplicate or missing
// scenario ID fails without being judged; without it they are warnings.
func TestRunSpecsStrict(t *testing.T) {
	s := specFixture(t, "project", "")
	bad := "# A - id: a\nx\n# B\ny\n# A again - id: a\nz\n"
	os.WriteFile(filepath.Join(s.dir, "specs/bad.spec.md"), []byte(bad), 0o644)
	code, out, errs := s.run(nil, "run", "--strict", "specs/bad.spec.md")
	if code != cli.ExitFailed || !strings.Contains(out, "not judged: the spec fails validation (--strict):") ||
		!strings.Contains(out, `line 3: heading "B" has no scenario ID`) || !strings.Contains(out, `line 5: duplicate scenario ID "a"`) {
		t.Errorf("--strict: exit %d\n%s%s", code, out, errs)
	}
	if n := len(s.calls(t)); n != 0 {
		t.Errorf("--strict judged an invalid spec: %d calls", n)
	}
	code, _, _ = s.run(nil, "run", "specs/bad.spec.md")
	if n := len(s.calls(t)); code != 0 || n != 1 {
		t.Errorf("without --strict: exit %d, %d calls, want 0 and 1", code, n)
	}
	if _, _, errs := s.run(nil, "list", "specs/bad.spec.md"); !strings.Contains(errs, `warning: specs/bad.spec.md:5: duplicate scenario ID "a"`) {
		t.Errorf("list does not warn:\n%s", errs)
	}
}

// TestRunSpecsByID: a scenario named by ID is judged alone (the prompt
// asks for it only).
func TestRunSpecsByID(t *testing.T) {
	s := specFixture(t, "project", "")
	code, out, _ := s.run(nil, "run", "--json", "specs/auth.spec.md::session-expiry", "specs/api/routes.spec.md::listing")
	if code != 0 {
		t.Errorf("exit %d\n%s", code, out)
	}
	if got := asked(s.calls(t)); !reflect.DeepEqual(got, []string{"listing", "session-expiry"}) {
		t.Errorf("asked %q", got)
	}
	if got := results(t, out); len(got) != 2 {
		t.Errorf("results %v", got)
	}
}

// TestRunSpecsOutput: --output writes semtest's report files (their
// documented shapes: docs/specs.md) and the raw answers, and the folder
// is left out of discovery.
func TestRunSpecsOutput(t *testing.T) {
	s := specFixture(t, "project", "")
	out := filepath.Join(s.dir, "report")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "stale.spec.md"), []byte("# not a spec of the project\n"), 0o644)
	code, text, errs := s.run(nil, "run", "--output", "report", "specs/auth.spec.md", "specs/api", "specs/plain.spec.md", "specs/garbage.spec.md")
	if code != cli.ExitFailed || strings.Contains(text+errs, "stale.spec.md") {
		t.Fatalf("exit %d\n%s%s", code, text, errs)
	}
	md, _ := os.ReadFile(filepath.Join(out, "latest.md"))
	for _, w := range []string{"# Semantic Test Report\n", "| Metric | Count |\n|---|---|\n| Total Tests | 9 |\n| Passed | 4 |\n| Failed | 2 |\n| Errored | 3 |\n",
		"\n## specs\n", "\n## specs/api\n", "\n### FAIL password-hashing\n\nSource: auth.spec.md  \nStatus: FAIL\n",
		"\nExpectation:\n\nPasswords are hashed with bcrypt (`src/hash.go`).\n", "\nObserved:\n\nthe code does not do what password-hashing asks\n",
		"\nLocation:\n\nsrc/hash.go:3\n", "\nResolution:\n\nmake it do so\n", "\n### ERROR garbage\n", "\nError:\n\nno parsable verdict"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("latest.md lacks %q:\n%s", w, md)
		}
	}
	var ci struct {
		Status  string
		Summary map[string]int
		Tests   []map[string]any
		Calls   map[string]int
	}
	data, _ := os.ReadFile(filepath.Join(out, "ci-results.json"))
	if err := json.Unmarshal(data, &ci); err != nil {
		t.Fatal(err)
	}
	if ci.Status != "error" || ci.Summary["total"] != 9 || ci.Summary["passed"] != 4 || ci.Summary["failed"] != 2 || ci.Summary["errored"] != 3 || ci.Calls["made"] != 4 {
		t.Errorf("ci-results.json: %s", data)
	}
	for _, tc := range ci.Tests {
		for _, k := range []string{"id", "sourceFile", "status", "testdexId"} {
			if _, ok := tc[k].(string); !ok {
				t.Errorf("a test without %s: %v", k, tc)
			}
		}
		if tc["testdexId"] == "specs/auth.spec.md::password-hashing" && (tc["location"] != "src/hash.go:3" || tc["group"] != "specs" || tc["id"] != "password-hashing") {
			t.Errorf("password-hashing: %v", tc)
		}
	}
	var suites struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	x, _ := os.ReadFile(filepath.Join(out, "junit-results.xml"))
	if err := xml.Unmarshal(x, &suites); err != nil || len(suites.Suites) != 1 || suites.Suites[0].Tests != 9 || suites.Suites[0].Failures != 5 {
		t.Errorf("junit-results.xml: %v\n%s", err, x)
	}
	var debug struct {
		File       string
		Judgements []struct{ Attempts []struct{ Stdout string } }
	}
	d, _ := os.ReadFile(filepath.Join(out, "debug", "specs", "auth.spec.md.json"))
	if err := json.Unmarshal(d, &debug); err != nil || debug.File != "specs/auth.spec.md" || len(debug.Judgements) != 1 ||
		!strings.Contains(debug.Judgements[0].Attempts[0].Stdout, `"type": "result"`) && !strings.Contains(debug.Judgements[0].Attempts[0].Stdout, `"type":"result"`) {
		t.Errorf("debug: %v\n%s", err, d)
	}
}

// TestRunSpecsRunTimeout: the run's timeout stops the agent (its process
// group, through the driver) and the run ends 124, the scenario failed
// with the reason and nothing left running.
func TestRunSpecsRunTimeout(t *testing.T) {
	s := specFixture(t, "project", "")
	os.WriteFile(filepath.Join(s.dir, "specs/forever.spec.md"), []byte("# Forever - id: forever\n<!-- fake: hang -->\n"), 0o644)
	code, out, _ := s.run(nil, "run", "--json", "--timeout", "3s", "specs/forever.spec.md")
	if code != 124 {
		t.Errorf("exit %d, want 124", code)
	}
	got := results(t, out)
	if got["specs/forever.spec.md::forever"] != "fail error: no verdict: the agent was stopped (the run's timeout or a cancellation)" {
		t.Errorf("results %v", got)
	}
	for _, e := range events(t, out) {
		if len(e.Leaked) > 0 {
			t.Errorf("left running: %+v", e.Leaked)
		}
	}
}
