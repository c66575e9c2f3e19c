package markdown

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/specs"
)

// runner judges specs with an agent CLI (package specs): one command per
// spec file, testdex's own driver running the agent with a prompt that
// wraps the spec, its parser turning the answer into each scenario's
// result. Before that, Reuse reports the scenarios whose stored verdict
// still holds (no agent call).
type runner struct {
	cfg specs.Config
}

var (
	_ lang.Runner = (*runner)(nil)
	_ lang.Reuser = (*runner)(nil)
)

// spec is one selected spec file, read now (the run judges the file as it
// is, not as the listing saw it).
type spec struct {
	rel   string // root-relative
	fm    Frontmatter
	doc   Doc
	whole bool // no scenarios: the file is the one test
	// judge are the scenarios selected, in file order (for a whole spec,
	// one standing for the file, ID its name).
	judge []Scenario
	agent specs.Agent
	// program is the agent's program found in PATH, "" when missing.
	program string
	ident   string // the agent and its version, for the key
	issues  []Issue
}

// load reads the specs a selection names: whole files (paths, file
// records) and scenarios by ID, grouped by file in path order. A
// scenario ID the file no longer has is left out (the run reports it as
// matching nothing).
func (r *runner) load(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*spec, error) {
	want := map[string]map[string]bool{} // file -> scenario IDs; nil: all
	add := func(t *testdex.Test) {
		file, name := testdex.SplitID(t.ID)
		if t.File != "" {
			file = t.File
		}
		rel := file
		if name == "" || name == path.Base(file) {
			want[rel] = nil
			return
		}
		if ids, ok := want[rel]; !ok || ids != nil {
			if ids == nil {
				ids = map[string]bool{}
			}
			ids[name] = true
			want[rel] = ids
		}
	}
	for _, ps := range sel.Paths {
		for _, t := range ps.Tests {
			add(t)
		}
	}
	for _, t := range sel.Tests {
		add(t)
	}
	files := make([]string, 0, len(want))
	for f := range want {
		files = append(files, f)
	}
	sort.Strings(files)
	var out []*spec
	for _, f := range files {
		s, err := r.read(p, f, want[f], o)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// read loads one spec file and resolves its agent.
func (r *runner) read(p *lang.Project, rel string, ids map[string]bool, o lang.RunOptions) (*spec, error) {
	raw, err := os.ReadFile(filepath.Join(p.Dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("read spec %s: %w", rel, err)
	}
	fm, body, _ := Split(raw)
	s := &spec{rel: rel, fm: fm}
	s.doc = Parse(string(body), 1+strings.Count(string(raw[:len(raw)-len(body)]), "\n"))
	s.issues = s.doc.Issues
	if len(s.doc.Scenarios) == 0 {
		s.whole = true
		s.judge = []Scenario{{ID: path.Base(rel), Line: 1, End: len(s.doc.Body)}}
	}
	for _, sc := range s.doc.Scenarios {
		if ids == nil || ids[sc.ID] {
			s.judge = append(s.judge, sc)
		}
	}
	if s.agent, err = r.cfg.Resolve(fm.LLM, fm.SkipPermissionsIfPossible); err != nil {
		return nil, err
	}
	if prog, err := specs.LookPath(s.agent.Program(), o.Env); err == nil {
		s.program = prog
		s.ident = s.agent.Name() + " (" + specs.Version(prog) + ")" // claude-code (@anthropic-ai/claude-code@2.1.197)
		if s.agent.Preset == nil {
			s.ident = "custom " + strings.Join(s.agent.Template, " ") + " (" + specs.Version(prog) + ")"
		}
	}
	return s, nil
}

// name is a scenario's record Name; scope the spec's.
func (s *spec) name(sc Scenario) string {
	if s.whole {
		return path.Base(s.rel)
	}
	return ScenarioName(path.Base(s.rel), sc.ID)
}

func (s *spec) scope() string { return group(s.rel) }

// id is a scenario's test ID.
func (s *spec) id(sc Scenario) string {
	if s.whole {
		return s.rel
	}
	return testdex.MakeID(s.rel, sc.ID)
}

// key is a scenario's key before the agent runs: its text, the agent,
// the model and the files paths names. ok is false when it cannot be
// known (a broken paths field, an agent not found).
func (s *spec) key(root string, sc Scenario) (specs.Key, bool) {
	if s.fm.PathsInvalid || s.ident == "" {
		return specs.Key{}, false
	}
	text := s.doc.Body
	if !s.whole {
		text = s.doc.Context(&sc)
	}
	k := specs.Key{Text: specs.TextHash(text), Agent: s.ident, Model: s.agent.Model, Files: map[string]string{}}
	files, ok := s.pathFiles(root)
	if !ok {
		return specs.Key{}, false
	}
	for _, f := range files {
		k.Files[f] = specs.Hash(root, f)
	}
	return k, true
}

// pathFiles are the files the frontmatter's paths match today; ok is
// false for a pattern leaving the root.
func (s *spec) pathFiles(root string) ([]string, bool) {
	var pats []string
	for _, p := range s.fm.Paths {
		pat, ok := resolvePattern(s.rel, p)
		if !ok {
			return nil, false
		}
		pats = append(pats, pat)
	}
	if len(pats) == 0 {
		return nil, true
	}
	matches, _ := matchFiles(root, pats)
	seen := map[string]bool{}
	var out []string
	for _, p := range pats {
		for _, f := range matches[p] {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	sort.Strings(out)
	return out, true
}

// Reuse implements lang.Reuser: a scenario whose stored verdict's key is
// unchanged is reported with that verdict, and, with Strict, a spec with
// validation findings fails without being judged. --no-cache (Fresh),
// --repeat and a run without a cache folder reuse nothing.
func (r *runner) Reuse(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]lang.RunEvent, *lang.Selection, error) {
	reuse := o.CacheDir != "" && !o.Fresh && o.Repeat <= 1
	if !reuse && !o.Strict {
		return nil, sel, nil
	}
	all, err := r.load(p, sel, o)
	if err != nil {
		return nil, nil, err
	}
	var known []lang.RunEvent
	var store map[string]specs.Stored
	if reuse {
		var err error
		if store, err = specs.LoadStore(specs.StorePath(o.CacheDir, p.Dir)); err != nil {
			known = append(known, lang.RunEvent{Action: testdex.ActionOutput, Output: "testdex: warning: " + err.Error() + "\n"})
		}
	}
	rest := &lang.Selection{}
	for _, s := range all {
		if o.Strict && len(s.issues) > 0 {
			known = append(known, s.invalid()...)
			continue
		}
		var left []Scenario
		for _, sc := range s.judge {
			st, ok := store[s.id(sc)]
			k, known2 := s.key(p.Dir, sc)
			if !ok || !known2 || specs.Changed(p.Dir, st.Key, k) != "" {
				left = append(left, sc)
				continue
			}
			known = append(known, specs.ReusedEvent(s.scope(), s.name(sc), p.Dir, s.rel, sc.Line, st))
		}
		for _, sc := range left {
			rest.Tests = append(rest.Tests, &testdex.Test{ID: s.id(sc), File: s.rel, Scope: s.scope(), Name: s.name(sc)})
		}
	}
	return known, rest, nil
}

// invalid fails the selected scenarios of a spec with validation
// findings (--strict): it is not judged until they are fixed.
func (s *spec) invalid() []lang.RunEvent {
	var lines []string
	for _, i := range s.issues {
		lines = append(lines, "line "+strconv.Itoa(i.Line)+": "+i.Msg)
	}
	msg := "not judged: the spec fails validation (--strict):\n" + strings.Join(lines, "\n")
	var out []lang.RunEvent
	for _, sc := range s.judge {
		out = append(out, lang.RunEvent{Action: testdex.ActionFail, Scope: s.scope(), Name: s.name(sc), Message: msg,
			File: s.rel, Line: s.issues[0].Line, Verdict: &testdex.Verdict{Status: specs.StatusError, Observed: msg}})
	}
	return out
}

// RunCommands implements lang.Runner: one command per spec file with
// scenarios to judge, testdex's driver running its agent. A missing
// agent CLI is one error naming it and how to install it.
func (r *runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	all, err := r.load(p, sel, o)
	if err != nil {
		return nil, err
	}
	if err := missing(all); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find testdex itself to drive the agent: %w", err)
	}
	var cmds []*lang.Command
	for i, s := range all {
		if len(s.judge) == 0 {
			continue
		}
		job, err := r.job(p, s, o)
		if err != nil {
			return nil, err
		}
		file := filepath.Join(o.Dir, "spec-"+strconv.Itoa(i)+".job.json")
		data, err := json.Marshal(job)
		if err == nil {
			err = os.WriteFile(file, data, 0o600)
		}
		if err != nil {
			return nil, fmt.Errorf("write the job of %s: %w (check the temporary folder)", s.rel, err)
		}
		cmds = append(cmds, &lang.Command{Args: []string{self}, Dir: p.Dir, Env: []string{specs.JobEnv + "=" + file}})
	}
	return cmds, nil
}

// missing is the error of the agents not found, one line for all.
func missing(all []*spec) error {
	var lines []string
	seen := map[string]bool{}
	for _, s := range all {
		if s.program != "" || len(s.judge) == 0 || seen[s.agent.Program()] {
			continue
		}
		seen[s.agent.Program()] = true
		lines = append(lines, fmt.Sprintf("%s (the %s agent CLI, judging %s): %s", s.agent.Program(), s.agent.Name(), s.rel, s.agent.InstallHint()))
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", lang.ErrNotInstalled, strings.Join(lines, "; "))
}

// job builds the driver's job for a spec: the prompt, the argv, and what
// the parser needs.
func (r *runner) job(p *lang.Project, s *spec, o lang.RunOptions) (specs.Job, error) {
	timeout, err := r.timeout(s, o)
	if err != nil {
		return specs.Job{}, fmt.Errorf("%s: %w", s.rel, err)
	}
	js := specs.JobSpec{Root: p.Dir, File: s.rel, Scope: s.scope(), Whole: s.whole, Agent: s.ident, Model: s.agent.Model}
	var ids []string
	keep := o.CacheDir != ""
	for _, sc := range s.judge {
		k, ok := s.key(p.Dir, sc)
		keep = keep && ok
		js.PathFiles = k.Files
		js.Scenarios = append(js.Scenarios, specs.JobScenario{ID: sc.ID, Name: s.name(sc), Line: sc.Line, Text: k.Text})
		ids = append(ids, sc.ID)
	}
	if keep {
		js.Store = specs.StorePath(o.CacheDir, p.Dir)
	}
	if o.Output != "" {
		js.Debug = filepath.Join(o.Output, "debug", filepath.FromSlash(s.rel)+".json")
	}
	prompt := specs.Prompt(s.rel, s.doc.Body, ids, s.whole)
	promptFile := filepath.Join(o.Dir, strings.ReplaceAll(s.rel, "/", "__")+".prompt.md")
	if err := os.WriteFile(promptFile, []byte(prompt), 0o600); err != nil {
		return specs.Job{}, fmt.Errorf("write the prompt of %s: %w", s.rel, err)
	}
	return specs.Job{Argv: s.agent.Argv(prompt, promptFile), Dir: p.Dir, Format: s.agent.Format(), Timeout: timeout,
		Tries: specs.DefaultTries, Judgements: max(o.Repeat, 1), Spec: js}, nil
}

// timeout is a spec's per-call limit: its frontmatter's, else
// testdex.toml's [specs] timeout, else --test-timeout; 0 is none (the
// run's timeout still bounds it).
func (r *runner) timeout(s *spec, o lang.RunOptions) (time.Duration, error) {
	for _, v := range []string{s.fm.Timeout, r.cfg.Timeout} {
		if v == "" {
			continue
		}
		return specs.ParseTimeout(v)
	}
	return o.TestTimeout, nil
}

// NewParser implements lang.Runner: the driver's lines, read by
// specs.Parser.
func (r *runner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	var job specs.Job
	for _, kv := range cmd.Env {
		if file, ok := strings.CutPrefix(kv, specs.JobEnv+"="); ok {
			data, err := os.ReadFile(file)
			if err == nil {
				err = json.Unmarshal(data, &job)
			}
			if err != nil {
				return brokenParser{emit, err}
			}
		}
	}
	if len(job.Argv) == 0 {
		return brokenParser{emit, errors.New("the command names no job")}
	}
	return specs.NewParser(job, emit)
}

// brokenParser reports a job that cannot be read as the batch's error.
type brokenParser struct {
	emit func(lang.RunEvent)
	err  error
}

func (b brokenParser) Write(p []byte) (int, error) { return len(p), nil }

func (b brokenParser) Close(int) error {
	b.emit(lang.RunEvent{Action: testdex.ActionError, Message: "read the spec job: " + b.err.Error()})
	return nil
}
