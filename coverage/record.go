package coverage

import (
	"cmp"
	"slices"
	"time"
)

// Record is one test's coverage, as a run recorded it.
type Record struct {
	// ID is the test's ID, as `testdex list` prints it.
	ID string
	// Recorded is when the run that recorded it started.
	Recorded time.Time
	// Outcome is the test's result in that run: "pass", "fail" or "skip"
	// ("" when the runner reported none).
	Outcome string
	// Granularity is the unit the runner attributed the lines to (the
	// runner's lang.Coverer.Granularity): "test", or "file" when the
	// tests of a file share their file's lines (no runner does now:
	// node:test's are per test too; older indexes may hold it).
	Granularity string
	// Process names the test process the test ran in, when tests ran
	// before it in that process (one process runs a package's or a
	// batch's tests): an opaque key, equal for the tests of one process
	// of one recording (Recorded), "" when the test ran alone (a process
	// per test, or an index written before it was kept). Seq is its start
	// order there, from 0: what a test would run alone but an earlier test
	// of its process ran for it (a cache, a sync.Once) is in the earlier
	// test's record, and selection gives it to the later one too
	// (changes.SelectCovered). Seq is Unordered when the test ran in
	// several processes (its order is not one number).
	Process string
	Seq     int
	// Files are what it executed, one entry per file.
	Files []File
}

// Unordered is the Seq of a test whose records came from several
// processes: selection cannot tell what ran before it, and gives its
// changes to the static evidence.
const Unordered = -1

// File is what one test executed in one file.
type File struct {
	// Path is root-relative and slash-separated.
	Path string
	// Hash is the xxh3 of the file's content when it was recorded.
	Hash uint64
	// Lines are the executed lines, sorted and not overlapping.
	Lines []Span
	// Funcs are the file's functions then, with canonical hashes; nil
	// when the language has no Spanner or the file did not parse.
	Funcs []Func
	// Content is the file's text then, kept once per version beside its
	// functions (only with Funcs), so that `testdex affected` can tell a
	// change inside functions from one outside them; nil keeps none.
	Content []byte
}

// Span is a range of lines, 1-based and inclusive.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Func is one function of a file: its qualified name, its lines and the
// canonical hash of its tokens (comments and formatting dropped).
type Func struct {
	Name  string `json:"name"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Hash  uint64 `json:"hash"`
}

// Merge sorts spans and merges the overlapping and adjacent ones.
func Merge(spans []Span) []Span {
	if len(spans) < 2 {
		return spans
	}
	s := slices.Clone(spans)
	slices.SortFunc(s, func(a, b Span) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End)) })
	out := s[:1]
	for _, sp := range s[1:] {
		last := &out[len(out)-1]
		if sp.Start <= last.End+1 {
			last.End = max(last.End, sp.End)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// intersect returns the parts of spans (sorted) that lie in [lo, hi].
func intersect(spans []Span, lo, hi int) []Span {
	var out []Span
	for _, s := range spans {
		if s.End < lo || s.Start > hi {
			continue
		}
		out = append(out, Span{max(s.Start, lo), min(s.End, hi)})
	}
	return out
}
