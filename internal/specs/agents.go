package specs

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The answer formats an agent CLI writes on stdout, each with its own
// unwrapping (Unwrap).
const (
	FormatClaudeJSON    = "claude-json"    // claude -p --output-format json: one result object
	FormatGeminiJSON    = "gemini-json"    // gemini --output-format json: {response, stats, error}
	FormatCodexJSONL    = "codex-jsonl"    // codex exec --json: thread, turn and item events
	FormatOpencodeJSONL = "opencode-jsonl" // opencode run --format json: step, text and tool_use events
	FormatText          = "text"           // the answer itself (a custom agent)
)

// Preset is an agent CLI testdex knows how to run non-interactively: its
// program, how its argv is built, its answer format and how to install
// it. Every preset's flags come from the CLI's own --help (the versions
// in docs/specs.md); Why says what each one is for.
type Preset struct {
	Name    string // as [specs] agent and the frontmatter llm name it
	Program string // argv[0], looked up in PATH
	Package string // the npm package that installs it
	Format  string
	// PermissionFlag is the flag skipPermissionsIfPossible adds; "" when
	// the CLI has none.
	PermissionFlag string
	Why            string
	args           func(model, prompt string, skip bool) []string
}

// Presets are the agent CLIs testdex runs without configuration, by name.
var Presets = map[string]*Preset{
	"claude-code": {
		Name: "claude-code", Program: "claude", Package: "@anthropic-ai/claude-code", Format: FormatClaudeJSON,
		PermissionFlag: "--dangerously-skip-permissions",
		Why: "-p (--print) answers once and exits; --output-format json wraps the answer in one result object " +
			"(result, is_error, total_cost_usd); --no-session-persistence leaves no session behind; --model picks the model; " +
			"without --dangerously-skip-permissions, print mode allows the read-only tools and denies the rest",
		args: func(model, prompt string, skip bool) []string {
			a := []string{"claude", "-p", "--output-format", "json", "--no-session-persistence"}
			if model != "" {
				a = append(a, "--model", model)
			}
			if skip {
				a = append(a, "--dangerously-skip-permissions")
			}
			return append(a, prompt)
		},
	},
	"codex": {
		Name: "codex", Program: "codex", Package: "@openai/codex", Format: FormatCodexJSONL,
		PermissionFlag: "--dangerously-bypass-approvals-and-sandbox",
		Why: "exec runs one prompt non-interactively; --json prints its events as JSON Lines (the answer is the last " +
			"agent_message item, the commands it ran are command_execution items); --skip-git-repo-check lets it run " +
			"outside a git repository; --ephemeral keeps no session files; --sandbox read-only lets it run read-only " +
			"commands, replaced by --dangerously-bypass-approvals-and-sandbox when permissions are skipped; -m picks the model",
		args: func(model, prompt string, skip bool) []string {
			a := []string{"codex", "exec", "--json", "--skip-git-repo-check", "--ephemeral"}
			if skip {
				a = append(a, "--dangerously-bypass-approvals-and-sandbox")
			} else {
				a = append(a, "--sandbox", "read-only")
			}
			if model != "" {
				a = append(a, "-m", model)
			}
			return append(a, prompt)
		},
	},
	"gemini": {
		Name: "gemini", Program: "gemini", Package: "@google/gemini-cli", Format: FormatGeminiJSON,
		PermissionFlag: "--yolo",
		Why: "-p (--prompt) runs headless, one prompt; --output-format json prints {session_id, response, stats}, or " +
			"{error} on stderr; -m picks the model; --yolo approves every tool call (without it, tools needing approval " +
			"are refused in headless mode and the read-only ones run), with --skip-trust, without which an untrusted " +
			"folder overrides --yolo back to the default approval mode",
		args: func(model, prompt string, skip bool) []string {
			a := []string{"gemini", "--output-format", "json"}
			if model != "" {
				a = append(a, "-m", model)
			}
			if skip {
				a = append(a, "--yolo", "--skip-trust")
			}
			return append(a, "-p", prompt)
		},
	},
	"opencode": {
		Name: "opencode", Program: "opencode", Package: "opencode-ai", Format: FormatOpencodeJSONL,
		PermissionFlag: "--auto",
		Why: "run sends one message and exits; --format json prints its events as JSON Lines (text parts, tool_use " +
			"parts with the files read and the commands run); -m picks provider/model; --auto approves the permissions " +
			"no rule denies",
		args: func(model, prompt string, skip bool) []string {
			a := []string{"opencode", "run", "--format", "json"}
			if model != "" {
				a = append(a, "-m", model)
			}
			if skip {
				a = append(a, "--auto")
			}
			return append(a, prompt)
		},
	},
}

// DefaultAgent is the preset used when testdex.toml names none.
const DefaultAgent = "claude-code"

