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
)

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
	// Elapsed is the duration in seconds, on pass, fail and skip.
	Elapsed float64 `json:"elapsed,omitempty"`
	Output  string  `json:"output,omitempty"`
	// Message is a failure's or skip's reason where the framework gives one;
	// File and Line locate a failure (root-relative).
	Message string `json:"message,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
}
