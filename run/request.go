package run

import (
	"errors"
	"time"
)

// The exit codes of a run, for the CLI and the MCP server alike (seed 003's
// 0, 1, 2 and seed 004's 124 for a timeout, as timeout(1) uses it).
const (
	ExitPassed  = 0   // every test that ran passed or was skipped
	ExitFailed  = 1   // a test failed, or a batch failed without results
	ExitNoMatch = 2   // a named ID matched no test the runner reported, or no test ran at all
	ExitTimeout = 124 // the run hit its timeout
)

// Request is one run as `testdex run` and the MCP run_tests tool ask for
// it: the same selection rules, plan, failure store and exit code.
type Request struct {
	// IDs and Paths select as index.Resolve does; Paths are root-relative.
	IDs   []string
	Paths []string
	// Failed reruns the failures of the last run of the root (IDs and
	// Paths are then ignored).
	Failed bool
	// Changed runs only the test files under Paths whose fingerprint (the
	// files they depend on, by changes.Graph) differs from the one of
	// their last passing run; the others end "unchanged". Of such a file,
	// the tests whose recorded coverage vouches for them
	// (changes.Graph.Unaffected, against the baseline the last coverage
	// recording kept) end "unchanged" too, and the others run by ID. IDs
	// must be empty. The fingerprints of the files that pass are saved.
	Changed bool
	// Chosen says IDs are testdex's own choice (the tests a change
	// affects, a watch cycle's), not tests the user named. A chosen, a
	// failed (Failed) or a changed (Changed) selection runs no benchmark
	// unless Options.Bench asks, as a path never does: a benchmark runs
	// when named by ID or with --bench.
	Chosen bool
	// Retries reruns the failed tests, by ID and without the rest, in new
	// processes, up to this many times while some still fail: a test that
	// passes on a rerun ends flaky (testdex.ActionFlaky), one that fails
	// every time stays failed. 0 reruns nothing.
	Retries int
	// RepeatBudget bounds the repeats of Options.Repeat for the tests
	// testdex runs again itself (package workspace): no repeat starts
	// that the time left cannot hold, and the shorter tests repeat
	// first. 0 bounds nothing.
	RepeatBudget time.Duration
	// CacheDir keeps the failures per root; "" keeps none.
	CacheDir string
	// History is the file the run's results are appended to (package
	// history); "" is the root's history under CacheDir (none when that
	// is "" too). Profile labels the run's environment in it.
	History string
	Profile string
	// Shards is the N of the split this run is shard K/N of (0 for a run
	// of the whole selection), kept with the run in the history.
	Shards  int
	Options Options
	// Warn receives warnings (a failure no longer listed, a batch whose
	// coverage recorded nothing); nil drops them. Each is also an
	// ActionWarning event for the handler.
	Warn func(string)
}

// ErrOnlyBenchmarks is returned when the failures to rerun (Failed) are
// benchmarks alone, which run only with Options.Bench: the rerun would
// run nothing, which must not read as a pass (--failed --bench reruns
// them). A chosen or changed selection of benchmarks alone runs nothing
// and passes, with a warning, as go test ./... runs no benchmark.
var ErrOnlyBenchmarks = errors.New("nothing to run")

// ErrNoFailures is returned for Failed when the last run had none.
var ErrNoFailures = errors.New("no failures recorded")

// ExitCode is the exit status of a finished run.
func ExitCode(sum *Summary) int {
	switch {
	case sum.TimedOut:
		return ExitTimeout
	case !sum.OK():
		return ExitFailed
	case len(sum.Unmatched)+len(sum.Lost) > 0, sum.NothingRan():
		return ExitNoMatch
	}
	return ExitPassed
}
