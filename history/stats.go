package history

import (
	"cmp"
	"slices"

	"github.com/testdex/testdex/internal/costfit"
)

// Stat sums up a test's (or a unit's) recorded durations, in seconds,
// over the runs kept of one profile.
type Stat struct {
	// Runs is the number of runs with a result; Timed the number of
	// durations the figures are of (passes and failures with a time).
	Runs  int `json:"runs"`
	Timed int `json:"timed"`
	// Mean, Median and Max are of the timed durations; Last is the
	// duration of the newest run's last timed attempt; Recent is the
	// median of the newest RecentRuns timed durations.
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	Last   float64 `json:"last"`
	Recent float64 `json:"recent"`
	// Outcome is the newest run's last outcome; Failed counts the runs
	// with a failed attempt.
	Outcome string `json:"outcome,omitempty"`
	Failed  int    `json:"failed"`
}

// Durations returns, per test ID, the figures of its attempts in the runs
// whose profile has label ("" is every run): what a plan that balances
// shards by time reads. A skipped attempt has no duration that predicts a
// run; it counts as a run only.
func (h *History) Durations(label string) map[string]Stat {
	return h.DurationsOf(label, -1)
}

// DurationsOf is Durations over the runs whose profile has label and that
// were shards of a split into shards (0: runs of the whole selection; -1:
// any run).
func (h *History) DurationsOf(label string, shards int) map[string]Stat {
	runs := h.runsOf(label)
	if shards >= 0 {
		for _, r := range h.Runs {
			if r.Shards != shards {
				delete(runs, r.ID)
			}
		}
	}
	type acc struct {
		runs            map[string]bool
		failed          map[string]bool
		times           []timed
		last, lastT     Attempt
		lastAt, lastTAt string
	}
	by := map[string]*acc{}
	for _, a := range h.Attempts {
		r, ok := runs[a.Run]
		if !ok {
			continue
		}
		s := by[a.ID]
		if s == nil {
			s = &acc{runs: map[string]bool{}, failed: map[string]bool{}}
			by[a.ID] = s
		}
		s.runs[a.Run] = true
		if a.Outcome == Fail {
			s.failed[a.Run] = true
		}
		hasTime := !a.Untimed && a.Outcome != Skip
		if hasTime {
			s.times = append(s.times, timed{r.order, a.Attempt, a.Duration})
		}
		if later(r.order, a, s.lastAt, s.last) {
			s.last, s.lastAt = a, r.order
		}
		if hasTime && later(r.order, a, s.lastTAt, s.lastT) {
			s.lastT, s.lastTAt = a, r.order
		}
	}
	out := make(map[string]Stat, len(by))
	for id, s := range by {
		st := figures(s.times).Stat
		st.Runs, st.Failed, st.Outcome = len(s.runs), len(s.failed), s.last.Outcome
		st.Last = s.lastT.Duration
		out[id] = st
	}
	return out
}

// later reports whether attempt a of the run ordered at is later than
// attempt b of the run ordered bt ("" for none yet).
func later(at string, a Attempt, bt string, b Attempt) bool {
	return bt == "" || at > bt || at == bt && a.Attempt > b.Attempt
}

// Setup returns, per unit (a batch's name, "DIR FRAMEWORK"), the figures
// of its setup cost (Unit.Setup) in the runs whose profile has label ("" is
// every run): what a plan adds once per unit a shard runs.
func (h *History) Setup(label string) map[string]Stat {
	runs := h.runsOf(label)
	times := map[string][]timed{}
	for _, u := range h.Units {
		if r, ok := runs[u.Run]; ok {
			times[u.Unit] = append(times[u.Unit], timed{order: r.order, d: u.Setup})
		}
	}
	out := make(map[string]Stat, len(times))
	for unit, ts := range times {
		f := figures(ts)
		st := f.Stat
		st.Runs, st.Last = len(ts), f.newest
		out[unit] = st
	}
	return out
}

// FolderSetups returns, per unit, the recent median over its records
// that know their folders of the setup per folder, in the runs whose
// profile has label ("" is every run): where the runner builds and
// starts each folder (go test's packages), a shard's record of two
// packages and a full run's of forty price a package alike.
func (h *History) FolderSetups(label string) map[string]float64 {
	runs := h.runsOf(label)
	per := map[string][]timed{}
	for _, u := range h.Units {
		if r, ok := runs[u.Run]; ok && u.Folders > 0 {
			per[u.Unit] = append(per[u.Unit], timed{order: r.order, d: u.Setup / float64(u.Folders)})
		}
	}
	out := make(map[string]float64, len(per))
	for unit, ts := range per {
		out[unit] = figures(ts).Recent
	}
	return out
}

