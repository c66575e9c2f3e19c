package workspace

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/internal/state"
	"github.com/testdex/testdex/run"
)

// LoadHistory reads the root's history (the file named, else the root's
// under the cache folder). A file that is not a history testdex keeps (a
// link, a folder) is said through warn and read as empty, as every state
// file; no file is an empty history; a last record cut short is left
// out and said. ErrNoStore when there is none to
// read (the cache off and no file named).
func (w *Workspace) LoadHistory(named string, warn func(string)) (*history.History, error) {
	path := w.HistoryFile(named)
	if path == "" {
		return nil, ErrNoStore
	}
	h, err := history.Load(path)
	var odd *state.OddError
	if errors.As(err, &odd) {
		if warn != nil {
			warn(err.Error())
		}
		return &history.History{}, nil
	}
	if err == nil && h.Dropped != "" && warn != nil {
		warn(fmt.Sprintf("history %s: %s", path, h.Dropped))
	}
	return h, err
}

// FlakyRequest asks for the verdicts on the tests' recent runs.
type FlakyRequest struct {
	History string // the history file ("" the root's)
	history.VerdictOptions
}

// Flaky returns the verdict on every test the history holds, sorted by
// verdict (broken, flaky, failing, new failure, ok) then ID.
func (w *Workspace) Flaky(req FlakyRequest, warn func(string)) ([]history.Verdict, error) {
	h, err := w.LoadHistory(req.History, warn)
	if err != nil {
		return nil, err
	}
	vs := h.Verdicts(req.VerdictOptions)
	out := make([]history.Verdict, 0, len(vs))
	for _, v := range vs {
		out = append(out, v)
	}
	rank := map[string]int{history.Broken: 0, history.Flaky: 1, history.Failing: 2, history.NewFailure: 3, history.OK: 4}
	slices.SortFunc(out, func(a, b history.Verdict) int {
		if d := rank[a.Kind] - rank[b.Kind]; d != 0 {
			return d
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// FailureVerdicts says, for each failure, what the history makes of it
// ("new failure", "flaky: failed 3 of 20 runs", "broken since abc1234"),
// from the runs recorded, this one included; none without a history.
func (w *Workspace) FailureVerdicts(fs []run.Failure, named string) map[string]string {
	if len(fs) == 0 {
		return nil
	}
	h, err := w.LoadHistory(named, nil)
	if err != nil {
		return nil
	}
	vs := h.Verdicts(history.VerdictOptions{})
	out := map[string]string{}
	for _, f := range fs {
		if v, ok := vs[f.ID]; ok {
			out[f.ID] = v.String()
		}
	}
	return out
}

// QuarantineFile is the root's quarantine list, kept in the repository
// beside testdex.toml so that a team shares it.
const QuarantineFile = "testdex.quarantine.toml"

// Quarantined is one test whose failures do not fail a run (it still runs
// and is reported), until Expires.
type Quarantined struct {
	ID      string    `toml:"id"`
	Reason  string    `toml:"reason"`
	Added   time.Time `toml:"added"`
	Expires time.Time `toml:"expires"`
}

type quarantineDoc struct {
	Tests []Quarantined `toml:"test"`
}

// Quarantine reads the root's quarantine list (none when there is no
// file); a file that does not parse is an error naming it.
func (w *Workspace) Quarantine() ([]Quarantined, error) {
	path := filepath.Join(w.Root, QuarantineFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc quarantineDoc
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", QuarantineFile, err)
	}
	return doc.Tests, nil
}

// WriteQuarantine writes the root's quarantine list: the entries kept and
// those added, sorted by ID.
func (w *Workspace) WriteQuarantine(entries []Quarantined) error {
	slices.SortFunc(entries, func(a, b Quarantined) int { return strings.Compare(a.ID, b.ID) })
	return state.WriteAtomic(filepath.Join(w.Root, QuarantineFile), func(f io.Writer) error {
		fmt.Fprintf(f, "# Tests whose failures do not fail a run until they expire (they still run and are\n")
		fmt.Fprintf(f, "# reported). Written by 'testdex flaky --quarantine'; edit freely. See docs/running.md.\n\n")
		return toml.NewEncoder(f).Encode(quarantineDoc{Tests: entries})
	})
}

// brokenWindow is how many of a quarantined test's newest runs say
// whether it is broken: it fails 95 % of them or more (and 5 runs at
// least), which a flaky test does not.
const brokenWindow = 10

// applyQuarantine moves the failures of quarantined tests out of the
// run's failures (Summary.Quarantine), with a warning each: the test ran
// and failed, and the run does not fail for it. An expired entry, or a
// test whose recent runs fail 95 % of the time or more (broken, not
// flaky), is not applied: its failure counts, and a warning says why.
func (w *Workspace) applyQuarantine(sum *run.Summary, req run.Request, now time.Time, say func(string)) {
	entries, err := w.Quarantine()
	if err != nil {
		say(err.Error())
		return
	}
	if len(entries) == 0 || len(sum.Failures) == 0 {
		return
	}
	var vs map[string]history.Verdict
	if h, err := w.LoadHistory(req.History, nil); err == nil {
		vs = h.Verdicts(history.VerdictOptions{Window: brokenWindow})
	}
	active := map[string]bool{}
	for _, q := range entries {
		v := vs[q.ID]
		switch {
		case !q.Expires.IsZero() && now.After(q.Expires):
			say(fmt.Sprintf("quarantine of %s expired on %s: its failures count again", q.ID, q.Expires.Format("2006-01-02")))
		case v.Runs >= 5 && 100*v.Failed >= 95*v.Runs:
			say(fmt.Sprintf("%s is quarantined but fails %d of its last %d runs: broken, its failures count", q.ID, v.Failed, v.Runs))
		default:
			active[q.ID] = true
		}
	}
	sum.Quarantine = active
	sum.Finish()
	for _, f := range sum.Quarantined {
		say(fmt.Sprintf("%s failed but is quarantined (%s): the run does not fail for it", f.ID, reasonOf(entries, f.ID)))
	}
}

// reasonOf is a quarantined test's reason.
func reasonOf(entries []Quarantined, id string) string {
	for _, q := range entries {
		if q.ID == id && q.Reason != "" {
			return q.Reason
		}
	}
	return "no reason given"
}
