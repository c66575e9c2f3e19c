package history

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"
)

// Version is the version of the history document this testdex writes and
// reads. A change that an older reader would misread increments it; a
// reader refuses a newer version rather than drop what it cannot read.
// Version 2: a file may hold several documents one after another (each
// run appends its own; see Append), read as their Merge; version 1 files
// are single documents and read as before.
const Version = 2

// The bounds of a history: the runs kept per test and per unit, and the
// attempts kept in all.
const (
	KeptRuns    = 50
	MaxAttempts = 200_000
)

// maxAttempts is MaxAttempts, lowered by the tests.
var maxAttempts = MaxAttempts

// The outcomes of an attempt.
const (
	Pass = "pass"
	Fail = "fail"
	Skip = "skip"
)

// History is a root's record of past runs. The zero value is empty.
type History struct {
	Version  int       `json:"version"`
	Runs     []Run     `json:"runs"`
	Attempts []Attempt `json:"attempts"`
	Units    []Unit    `json:"units,omitempty"`

	// Dropped says why Read left out the file's last document, "" when
	// it did not: a document cut short after at least one whole one (a
	// run stopped while appending, a full disk). Append rewrites the file
	// without it and says so.
	Dropped string `json:"-"`
	// docs is how many documents Read found (Append compacts a file of
	// many).
	docs int
}

// Run is one run: a `testdex run`, or a report imported. Its attempts and
// units name it by ID.
type Run struct {
	// ID is unique per run: the start time and a random suffix for a
	// `testdex run`, "import-" and a hash of the file's content for an
	// import (importing a file twice adds nothing).
	ID   string    `json:"id"`
	Time time.Time `json:"time"`
	// Commit is the commit the tests ran at ("" outside git).
	Commit  string  `json:"commit,omitempty"`
	Profile Profile `json:"profile"`
	// Source is what made the run: "run", or "junit FILE" and "go-json
	// FILE" for an import.
	Source string `json:"source,omitempty"`
	// Coverage marks a run that recorded coverage (`run --coverage`): its
	// batches' wall times are no plain run's.
	Coverage bool `json:"coverage,omitempty"`
	// Shards is the number of shards of the split this run was one of
	// (`run --shard K/N`), 0 for a run of the whole selection: a test's
	// time depends on what shares its process (a gc-heavy test takes
	// longer beside the whole suite's objects), so a split prefers the
	// durations of runs split as it is (History.DurationsOf).
	Shards int `json:"shards,omitempty"`
}

// Profile is the environment a run ran in: the user's label (--profile,
// TESTDEX_PROFILE) and the machine's system, architecture and cores.
type Profile struct {
	Label string `json:"label,omitempty"`
	OS    string `json:"os"`
	Arch  string `json:"arch"`
	Cores int    `json:"cores"`
}

// Local is this machine's profile under label.
func Local(label string) Profile {
	return Profile{Label: label, OS: runtime.GOOS, Arch: runtime.GOARCH, Cores: runtime.NumCPU()}
}

// attemptKey names an attempt: its run, test, occurrence and attempt
// number.
type attemptKey struct {
	run, id string
	occ, n  int
}

func (a Attempt) key() attemptKey { return attemptKey{a.Run, a.ID, a.Occurrence, a.Attempt} }

// Attempt is one result of one test in one run.
type Attempt struct {
	Run string `json:"run"` // the Run's ID
	ID  string `json:"id"`  // the test's ID, as `testdex list` prints it
	// Occurrence tells apart the tests a runner reports under one ID in
	// one attempt (testdex.Event.Occurrence: two its with one title, go
	// test -count=N): each is a result of its own.
	Occurrence int `json:"occurrence,omitempty"`
	// Attempt tells apart the runs of one test in one run: 0 for its
	// first, n for its nth rerun (testdex.Event.Attempt, `run --retries`;
	// a rerun a report records). A retry on the same commit is a later
	// attempt of one run.
	Attempt int    `json:"attempt,omitempty"`
	Outcome string `json:"outcome"` // Pass, Fail or Skip
	// Duration is in seconds; Untimed says the report gave none (a rerun
	// Surefire records without its time), so it counts in no mean.
	Duration float64 `json:"duration"`
	Untimed  bool    `json:"untimed,omitempty"`
}