// FileSetup is a unit's setup cost as a start, a cost per file and a
// cost per top-level test, for a runner whose setup grows with the files
// it collects and the tests it runs: a run of f files and t tests is
// predicted to cost Start + f × PerFile + t × PerTest (costfit.Model),
// fitted to the unit's newest FitRuns records that know their files.
type FileSetup struct {
	Start, PerFile, PerTest float64
	Runs                    int
}

// FitRuns is how many of a unit's newest records FileSetups fits: the
// shards of a few CI runs (each shard's run of a batch is a record).
const FitRuns = 4 * RecentRuns

// FileSetups returns, per unit, its setup as a start, a cost per file
// and a cost per top-level test in the runs whose profile has label (""
// is every run), fitted to its newest records (costfit.Fit: with fewer
// than three, each record's start is its setup up to maxStart seconds
// and the rest is shared by its files). A shard that ran eight of a
// suite's files and a full run that ran all of them then price the same
// file alike, where the setups alone (a few seconds against the whole
// collection) would not; a shard of many cheap rows pays for the rows.
func (h *History) FileSetups(label string, maxStart float64) map[string]FileSetup {
	runs := h.runsOf(label)
	type rec struct {
		order string
		run   costfit.Run
	}
	byUnit := map[string][]rec{}
	for _, u := range h.Units {
		r, ok := runs[u.Run]
		if !ok || u.Files == 0 {
			continue
		}
		byUnit[u.Unit] = append(byUnit[u.Unit], rec{r.order, costfit.Run{Setup: u.Setup, Files: u.Files, Tests: u.Count}})
	}
	out := make(map[string]FileSetup, len(byUnit))
	for unit, recs := range byUnit {
		slices.SortStableFunc(recs, func(a, b rec) int { return cmp.Compare(a.order, b.order) })
		recs = recs[max(0, len(recs)-FitRuns):]
		fit := make([]costfit.Run, len(recs))
		for i, r := range recs {
			fit[i] = r.run
		}
		if m, ok := costfit.Fit(fit, maxStart); ok {
			out[unit] = FileSetup{Start: m.Start, PerFile: m.PerFile, PerTest: m.PerTest, Runs: m.Runs}
		}
	}
	return out
}

// Labels returns the profile labels of the runs, sorted ("" for runs
// without one).
func (h *History) Labels() []string {
	var out []string
	for _, r := range h.Runs {
		if !slices.Contains(out, r.Profile.Label) {
			out = append(out, r.Profile.Label)
		}
	}
	slices.Sort(out)
	return out
}

// runRef is a run matching a label, with a key that orders runs oldest
// first.
type runRef struct{ order string }

// runsOf returns the runs whose profile has label ("" every run).
func (h *History) runsOf(label string) map[string]runRef {
	out := make(map[string]runRef, len(h.Runs))
	for _, r := range h.Runs {
		if label == "" || r.Profile.Label == label {
			out[r.ID] = runRef{order: r.Time.UTC().Format("20060102T150405.000000000") + " " + r.ID}
		}
	}
	return out
}

// RecentRuns is how many of a test's newest timed durations Stat.Recent
// is the median of. A plan reads Recent rather than the median of all
// the runs kept: durations drift with the code, and a test's time depends
// on the process it ran in (networkx's gc-heavy tests took 0.7 s in the
// whole suite's process and 0.02 s in a shard's), so the newest runs,
// which in CI are the shards' own, predict the next shard best, and five
// of them still outvote one slow outlier.
const RecentRuns = 5

// timed is one duration (d) and the order of its run and attempt.
type timed struct {
	order   string
	attempt int
	d       float64
}

// statFigures are a Stat's figures and the newest duration.
type statFigures struct {
	Stat
	newest float64
}

// figures are the mean, median, max and recent median of ts, the newest
// of them, and how many there are.
func figures(ts []timed) statFigures {
	st := statFigures{Stat: Stat{Timed: len(ts)}}
	if len(ts) == 0 {
		return st
	}
	byAge := slices.Clone(ts)
	slices.SortStableFunc(byAge, func(a, b timed) int {
		return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.attempt, b.attempt))
	})
	st.newest = byAge[len(byAge)-1].d
	all := make([]float64, len(byAge))
	sum := 0.0
	for i, t := range byAge {
		all[i] = t.d
		sum += t.d
	}
	st.Recent = medianOf(all[max(0, len(all)-RecentRuns):])
	st.Median = medianOf(all)
	st.Mean = sum / float64(len(all))
	st.Max = slices.Max(all)
	return st
}

// medianOf is the median of ts (not empty), which it leaves unsorted.
func medianOf(ts []float64) float64 {
	s := slices.Clone(ts)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
