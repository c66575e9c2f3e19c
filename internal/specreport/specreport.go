// Package specreport turns the markdown specs' results of a run's event
// stream into semtest's report files (`testdex run --output DIR`) and into
// the run's cost line (the agent calls made and saved). Both are
// handlers over the events alone, as every output format is: a saved
// `testdex run --json` stream replays into the same reports.
//
//	events (framework semtest) ──► Collector ──► latest.md        grouped by folder, failures in full
//	                                          ├─► ci-results.json  semtest's schema, plus testdex's fields
//	                                          ├─► junit-results.xml (internal/report's JUnit)
//	                                          └─► Cost              calls made, saved, unstable scenarios
//
// The raw agent answers (debug/) are the runner's to write: only it sees
// them (package specs).
package specreport

import (
	"sort"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/internal/specs"
)

// Collector gathers the spec results of a run. Its zero value is ready;
// it is a run.Handler.
type Collector struct {
	results map[string]*Result // by test ID
	order   []string
	junit   report.JUnit
	calls   map[callKey]int
	costs   map[callKey]float64
	saved   map[string]bool // spec files whose every result was reused
	judged  map[string]bool // spec files judged now
}

// callKey names one judgement of one spec: its file and occurrence.
type callKey struct {
	file string
	occ  int
}

// Result is one scenario's outcome over the run: its last final event
// (with --repeat, the one carrying the agreement), the status of its
// worst judgement (error, then fail, then the rest) and that judgement's
// event, whose verdict the reports show.
type Result struct {
	ID     string
	Event  testdex.Event
	Status string
	Worst  testdex.Event
}

// Event implements run.Handler: it keeps the events of framework semtest.
// This package is semtest's own report (the files semtest writes, in its
// schema), so it names its framework; it sits beside internal/report
// rather than in the markdown language's package because it is a handler
// over the run's events, above package run, which the languages are below.
func (c *Collector) Event(e testdex.Event) error {
	if e.Framework != testdex.Semtest {
		return nil
	}
	if c.results == nil {
		c.results, c.calls, c.costs = map[string]*Result{}, map[callKey]int{}, map[callKey]float64{}
		c.saved, c.judged = map[string]bool{}, map[string]bool{}
	}
	if err := c.junit.Event(e); err != nil {
		return err
	}
	if e.ID == "" || !e.Action.Final() || e.Action == testdex.ActionUnreported {
		return nil
	}
	file, _ := testdex.SplitID(e.ID)
	status := statusOf(e)
	if v := e.Verdict; v != nil && !v.Reused {
		c.calls[callKey{file, e.Occurrence}] = v.Calls // each scenario of the judgement says it: counted once
		c.costs[callKey{file, e.Occurrence}] = v.CostUSD
		c.judged[file] = true
		delete(c.saved, file)
	} else if v != nil && !c.judged[file] {
		c.saved[file] = true
	}
	r := c.results[e.ID]
	if r == nil {
		r = &Result{ID: e.ID, Status: status, Worst: e}
		c.results[e.ID] = r
		c.order = append(c.order, e.ID)
	}
	r.Event = e
	if worse(status, r.Status) {
		r.Status, r.Worst = status, e
	}
	return nil
}

// statusOf is an event's status in semtest's terms.
func statusOf(e testdex.Event) string {
	switch {
	case e.Verdict != nil && e.Verdict.Status == specs.StatusError:
		return specs.StatusError
	case e.Action == testdex.ActionFail:
		return specs.StatusFail
	case e.Action == testdex.ActionSkip:
		return "skipped"
	}
	return specs.StatusPass // a pass, or an unchanged (a reused pass)
}

// worse reports whether status a outranks b: error, fail, then the rest.
func worse(a, b string) bool {
	rank := map[string]int{specs.StatusError: 3, specs.StatusFail: 2}
	return rank[a] > rank[b]
}

// Results returns the scenarios' results, by group and ID.
func (c *Collector) Results() []*Result {
	out := make([]*Result, 0, len(c.order))
	for _, id := range c.order {
		out = append(out, c.results[id])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Cost is what judging the specs cost in a run.
type Cost struct {
	Scenarios int // results of spec scenarios
	Judged    int // scenario judgements made now
	Reused    int // scenarios whose stored verdict was reused
	Calls     int // agent calls made (retries included)
	// Saved is the agent calls not made: one per spec file whose every
	// selected scenario kept its stored verdict.
	Saved   int
	CostUSD float64 // as the agents reported it
	// Unstable are the IDs flagged by --repeat, with their agreement.
	Unstable []Unstable
}

// Unstable is a scenario whose judgements agreed under 95%.
type Unstable struct {
	ID        string
	Agreement float64
	Of        int
}

// Cost sums the run's spec results.
func (c *Collector) Cost() Cost {
	var k Cost
	for _, r := range c.Results() {
		k.Scenarios++
		v := r.Event.Verdict
		switch {
		case v == nil:
		case v.Reused:
			k.Reused++
		default:
			k.Judged += max(v.Judgements, 1)
			if v.Unstable {
				k.Unstable = append(k.Unstable, Unstable{ID: r.ID, Agreement: v.Agreement, Of: v.Judgements})
			}
		}
	}
	for key, n := range c.calls {
		k.Calls += n
		k.CostUSD += c.costs[key]
	}
	k.Saved = len(c.saved)
	return k
}
