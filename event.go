package testdex

import "time"

// Action is what an Event reports, in the vocabulary of go test -json
// (cmd/internal/test2json), for every framework.
type Action string

// The actions.
const (
	ActionStart  Action = "start"  // a batch (project and framework) starts
	ActionRun    Action = "run"    // a test starts
	ActionPause  Action = "pause"  // a parallel test waits
	ActionCont   Action = "cont"   // it goes on
	ActionPass   Action = "pass"   // a test (or, without ID, a batch) passed
	ActionFail   Action = "fail"   // it failed or timed out
	ActionSkip   Action = "skip"   // it was skipped
	ActionOutput Action = "output" // it printed Output
	ActionBench  Action = "bench"  // a benchmark printed its result

	// ActionUnreported ends a listed test the runner never reported: it is
	// neither a pass, a failure nor a skip (the runner's report is the
	// truth of what ran). Message says why, where known ("the runner did
	// not report it", "the batch failed before it ran").
	ActionUnreported Action = "unreported"
	// ActionError is a batch's runner failing without per-test results (a
	// crash, a missing module, a build error, a missing toolchain): one
	// event with an empty ID, Message holding the runner's own words. It
	// fails the run; it is not a failure of each selected test.
	ActionError Action = "error"
	// ActionUnchanged ends a test `testdex run --changed` did not run:
	// it, and everything it depends on by the impact graph's evidence, is
	// unchanged since its last passing run. Not a pass (JUnit never counts
	// it as one): a result carried over, said so.
	ActionUnchanged Action = "unchanged"
	// ActionWarning is a warning of the run, Message in testdex's words
	// (a batch whose coverage recorded nothing, a framework that cannot
	// record it, a failure no longer listed); Batch and Framework name the
	// batch it is about, when it is about one. It is no test result and
	// fails nothing; the CLI prints it on stderr too.
	ActionWarning Action = "warning"
	// ActionFlaky ends a test that failed and then passed when rerun alone
	// (`testdex run --retries N`): its own outcome, neither a pass nor a
	// failure. Attempt is the attempt that passed (1 for the first rerun),
	// Message the first failure's. It fails the run only with
	// --fail-on-flaky.
	ActionFlaky Action = "flaky"
)

// Final reports whether a is a test's final result: pass, fail, skip,
// unreported, unchanged or flaky.
func (a Action) Final() bool {
	switch a {
	case ActionPass, ActionFail, ActionSkip, ActionUnreported, ActionUnchanged, ActionFlaky:
		return true
	}
	return false
}

