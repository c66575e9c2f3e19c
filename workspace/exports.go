package workspace

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/source"
	"github.com/testdex/testdex/run"
)

// The names below let a front end speak the engine's vocabulary through
// this package alone (the MCP server imports no core package but this
// one): each is the core's own type or function, not a copy.

// Listing: what List returns and how it is narrowed.
type (
	// Options are the listing's options (index.Options).
	Options = index.Options
	// Index is a root's listing (index.Index).
	Index = index.Index
	// Filter narrows a listing (index.Filter).
	Filter = index.Filter
	// NoMatchError is a selection that named nothing listed
	// (index.NoMatchError).
	NoMatchError = index.NoMatchError
	// Source is a test's text (source.Source).
	Source = source.Source
)

// Under keeps the tests under the root-relative paths (index.Under).
func Under(tests []testdex.Test, paths []string) []testdex.Test { return index.Under(tests, paths) }

// SourceOf returns a listed test's text: a spec's scenario, a code
// test's function (source.Of).
func SourceOf(ix *Index, t testdex.Test) (*Source, error) { return source.Of(ix, t) }

// Running: what Run takes and returns.
type (
	// Request is one run (run.Request).
	Request = run.Request
	// RunOptions configure a run (run.Options).
	RunOptions = run.Options
	// Summary is a run's outcome (run.Summary).
	Summary = run.Summary
	// Failure is one failed test of a run (run.Failure).
	Failure = run.Failure
	// Handler receives a run's events (run.Handler).
	Handler = run.Handler
)

// The whole-run timeout's default and largest accepted value.
const (
	DefaultTimeout = run.DefaultTimeout
	MaxTimeout     = run.MaxTimeout
)

// MultiHandler delivers each event to every handler in turn
// (run.MultiHandler).
func MultiHandler(hs ...Handler) Handler { return run.MultiHandler(hs...) }

// ExitCode is a run's exit code (run.ExitCode).
func ExitCode(sum *Summary) int { return run.ExitCode(sum) }

// Changes: what Affected answers.
type (
	// Change is one changed file (changes.Change).
	Change = changes.Change
	// ChangeSet is a change (changes.Set).
	ChangeSet = changes.Set
	// Affected is one affected test file (changes.Affected).
	Affected = changes.Affected
)

// AffectedSummary is the one-line count of a change and the tests it
// affects (changes.Summary).
func AffectedSummary(set ChangeSet, affected []Affected) string {
	return changes.Summary(set, affected)
}

// Coverage: what Covering answers.
type (
	// CoveringAnswer is Covering's answer (coverage.Answer).
	CoveringAnswer = coverage.Answer
	// Hit is a test that executed the lines (coverage.Hit).
	Hit = coverage.Hit
	// Stale is a recording that cannot be matched to the lines
	// (coverage.Stale).
	Stale = coverage.Stale
	// Gap is a batch whose coverage run recorded nothing (coverage.Gap).
	Gap = coverage.Gap
	// GapError says why nothing was recorded (coverage.GapError).
	GapError = coverage.GapError
	// Span is a run of lines (coverage.Span).
	Span = coverage.Span
)

// Covering's errors when there is nothing to answer from.
var (
	ErrNoCoverage      = coverage.ErrNoData
	ErrCoverageDamaged = coverage.ErrDamaged
)

// Spans writes lines as "3-5,9" (coverage.String).
func Spans(spans []Span) string { return coverage.String(spans) }
