package specs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// JobSpec is the parser's part of a Job: the spec, its scenarios, and
// where the verdicts go.
type JobSpec struct {
	Root  string `json:"root"`  // the project (the listed root), absolute
	File  string `json:"file"`  // the spec, root-relative
	Scope string `json:"scope"` // its group, the records' Scope
	// Whole is a spec without scenarios: one test, the file itself.
	Whole     bool          `json:"whole,omitempty"`
	Scenarios []JobScenario `json:"scenarios"`
	Agent     string        `json:"agent"` // the identity in the key: "claude-code (@anthropic-ai/claude-code@2.1.197)"
	Model     string        `json:"model,omitempty"`
	// PathFiles are the files the frontmatter's paths names, hashed
	// before the call.
	PathFiles map[string]string `json:"path_files,omitempty"`
	// Store is the verdict store's file, "" to keep none (no cache
	// folder, or a spec whose paths field is broken: its inputs are
	// unknown, so it is judged every time).
	Store string `json:"store,omitempty"`
	// Debug is the file the raw answers are written to (--output's
	// debug/), "" for none.
	Debug string `json:"debug,omitempty"`
}

// JobScenario is one scenario to judge.
type JobScenario struct {
	ID   string `json:"id"`   // as the agent answers it
	Name string `json:"name"` // the record's Name
	Line int    `json:"line"`
	Text string `json:"text"` // TextHash of its context
}

// Parser reads the driver's lines and reports each judgement of each
// scenario as lang.RunEvents, as it arrives. On Close it reports what
// the driver never delivered, keeps the verdicts (pass or fail, every
// judgement agreeing at 95% or more) in the store, and writes the raw
// answers to the debug file.
type Parser struct {
	job     Job
	emit    func(lang.RunEvent)
	partial []byte
	got     []Judgement
	status  map[string][]string // scenario ID -> its status per judgement
	answers map[string]Answer   // scenario ID -> its last judgement's answer
	read    map[string][]string // scenario ID -> files read, over the judgements
	start   time.Time
}

// NewParser returns the parser of a job's driver.
func NewParser(job Job, emit func(lang.RunEvent)) *Parser {
	return &Parser{job: job, emit: emit, status: map[string][]string{}, answers: map[string]Answer{}, read: map[string][]string{}, start: time.Now()}
}

// Write implements lang.Parser.
func (p *Parser) Write(b []byte) (int, error) {
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		var j Judgement
		if err := json.Unmarshal(p.partial[:i], &j); err == nil {
			p.judged(j)
		}
		p.partial = p.partial[i+1:]
	}
}

// Close implements lang.Parser: a judgement the driver did not deliver
// is an error of every scenario.
func (p *Parser) Close(exit int) error {
	for n := len(p.got); n < max(p.job.Judgements, 1); n++ {
		msg := fmt.Sprintf("no verdict: the specs driver exited %d before the agent answered (its output says why)", exit)
		if exit == -1 {
			msg = "no verdict: the agent was stopped (the run's timeout or a cancellation)"
		}
		p.report(n, nil, nil, msg)
	}
	p.keep()
	return p.writeDebug()
}

// judged reports one judgement of every scenario.
func (p *Parser) judged(j Judgement) {
	p.got = append(p.got, j)
	answers, failure := p.answersOf(j)
	p.report(j.N, &j, answers, failure)
}