// Unit is what one unit of a run cost besides its tests: a batch (one
// project and framework, "DIR FRAMEWORK") started, built and torn down.
type Unit struct {
	Run  string `json:"run"`
	Unit string `json:"unit"` // the batch's name
	// Wall is the batch's wall time, Tests the sum of its top-level
	// tests' durations, Count their number; Setup is Wall less Tests, at
	// least 0 (a runner that runs tests in parallel makes it a lower
	// bound).
	Wall  float64 `json:"wall"`
	Tests float64 `json:"tests"`
	Count int     `json:"count"`
	Setup float64 `json:"setup"`
	// Files is the number of files the top-level tests belong to (0 in
	// records written before it was kept): a setup that grows with the
	// files a runner collects (pytest's) is priced per file from it, so
	// that a shard's record, which ran a few files, and a full run's, which
	// ran them all, predict alike.
	Files int `json:"files,omitempty"`
	// Folders is the number of folders those files are in (0 likewise):
	// where a runner builds and starts each folder (go test's packages),
	// a folder's share of the setup is priced from it.
	Folders int `json:"folders,omitempty"`
}

// Read reads a history: one document, or several one after another (a
// file runs appended to), read as their Merge. An empty input is an empty
// history. A last document cut short after whole ones is left out and
// said in Dropped; anything else that is not a history is an error.
func Read(r io.Reader) (*History, error) {
	dec := json.NewDecoder(r)
	var docs []*History
	for {
		var h History
		err := dec.Decode(&h)
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(docs) > 0 && (err == io.ErrUnexpectedEOF || isSyntax(err)) {
				out := Merge(docs...)
				out.docs = len(docs)
				out.Dropped = fmt.Sprintf("its last record is cut short (%v); the %d whole ones before it are kept", err, len(docs))
				return out, nil
			}
			return nil, fmt.Errorf("not a testdex history: %w", err)
		}
		if err := h.check(); err != nil {
			return nil, err
		}
		docs = append(docs, &h)
	}
	switch len(docs) {
	case 0:
		return &History{Version: Version}, nil
	case 1:
		docs[0].docs = 1
		return docs[0], nil
	}
	out := Merge(docs...)
	out.docs = len(docs)
	return out, nil
}

// isSyntax says whether err is a JSON syntax error (a document cut short
// mid-token, or the next one's start glued to it).
func isSyntax(err error) bool {
	_, ok := err.(*json.SyntaxError)
	return ok
}

// check refuses a document this testdex cannot read whole.
func (h *History) check() error {
	switch {
	case h.Version == 0:
		return fmt.Errorf("not a testdex history: no version")
	case h.Version > Version:
		return fmt.Errorf("a history of version %d, newer than this testdex reads (%d)", h.Version, Version)
	}
	for _, a := range h.Attempts {
		if a.Run == "" || a.ID == "" {
			return fmt.Errorf("not a testdex history: an attempt without run or test ID")
		}
	}
	return nil
}

// Write writes h, one record a line, so that a diff of two histories
// reads; a history Merge returned is in canonical form, the same inputs
// the same bytes.
func (h *History) Write(w io.Writer) error {
	c := h
	if _, err := fmt.Fprintf(w, "{\"version\": %d,\n\"runs\": [", Version); err != nil {
		return err
	}
	if err := lines(w, c.Runs); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "],\n\"attempts\": ["); err != nil {
		return err
	}
	if err := lines(w, c.Attempts); err != nil {
		return err
	}
	if _, err := io.WriteString(w, "],\n\"units\": ["); err != nil {
		return err
	}
	if err := lines(w, c.Units); err != nil {
		return err
	}
	_, err := io.WriteString(w, "]}\n")
	return err
}

// lines writes each of vs as JSON on a line of its own, comma-separated.
func lines[T any](w io.Writer, vs []T) error {
	for i, v := range vs {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == 0 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(w, "%s%s", sep, data); err != nil {
			return err
		}
	}
	if len(vs) > 0 {
		_, err := io.WriteString(w, "\n")
		return err
	}
	return nil
}

// Merge returns the union of hs in canonical form: each run, attempt and
// unit once by its key (a run by ID, an attempt by run, test and attempt,
// a unit by run and unit), where two inputs disagree the smaller by a
// fixed order of their fields, sorted, and bounded (KeptRuns,
// MaxAttempts). It is idempotent and commutative, and associative while
// the inputs together hold at most MaxAttempts attempts.
func Merge(hs ...*History) *History {
	runs := map[string]Run{}
	atts := map[attemptKey]Attempt{}
	units := map[[2]string]Unit{}
	for _, h := range hs {
		if h == nil {
			continue
		}
		for _, r := range h.Runs {
			if old, ok := runs[r.ID]; !ok || compareRun(r, old) < 0 {
				runs[r.ID] = r
			}
		}
		for _, a := range h.Attempts {
			k := a.key()
			if old, ok := atts[k]; !ok || compareAttempt(a, old) < 0 {
				atts[k] = a
			}
		}
		for _, u := range h.Units {
			k := [2]string{u.Run, u.Unit}
			if old, ok := units[k]; !ok || compareUnit(u, old) < 0 {
				units[k] = u
			}
		}
	}
	out := &History{Version: Version}
	for _, a := range atts {
		if _, ok := runs[a.Run]; ok { // an attempt of no known run has no time nor commit: dropped
			out.Attempts = append(out.Attempts, a)
		}
	}
	for _, u := range units {
		if _, ok := runs[u.Run]; ok {
			out.Units = append(out.Units, u)
		}
	}
	out.bound(runs)
	return out
}

