package history

import (
	"cmp"
	"slices"
)

// Stat sums up a test's (or a unit's) recorded durations, in seconds,
// over the runs kept of one profile.
type Stat struct {
	// Runs is the number of runs with a result; Timed the number of
	// durations the figures are of (passes and failures with a time).
	Runs  int `json:"runs"`
	Timed int `json:"timed"`
	// Mean, Median and Max are of the timed durations; Last is the
	// duration of the newest run's last timed attempt.
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	Last   float64 `json:"last"`
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
	runs := h.runsOf(label)
	type acc struct {
		runs            map[string]bool
		failed          map[string]bool
		times           []float64
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
		timed := !a.Untimed && a.Outcome != Skip
		if timed {
			s.times = append(s.times, a.Duration)
		}
		if later(r.order, a, s.lastAt, s.last) {
			s.last, s.lastAt = a, r.order
		}
		if timed && later(r.order, a, s.lastTAt, s.lastT) {
			s.lastT, s.lastTAt = a, r.order
		}
	}
	out := make(map[string]Stat, len(by))
	for id, s := range by {
		st := figures(s.times)
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
	times := map[string][]float64{}
	last := map[string]string{}
	lastV := map[string]float64{}
	for _, u := range h.Units {
		r, ok := runs[u.Run]
		if !ok {
			continue
		}
		times[u.Unit] = append(times[u.Unit], u.Setup)
		if r.order >= last[u.Unit] {
			last[u.Unit], lastV[u.Unit] = r.order, u.Setup
		}
	}
	out := make(map[string]Stat, len(times))
	for unit, ts := range times {
		st := figures(ts)
		st.Runs, st.Last = len(ts), lastV[unit]
		out[unit] = st
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

// figures are the mean, median and max of ts, and how many there are.
func figures(ts []float64) Stat {
	st := Stat{Timed: len(ts)}
	if len(ts) == 0 {
		return st
	}
	s := slices.Clone(ts)
	slices.SortFunc(s, cmp.Compare[float64])
	sum := 0.0
	for _, t := range s {
		sum += t
	}
	st.Mean, st.Max = sum/float64(len(s)), s[len(s)-1]
	if n := len(s); n%2 == 1 {
		st.Median = s[n/2]
	} else {
		st.Median = (s[n/2-1] + s[n/2]) / 2
	}
	return st
}