// answersOf reads a judgement's last attempt: the answers by scenario ID,
// or why there are none.
func (p *Parser) answersOf(j Judgement) (map[string]Answer, string) {
	if len(j.Attempts) == 0 {
		return nil, "no verdict: the agent was not called"
	}
	a := j.Attempts[len(j.Attempts)-1]
	out := a.Output(p.job.Format)
	switch {
	case a.Stopped:
		return nil, "no verdict: the agent was stopped (the run's timeout or a cancellation)"
	case a.Start != "":
		return nil, "the agent could not be started: " + a.Start
	case a.TimedOut:
		return nil, fmt.Sprintf("the agent timed out after %v and was stopped (frontmatter timeout, [specs] timeout or --test-timeout)", p.job.Timeout)
	case out.Error != "":
		return nil, fmt.Sprintf("the agent failed (exit %d): %s", a.Exit, oneLine(out.Error))
	case out.Empty():
		return nil, fmt.Sprintf("no answer: the agent answered nothing %d times (it exited %d)%s", len(j.Attempts), a.Exit, stderrTail(a.Stderr))
	}
	list, err := ParseAnswers(out.Text)
	if err != nil {
		return nil, err.Error()
	}
	byID := map[string]Answer{}
	for i := range list {
		list[i].Read = append(list[i].Read, out.Read...) // what its events show it read counts too
		list[i].Commands = append(list[i].Commands, out.Commands...)
		if _, dup := byID[list[i].ID]; !dup {
			byID[list[i].ID] = list[i]
		}
	}
	if p.job.Spec.Whole && len(list) == 1 { // the file is the one scenario, whatever ID the agent gave it
		byID = map[string]Answer{p.job.Spec.Scenarios[0].ID: list[0]}
	}
	return byID, ""
}

// report emits judgement n of every scenario: its answer, or failure.
func (p *Parser) report(n int, j *Judgement, answers map[string]Answer, failure string) {
	calls, cost, elapsed := 0, 0.0, 0.0
	if j != nil {
		calls = len(j.Attempts)
		for _, a := range j.Attempts {
			cost += a.Output(p.job.Format).CostUSD
			elapsed += a.Elapsed
		}
	}
	last := n == max(p.job.Judgements, 1)-1
	for _, s := range p.job.Spec.Scenarios {
		a, ok := answers[s.ID]
		switch {
		case failure != "":
			a = Answer{ID: s.ID, Status: StatusError, Observed: failure}
		case !ok:
			a = Answer{ID: s.ID, Status: StatusError, Observed: "no verdict: the agent did not answer this scenario"}
		}
		p.status[s.ID] = append(p.status[s.ID], a.Status)
		p.answers[s.ID] = a
		p.read[s.ID] = append(p.read[s.ID], a.Read...)
		v := p.verdict(a, calls, cost)
		if last && len(p.status[s.ID]) > 1 {
			v.Judgements = len(p.status[s.ID])
			v.Agreement, _ = Agreement(p.status[s.ID])
			v.Unstable = v.Agreement < StableAgreement
		}
		p.emitScenario(s, a, v, elapsed)
	}
}

// verdict is the event's Verdict for an answer.
func (p *Parser) verdict(a Answer, calls int, cost float64) *testdex.Verdict {
	return &testdex.Verdict{Status: a.Status, Observed: a.Observed, Location: a.Location, Resolution: a.Resolution,
		Read: a.Read, Commands: a.Commands, Agent: p.job.Spec.Agent, Model: p.job.Spec.Model, Calls: calls, CostUSD: cost,
		Judged: time.Now().UTC().Format(time.RFC3339)}
}

// emitScenario emits a scenario's run, a line saying who judged it and
// at what cost, and its result.
func (p *Parser) emitScenario(s JobScenario, a Answer, v *testdex.Verdict, elapsed float64) {
	sc := p.job.Spec.Scope
	p.emit(lang.RunEvent{Action: testdex.ActionRun, Scope: sc, Name: s.Name})
	if v.Calls > 0 {
		p.emit(lang.RunEvent{Action: testdex.ActionOutput, Scope: sc, Name: s.Name, Output: describe(v)})
	}
	if v.Unstable {
		p.emit(lang.RunEvent{Action: testdex.ActionOutput, Scope: sc, Name: s.Name, Output: unstableLine(p.status[s.ID])})
	}
	e := lang.RunEvent{Action: testdex.ActionPass, Scope: sc, Name: s.Name, Elapsed: elapsed, Verdict: v}
	if a.Status != StatusPass {
		e.Action, e.Message = testdex.ActionFail, Message(v)
		e.File, e.Line = p.job.Spec.File, s.Line
		if rel, line, ok := locate(p.job.Spec.Root, a.Location); ok {
			e.File, e.Line = rel, line
		}
	}
	p.emit(e)
}