// Event is one step of a test run. Every framework's output is turned into
// this one stream, and every output format (the terminal view, JSON Lines,
// JUnit XML) is a handler over it.
//
// ID is the test's ID exactly as `testdex list` prints it; events of a
// whole batch (its start, a build failure, the runner's own output, its
// final pass or fail) have an empty ID and carry Batch.
type Event struct {
	Time      time.Time `json:"time"`
	Action    Action    `json:"action"`
	ID        string    `json:"id,omitempty"`
	Framework Framework `json:"framework,omitempty"`
	// Batch names the batch: its project folder and framework ("svc go").
	Batch string `json:"batch,omitempty"`
	// Scope and Name are the test's scope and name in the runner's own
	// terms, as in the listing's records (Go: the import path and
	// TestFoo/sub; pytest: "" and the node ID); empty on batch events.
	Scope string `json:"scope,omitempty"`
	Name  string `json:"name,omitempty"`
	// Parent is the ID of the test's parent where it has one: its listed
	// parent, or for a test only the runner reported its nearest listed
	// ancestor (the same link as the records' Parent).
	Parent string `json:"parent,omitempty"`
	// Kind is the test's kind when known (benchmark, subtest, ...).
	Kind Kind `json:"kind,omitempty"`
	// Seen is ["runtime"] for a test the listing did not hold: the runner
	// reported it and testdex named it by the listing's rules.
	Seen []string `json:"seen,omitempty"`
	// Occurrence tells apart the results a runner reports under one ID in
	// one batch: 0 on a test's first run and result, n on its (n+1)th. A
	// runner reports an ID more than once when tests share a full name
	// (two its with one title, one title in several files a suite loads,
	// duplicate parametrize IDs) or run more than once (go test -count=N):
	// each is a result of its own, counted and kept apart, never merged.
	Occurrence int `json:"occurrence,omitempty"`
	// Attempt is which run of the test the event belongs to: 0 for the
	// first, 1 and on for the reruns of `testdex run --retries N`, which
	// rerun the failed tests alone; a later attempt's result replaces the
	// earlier one.
	Attempt int `json:"attempt,omitempty"`
	// Elapsed is the duration in seconds, on pass, fail and skip.
	Elapsed float64 `json:"elapsed,omitempty"`
	Output  string  `json:"output,omitempty"`
	// Message is a failure's or skip's reason where the framework gives one;
	// File and Line locate a failure (root-relative).
	Message string `json:"message,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	// Cause classifies an error event: CauseTimeout, CauseCancelled,
	// CauseToolchain (the runner is missing) or CauseRunner (it failed
	// without per-test results).
	Cause string `json:"cause,omitempty"`
	// Leaked are the processes a batch left running, which were killed; on
	// the batch's final event.
	Leaked []Process `json:"leaked,omitempty"`
	// Verdict is an agent's judgement of a markdown spec's scenario, on
	// its final event (pass, fail, or unchanged for a verdict reused).
	Verdict *Verdict `json:"verdict,omitempty"`
	// Inner is what a test reports of its own checks, where its runner
	// counts them (a skill-test module's {passed, failed, errors}, a
	// declared command's TAP points), on its final event; on a batch's
	// final event, the sum over its tests. Nil where nothing was counted.
	Inner *Inner `json:"inner,omitempty"`
}

// Inner counts the checks a test ran inside itself, as the test reports
// them: a test whose checks failed fails, whatever its exit code. Errors
// are the failed checks' messages, as reported.
type Inner struct {
	Passed  int      `json:"passed"`
	Failed  int      `json:"failed"`
	Skipped int      `json:"skipped,omitempty"`
	Errors  []string `json:"errors,omitempty"`
}

// Add adds o's counts and errors to i.
func (i *Inner) Add(o *Inner) {
	if o == nil {
		return
	}
	i.Passed += o.Passed
	i.Failed += o.Failed
	i.Skipped += o.Skipped
	i.Errors = append(i.Errors, o.Errors...)
}

// Verdict is what an agent CLI said of a markdown spec scenario, and what
// it cost. Status is the verdict's own: pass, fail, or error when there is
// no usable verdict (the agent crashed, timed out, gave no parsable answer
// or none for this scenario), which the event reports as a failure.
type Verdict struct {
	Status     string   `json:"status"`
	Observed   string   `json:"observed,omitempty"`
	Location   string   `json:"location,omitempty"`
	Resolution string   `json:"resolution,omitempty"`
	Read       []string `json:"read,omitempty"`     // files the agent read (reported, and seen in its events)
	Commands   []string `json:"commands,omitempty"` // commands it ran
	Agent      string   `json:"agent,omitempty"`    // the preset and its version: "claude-code (@anthropic-ai/claude-code@2.1.197)"
	Model      string   `json:"model,omitempty"`
	// Calls is the number of agent calls the judgement of the spec took
	// (its retries on an empty answer included), on each of its
	// scenarios' events; 0 for a verdict reused. CostUSD is what the
	// agent reported those calls cost, where it reports it.
	Calls   int     `json:"calls,omitempty"`
	CostUSD float64 `json:"cost_usd,omitempty"`
	// Reused is true for a stored verdict reported again because its
	// inputs are unchanged; Judged is when it was judged (RFC 3339).
	Reused bool   `json:"reused,omitempty"`
	Judged string `json:"judged,omitempty"`
	// Judgements, Agreement and Unstable are set by --repeat on the last
	// judgement: how many there were, the share that gave the most common
	// status, and whether that share is under 95%.
	Judgements int     `json:"judgements,omitempty"`
	Agreement  float64 `json:"agreement,omitempty"`
	Unstable   bool    `json:"unstable,omitempty"`
}

// The causes of an error event.
const (
	CauseTimeout   = "timeout"
	CauseCancelled = "cancelled"
	CauseToolchain = "toolchain"
	CauseRunner    = "runner"
)

// Process is a process a batch left behind.
type Process struct {
	PID     int    `json:"pid"`
	Command string `json:"command"`
}
