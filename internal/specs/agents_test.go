package specs

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestPresetArgv holds each preset's argv, for every model and
// permission setting, to testdata/argv.golden. The fake agents under
// testdata/run/specs/agents accept exactly these argvs.
// Regenerate: go test ./internal/specs -run TestPresetArgv -update
func TestPresetArgv(t *testing.T) {
	var b strings.Builder
	for _, name := range PresetNames() {
		for _, model := range []string{"", "some-model"} {
			for _, skip := range []bool{false, true} {
				a := Agent{Preset: Presets[name], Model: model, Skip: skip}
				fmt.Fprintf(&b, "%s model=%q skip=%v:\n  %q\n", name, model, skip, a.Argv("PROMPT", "/tmp/p.md"))
			}
		}
	}
	got := b.String()
	const golden = "testdata/argv.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("argv changed (run with -update if meant):\n%s\nwant\n%s", got, want)
	}
}

// TestPresetPermissionFlag: a preset's PermissionFlag is the flag its
// argv adds when permissions are skipped, and only then.
func TestPresetPermissionFlag(t *testing.T) {
	for _, name := range PresetNames() {
		p := Presets[name]
		on := Agent{Preset: p, Skip: true}.Argv("x", "")
		off := Agent{Preset: p}.Argv("x", "")
		if !contains(on, p.PermissionFlag) || contains(off, p.PermissionFlag) {
			t.Errorf("%s: %q with skip %q, without %q", name, p.PermissionFlag, on, off)
		}
		if on[0] != p.Program || on[len(on)-1] != "x" {
			t.Errorf("%s: argv %q: the program first, the prompt last", name, on)
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestTemplateArgv(t *testing.T) {
	tmpl := []string{"my-agent", "--prompt-file", "{prompt_file}", "--model={model}", "{permissions}", "--say={prompt}"}
	for _, c := range []struct {
		model string
		skip  bool
		want  []string
	}{
		{"", false, []string{"my-agent", "--prompt-file", "/p.md", "--say=hi"}},
		{"m", true, []string{"my-agent", "--prompt-file", "/p.md", "--model=m", "--yes", "--say=hi"}},
	} {
		a := Agent{Template: tmpl, PermissionFlag: "--yes", Model: c.model, Skip: c.skip}
		if got := a.Argv("hi", "/p.md"); !reflect.DeepEqual(got, c.want) {
			t.Errorf("model %q skip %v: %q, want %q", c.model, c.skip, got, c.want)
		}
	}
	if a := (Agent{Template: tmpl}); a.Name() != "custom" || a.Program() != "my-agent" || a.Format() != FormatText {
		t.Errorf("custom agent: %s %s %s", a.Name(), a.Program(), a.Format())
	}
}

func TestResolve(t *testing.T) {
	yes := true
	for _, c := range []struct {
		cfg           Config
		llm           string
		skip          *bool
		preset, model string
		skipOut       bool
	}{
		{Config{}, "", nil, "claude-code", "", false},
		{Config{Agent: "codex", Model: "o3", Skip: true}, "", nil, "codex", "o3", true},
		{Config{Agent: "codex"}, "gpt-5", &yes, "codex", "gpt-5", true},
		{Config{}, "gemini", nil, "gemini", "", false},
		{Config{}, "opencode:anthropic/claude-sonnet-4", nil, "opencode", "anthropic/claude-sonnet-4", false},
		{Config{}, "claude-code-sonnet-4-6", nil, "claude-code", "claude-sonnet-4-6", false},
		{Config{}, "codex-o4-mini", nil, "codex", "o4-mini", false},
		{Config{}, "gemini-2.5-pro", nil, "gemini", "gemini-2.5-pro", false},
		{Config{Template: []string{"x"}}, "big", nil, "custom", "big", false},
		{Config{Template: []string{"x"}}, "codex", nil, "codex", "", false},
	} {
		a, err := c.cfg.Resolve(c.llm, c.skip)
		if err != nil || a.Name() != c.preset || a.Model != c.model || a.Skip != c.skipOut {
			t.Errorf("%+v llm %q: %s %q skip %v (%v), want %s %q %v", c.cfg, c.llm, a.Name(), a.Model, a.Skip, err, c.preset, c.model, c.skipOut)
		}
	}
	if _, err := (Config{Agent: "cursor"}).Resolve("", nil); err == nil || !strings.Contains(err.Error(), "no preset") {
		t.Errorf("an unknown preset: %v", err)
	}
}

func TestParseTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "30000": 30 * time.Second, "90s": 90 * time.Second, "2m": 2 * time.Minute} {
		if got, err := ParseTimeout(in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"soon", "-5s", "1.5"} {
		if _, err := ParseTimeout(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestConfigFromExtra(t *testing.T) {
	c := ConfigFromExtra(map[string][]string{"specs.agent": {"codex"}, "specs.model": {"o3"}, "specs.skipPermissionsIfPossible": {"true"},
		"specs.agent_argv": {"a", "{prompt}"}, "specs.timeout": {"1m"}, "specs.permission_flag": {"--y"}})
	want := Config{Agent: "codex", Template: []string{"a", "{prompt}"}, PermissionFlag: "--y", Model: "o3", Skip: true, Timeout: "1m"}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("%+v, want %+v", c, want)
	}
}