// Message is a failed scenario's message: what the agent observed and
// its resolution, or for an error why there is no verdict.
func Message(v *testdex.Verdict) string {
	if v.Status == StatusError {
		return "error: " + v.Observed
	}
	msg := firstNonEmpty(v.Observed, "the agent gave no details")
	if strings.TrimSpace(v.Resolution) != "" {
		msg += "\nresolution: " + v.Resolution
	}
	return msg
}

// describe is the output line of a judgement: the agent, the calls, the
// files read and the commands run.
func describe(v *testdex.Verdict) string {
	var b strings.Builder
	b.WriteString("judged by " + v.Agent)
	if v.Model != "" {
		b.WriteString(" (model " + v.Model + ")")
	}
	fmt.Fprintf(&b, ": %d %s", v.Calls, plural(v.Calls, "call", "calls"))
	if v.CostUSD > 0 {
		fmt.Fprintf(&b, ", $%.4f", v.CostUSD)
	}
	if len(v.Read) > 0 {
		b.WriteString("; read " + strings.Join(v.Read, ", "))
	}
	if len(v.Commands) > 0 {
		b.WriteString("; ran " + strings.Join(v.Commands, "; "))
	}
	return b.String() + "\n"
}

// locate reads an agent's location ("src/a.go:12") as a root-relative
// file and line; ok is false for anything else.
func locate(root, loc string) (string, int, bool) {
	rel, ok := RootRel(root, loc)
	if !ok || rel == "." {
		return "", 0, false
	}
	line := 0
	if i := strings.LastIndexByte(loc, ':'); i > 0 {
		line, _ = strconv.Atoi(strings.TrimSpace(loc[i+1:]))
	}
	return rel, line, true
}

// keep stores each scenario's verdict when every judgement gave a pass
// or a fail and they agree (StableAgreement), and forgets it otherwise.
func (p *Parser) keep() {
	if p.job.Spec.Store == "" {
		return
	}
	set := map[string]*Stored{}
	root := p.job.Spec.Root
	for _, s := range p.job.Spec.Scenarios {
		id := testdex.MakeID(p.job.Spec.File, s.ID)
		if p.job.Spec.Whole {
			id = p.job.Spec.File
		}
		agree, status := Agreement(p.status[s.ID])
		a := p.answers[s.ID]
		if agree < StableAgreement || (status != StatusPass && status != StatusFail) || a.Status != status {
			set[id] = nil
			continue
		}
		key := Key{Text: s.Text, Agent: p.job.Spec.Agent, Model: p.job.Spec.Model, Files: map[string]string{}}
		for f, h := range p.job.Spec.PathFiles {
			key.Files[f] = h
		}
		var read []string
		for _, f := range p.read[s.ID] {
			if rel, ok := RootRel(root, f); ok && rel != "." {
				if _, seen := key.Files[rel]; !seen {
					key.Files[rel] = Hash(root, rel)
					read = append(read, rel)
				}
			}
		}
		set[id] = &Stored{Key: key, Status: status, Observed: a.Observed, Location: a.Location, Resolution: a.Resolution,
			Read: read, Commands: a.Commands, Judged: time.Now().UTC(), Agreement: agree, Judgements: len(p.status[s.ID])}
	}
	if err := UpdateStore(p.job.Spec.Store, set); err != nil {
		p.emit(lang.RunEvent{Action: testdex.ActionOutput, Output: "testdex: the spec verdicts were not kept: " + err.Error() + "\n"})
	}
}

// writeDebug writes the raw answers to the debug file, as semtest's
// --debug does: the spec, the agent, and every attempt's output.
func (p *Parser) writeDebug() error {
	path := p.job.Spec.Debug
	if path == "" {
		return nil
	}
	data, err := json.MarshalIndent(struct {
		File       string      `json:"file"`
		Agent      string      `json:"agent"`
		Model      string      `json:"model,omitempty"`
		Argv       []string    `json:"argv"`
		Judgements []Judgement `json:"judgements"`
	}{p.job.Spec.File, p.job.Spec.Agent, p.job.Spec.Model, p.job.Argv, p.got}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write the raw agent output: %w", err)
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// stderrTail is the end of an agent's stderr for a message, "" when empty.
func stderrTail(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if len(s) > 400 {
		s = "..." + s[len(s)-400:]
	}
	return ": " + oneLine(s)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