// bound keeps the last KeptRuns runs of each test and unit and at most
// maxAttempts attempts, newest runs first, and the runs still named;
// everything sorted.
func (h *History) bound(runs map[string]Run) {
	order := make([]Run, 0, len(runs))
	for _, r := range runs {
		order = append(order, r)
	}
	slices.SortFunc(order, func(a, b Run) int { return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.ID, b.ID)) })
	age := make(map[string]int, len(order)) // 0 for the newest run
	for i, r := range order {
		age[r.ID] = len(order) - 1 - i
	}
	type ranked struct {
		Attempt
		age int
	}
	atts := make([]ranked, len(h.Attempts))
	for i, a := range h.Attempts {
		atts[i] = ranked{a, age[a.Run]}
	}
	slices.SortFunc(atts, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.age, b.age), cmp.Compare(a.Attempt.Attempt, b.Attempt.Attempt), cmp.Compare(a.Occurrence, b.Occurrence))
	})
	atts = keepRuns(atts, func(a ranked) (string, int) { return a.ID, a.age })
	if len(atts) > maxAttempts { // the newest attempts, by a total order
		byAge := slices.Clone(atts)
		slices.SortFunc(byAge, func(a, b ranked) int {
			return cmp.Or(cmp.Compare(a.age, b.age), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Attempt.Attempt, b.Attempt.Attempt), cmp.Compare(a.Occurrence, b.Occurrence))
		})
		keep := make(map[attemptKey]bool, maxAttempts)
		for _, a := range byAge[:maxAttempts] {
			keep[a.key()] = true
		}
		atts = slices.DeleteFunc(atts, func(a ranked) bool { return !keep[a.key()] })
	}
	h.Attempts = h.Attempts[:0]
	used := map[string]bool{}
	for _, a := range atts {
		h.Attempts = append(h.Attempts, a.Attempt)
		used[a.Run] = true
	}
	slices.SortFunc(h.Units, func(a, b Unit) int { return cmp.Or(cmp.Compare(a.Unit, b.Unit), cmp.Compare(age[a.Run], age[b.Run])) })
	h.Units = keepRuns(h.Units, func(u Unit) (string, int) { return u.Unit, age[u.Run] })
	for _, u := range h.Units {
		used[u.Run] = true
	}
	h.Runs = h.Runs[:0]
	for _, r := range order {
		if used[r.ID] {
			h.Runs = append(h.Runs, r)
		}
	}
}

// keepRuns keeps, of vs sorted by key and then newest run first, the
// records of the first KeptRuns runs of each key.
func keepRuns[T any](vs []T, key func(T) (string, int)) []T {
	kept := vs[:0]
	last, lastRun := "", -1
	n := 0
	for i, v := range vs {
		k, run := key(v)
		if k != last || i == 0 {
			last, lastRun, n = k, -1, 0
		}
		if run != lastRun {
			lastRun = run
			n++
		}
		if n <= KeptRuns {
			kept = append(kept, v)
		}
	}
	return kept
}

func compareRun(a, b Run) int {
	return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.Commit, b.Commit), cmp.Compare(a.Source, b.Source),
		cmp.Compare(a.Profile.Label, b.Profile.Label), cmp.Compare(a.Profile.OS, b.Profile.OS),
		cmp.Compare(a.Profile.Arch, b.Profile.Arch), cmp.Compare(a.Profile.Cores, b.Profile.Cores), boolCmp(a.Coverage, b.Coverage), cmp.Compare(a.Shards, b.Shards))
}

func compareAttempt(a, b Attempt) int {
	return cmp.Or(cmp.Compare(a.Outcome, b.Outcome), cmp.Compare(a.Duration, b.Duration), boolCmp(a.Untimed, b.Untimed))
}

func compareUnit(a, b Unit) int {
	return cmp.Or(cmp.Compare(a.Wall, b.Wall), cmp.Compare(a.Tests, b.Tests), cmp.Compare(a.Count, b.Count), cmp.Compare(a.Setup, b.Setup))
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
