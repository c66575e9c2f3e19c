package lang

// Per-test coverage (`testdex run --coverage`, `testdex covering`): the
// contract between a framework's Runner and the core's coverage index
// (package coverage). A Runner records what each test executed through
// its ecosystem's own machinery (Go's -coverprofile, coverage.py's dynamic
// contexts, V8's precise coverage, JaCoCo) and reports it as RunEvents of
// action ActionCovered, in the framework's own terms (Scope and Name, as
// for the other events): the core maps them to test IDs with the same
// rules, so a test's coverage is filed under the ID `testdex list` prints.

import (
	"cmp"
	"slices"

	"github.com/testdex/testdex"
)

// ActionCovered is the internal action of a RunEvent that carries one
// test's coverage (RunEvent.Covered). The core stores it and never
// forwards it as a user-facing event. A test may get several (one per
// process or per package it ran in): they add up. An event with no files
// records that the test executed nothing measurable; a test that gets no
// event (its process died before writing its data) keeps what the index
// held for it. Files outside the root are dropped.
//
// An ActionCovered event without a Name is a note: Message says why the
// command's coverage is missing or partial, in words a person can act on
// ("pytest-xdist runs the tests in worker processes (run with -n 0 to
// record them)"). The core gives it as the reason when the batch records
// nothing (and warns with it when it records part), and keeps it for
// `testdex covering`. A runner says what it knows this way; a batch that
// records nothing without a note is reported all the same.
const ActionCovered testdex.Action = "covered"

// Unordered is a RunEvent's Seq when the test started more than once in
// its process: no one number says what ran before it (coverage.Unordered).
const Unordered = -1

// CoveredFile is what one test executed in one file.
type CoveredFile struct {
	// File is the absolute path of the source file.
	File string
	// Lines are the executed lines, 1-based, inclusive, sorted and not
	// overlapping (MergeSpans makes them so).
	Lines []Span
}

// Span is a range of lines, 1-based and inclusive.
type Span struct{ Start, End int }

// A Coverer is a Runner that can record per-test coverage. When
// RunOptions.Coverage is set, its RunCommands set the commands up to
// record, and its Parser emits an ActionCovered event per test it can
// attribute lines to (a test it cannot attribute to, as a whole file of
// tests run in one process, gets the lines of its smallest unit that can
// be: Granularity says which).
type Coverer interface {
	Runner
	// CoverageCheck reports, before anything runs, why the project cannot
	// record coverage (the tool is not installed where the project would
	// use it: "coverage.py is not installed in .venv; pip install
	// coverage"), wrapping ErrNotInstalled; nil when it can.
	CoverageCheck(p *Project, o RunOptions) error
	// Granularity is the unit coverage is attributed to: "test" (each
	// test, subtests with their top-level test), "file" (a test file's
	// tests share their file's lines), "class".
	Granularity() string
}

// A Spanner cuts a source file into its functions, with canonical hashes
// (formatting and comments dropped, as the impact graph's declaration
// hashes): the coverage index keeps them beside the lines a test executed,
// so that a file edited since still answers for its functions whose hash
// did not change, and a test is affected only when a function it executed
// changed. One per language; Detectors set Project.Spanner.
type Spanner interface {
	// Spans returns the functions of the file (methods, nested functions
	// and closures as their own spans, where the language has them), in
	// source order; file is absolute.
	Spans(file string, src []byte) ([]FuncSpan, error)
}

// A StatementDiffer is a Spanner that can narrow a changed function to
// the statements that changed, where that is sound: a test that executed
// the function but no line of those statements runs as it ran. Each
// language's implementation says why its rule is sound.
type StatementDiffer interface {
	// ChangedStatements compares function old of oldSrc with function cur
	// of curSrc (the same function, its hash changed) and returns the
	// lines, in oldSrc, of the statements that differ; ok is false when
	// it cannot tell soundly (the whole function counts as changed).
	ChangedStatements(file string, oldSrc []byte, old FuncSpan, curSrc []byte, cur FuncSpan) (spans []Span, ok bool)
}

// FuncSpan is one function of a source file.
type FuncSpan struct {
	// Name is qualified as the language names it ("T.M", "Class.method",
	// "outer.<locals>.inner").
	Name       string
	Start, End int    // lines, 1-based, inclusive
	Hash       uint64 // canonical: tokens without positions and comments
}

// Bodies is a language's rule for where its functions' bodies lie, which
// tells a change inside a function's body (the coverage index decides it
// by the functions a test executed) from one outside (package changes'
// skeleton: a new or renamed function, a changed default or decorator,
// which the static evidence decides). A language sets it (Language.Bodies)
// once the rule has been checked against its headers.
type Bodies struct {
	// Extensions are the file name extensions the rule holds for, as
	// path.Ext gives them (".go", ".py").
	Extensions []string
	// Body returns the first and last lines of f's body among the file's
	// lines (lo > hi when it has none apart from its header); nil means
	// the lines between f's first and last, which may share a line with
	// code outside it.
	Body func(lines []string, f FuncSpan) (lo, hi int)
	// Prepare, when set, reads one version of a file (its name and text)
	// and returns the rule for its functions, from a parse of it where
	// the lines alone cannot tell (where a JavaScript parameter list
	// ends); nil when the version does not parse (Body then decides).
	Prepare func(file string, src []byte) func(lines []string, f FuncSpan) (lo, hi int)
}

// For returns the rule for one version of a file: Prepare's, when it
// reads the version, else BodyOf.
func (b *Bodies) For(file string, src []byte) func(lines []string, f FuncSpan) (lo, hi int) {
	if b.Prepare != nil {
		if rule := b.Prepare(file, src); rule != nil {
			return rule
		}
	}
	return b.BodyOf
}

// BodyOf returns the first and last lines of f's body among the file's
// lines, by Body or the default rule.
func (b *Bodies) BodyOf(lines []string, f FuncSpan) (lo, hi int) {
	if b.Body != nil {
		return b.Body(lines, f)
	}
	return f.Start + 1, f.End - 1
}

// MergeSorted merges two lists of sorted, merged spans into one, as
// MergeSpans would of their concatenation, without sorting. It
// returns a new slice when both hold spans.
func MergeSorted(a, b []Span) []Span {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]Span, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var next Span
		if len(b) == 0 || (len(a) > 0 && a[0].Start <= b[0].Start) {
			next, a = a[0], a[1:]
		} else {
			next, b = b[0], b[1:]
		}
		if n := len(out); n > 0 && next.Start <= out[n-1].End+1 {
			out[n-1].End = max(out[n-1].End, next.End)
			continue
		}
		out = append(out, next)
	}
	return out
}

// MergeSpans sorts spans and merges the overlapping and adjacent ones.
func MergeSpans(spans []Span) []Span {
	if len(spans) < 2 {
		return spans
	}
	s := append([]Span(nil), spans...)
	slices.SortFunc(s, func(a, b Span) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End)) })
	out := s[:1]
	for _, sp := range s[1:] {
		last := &out[len(out)-1]
		if sp.Start <= last.End+1 {
			if sp.End > last.End {
				last.End = sp.End
			}
			continue
		}
		out = append(out, sp)
	}
	return out
}
