// Package history is the per-test history of a root: for each test ID,
// each attempt's outcome and duration, with the run it belongs to (its
// ID, time, commit and environment profile), and per unit of a run (a
// batch: one project and framework) what starting it cost. Every
// `testdex run` appends to it; `testdex history import` adds results
// other tools wrote (JUnit XML, go test -json); histories of several
// machines merge.
//
//	testdex run ──► Recorder (events) ──┐
//	                                     ├─► Append ─► FILE (lock, merge, atomic rename)
//	history import ─► Parse ─► Map ─────┘                 │
//	                                                       ▼
//	          show, sharding ◄── Durations, Setup ◄── Load / Merge
//
// The file is one or more versioned JSON documents (Version; see
// docs/ci.md), read as their Merge: runs, attempts and units, each kept
// once by its key and written in a canonical order, so that Merge is
// idempotent and commutative, and a file merged from the same inputs is
// the same bytes.
// It is bounded: the attempts of the last KeptRuns runs of each test and
// unit, at most MaxAttempts attempts in all (the oldest runs go first).
//
// Append adds a run as one more document at the end of the file under a
// lock file beside it (several runs of one root at once lose nothing),
// and every few documents rewrites the file whole, merged and bounded:
// a run's cost is its own records, not the history's size.
package history
