package specs

import (
	"fmt"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// ReusedEvent is the result of a scenario whose stored verdict is
// reported again, with no agent call, because its key is unchanged: a
// pass is "unchanged" (a result carried over, never counted as a pass
// run now), a failure stays a failure (never a false green), with the
// stored details. file and line locate the scenario in its spec.
func ReusedEvent(scope, name, root, file string, line int, s Stored) lang.RunEvent {
	v := &testdex.Verdict{Status: s.Status, Observed: s.Observed, Location: s.Location, Resolution: s.Resolution,
		Read: s.Read, Commands: s.Commands, Agent: s.Agent, Model: s.Model, Reused: true, Judged: s.Judged.Format(time.RFC3339)}
	when := fmt.Sprintf("judged %s by %s", s.Judged.Local().Format("2006-01-02 15:04"), s.Agent)
	if s.Model != "" {
		when += " (model " + s.Model + ")"
	}
	inputs := fmt.Sprintf("the scenario's text, the agent, the model and %d %s are unchanged", len(s.Files), plural(len(s.Files), "file", "files"))
	e := lang.RunEvent{Scope: scope, Name: name, Verdict: v}
	if s.Status == StatusPass {
		e.Action = testdex.ActionUnchanged
		e.Message = fmt.Sprintf("verdict reused: passed when %s; %s", when, inputs)
		return e
	}
	e.Action, e.File, e.Line = testdex.ActionFail, file, line
	if rel, l, ok := locate(root, s.Location); ok {
		e.File, e.Line = rel, l
	}
	e.Message = Message(v) + fmt.Sprintf("\n(verdict reused: failed when %s; %s; --no-cache judges it again)", when, inputs)
	return e
}