// PresetNames returns the presets' names, sorted.
func PresetNames() []string {
	out := make([]string, 0, len(Presets))
	for n := range Presets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Agent is the agent CLI one spec is judged by, resolved from testdex.toml
// and the spec's frontmatter.
type Agent struct {
	Preset *Preset // nil for a custom template
	// Template is a custom agent's argv ([specs] agent = [...]), with
	// the placeholders {prompt}, {prompt_file}, {model} and
	// {permissions}; PermissionFlag is what {permissions} becomes.
	Template       []string
	PermissionFlag string
	Model          string
	Skip           bool // skipPermissionsIfPossible
}

// Name names the agent: the preset, or "custom".
func (a Agent) Name() string {
	if a.Preset != nil {
		return a.Preset.Name
	}
	return "custom"
}

// Program is argv[0].
func (a Agent) Program() string {
	if a.Preset != nil {
		return a.Preset.Program
	}
	if len(a.Template) == 0 {
		return ""
	}
	return a.Template[0]
}

// Format is the agent's answer format.
func (a Agent) Format() string {
	if a.Preset != nil {
		return a.Preset.Format
	}
	return FormatText
}

// Argv builds the command line for a prompt (its text and the file that
// holds it). In a template, an argument holding a placeholder with no
// value is left out ("--model={model}" without a model), and an argument
// that is exactly "{permissions}" is the permission flag or nothing.
func (a Agent) Argv(prompt, promptFile string) []string {
	if a.Preset != nil {
		return a.Preset.args(a.Model, prompt, a.Skip)
	}
	perm := ""
	if a.Skip {
		perm = a.PermissionFlag
	}
	vals := map[string]string{"{prompt}": prompt, "{prompt_file}": promptFile, "{model}": a.Model, "{permissions}": perm}
	var out []string
	for i, arg := range a.Template {
		keep := true
		for ph, v := range vals {
			if strings.Contains(arg, ph) {
				if v == "" {
					keep = false
				}
				arg = strings.ReplaceAll(arg, ph, v)
			}
		}
		if keep || i == 0 {
			out = append(out, arg)
		}
	}
	return out
}

// InstallHint says how to get the agent's program.
func (a Agent) InstallHint() string {
	if a.Preset != nil {
		return fmt.Sprintf("install it with 'npm install -g %s', or name another agent in testdex.toml's [specs] agent", a.Preset.Package)
	}
	return "install it, or fix testdex.toml's [specs] agent"
}

// Config is testdex.toml's [specs] table, as the detector hands it over.
type Config struct {
	// Agent is a preset's name, or (Template) a custom argv.
	Agent          string
	Template       []string
	PermissionFlag string
	Model          string
	Skip           bool
	Timeout        string // a duration ("10m") or milliseconds ("600000")
}

// Resolve picks the agent of a spec: the frontmatter's llm, when it names
// a preset ("codex"), a preset and a model ("codex:o3"), or a semtest
// model key of a preset ("claude-code-sonnet-4-6", "codex-o3",
// "gemini-2.5-pro"), else the configured agent with llm as its model;
// skip is the frontmatter's skipPermissionsIfPossible (nil: the
// configuration's).
func (c Config) Resolve(llm string, skip *bool) (Agent, error) {
	a := Agent{Template: c.Template, PermissionFlag: c.PermissionFlag, Model: c.Model, Skip: c.Skip}
	if skip != nil {
		a.Skip = *skip
	}
	if len(c.Template) == 0 {
		name := c.Agent
		if name == "" {
			name = DefaultAgent
		}
		p := Presets[name]
		if p == nil {
			return Agent{}, fmt.Errorf("[specs] agent %q is no preset (%s) and no argv", name, strings.Join(PresetNames(), ", "))
		}
		a.Preset = p
	}
	if llm == "" {
		return a, nil
	}
	if p, model, ok := presetOf(llm); ok {
		a.Preset, a.Template, a.Model = p, nil, model
		return a, nil
	}
	a.Model = llm
	return a, nil
}

// presetOf reads an llm value that names a preset: "NAME", "NAME:MODEL",
// or one of semtest's model keys.
func presetOf(llm string) (*Preset, string, bool) {
	if p := Presets[llm]; p != nil {
		return p, "", true
	}
	if name, model, ok := strings.Cut(llm, ":"); ok && Presets[name] != nil {
		return Presets[name], model, true
	}
	switch {
	case strings.HasPrefix(llm, "claude-code-"): // claude-code-sonnet-4-6 is claude-sonnet-4-6
		return Presets["claude-code"], "claude-" + strings.TrimPrefix(llm, "claude-code-"), true
	case strings.HasPrefix(llm, "codex-"):
		return Presets["codex"], strings.TrimPrefix(llm, "codex-"), true
	case strings.HasPrefix(llm, "gemini-"):
		return Presets["gemini"], llm, true
	case strings.HasPrefix(llm, "opencode-"):
		return Presets["opencode"], strings.TrimPrefix(llm, "opencode-"), true
	}
	return nil, "", false
}

// ConfigFromExtra reads [specs] from the extras index hands the semtest
// detector (keys "specs.agent", "specs.agent_argv", "specs.model",
// "specs.permission_flag", "specs.timeout",
// "specs.skipPermissionsIfPossible").
func ConfigFromExtra(extra map[string][]string) Config {
	one := func(k string) string {
		if v := extra["specs."+k]; len(v) == 1 {
			return v[0]
		}
		return ""
	}
	return Config{Agent: one("agent"), Template: extra["specs.agent_argv"], PermissionFlag: one("permission_flag"),
		Model: one("model"), Skip: one("skipPermissionsIfPossible") == "true", Timeout: one("timeout")}
}

// ParseTimeout reads a spec's timeout as semtest writes it, in
// milliseconds ("30000"), or as a duration ("30s", "2m"); "" is none.
func ParseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms >= 0 {
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("timeout %q is neither milliseconds nor a duration like \"90s\"", s)
	}
	return d, nil
}
