package changes

import (
	"sort"
	"time"
)

// Tests that share a process (Go's one process per package, a Python or
// JavaScript runner's) are recorded by windows: a test's record is what
// ran while it ran. What it would run alone but an earlier test of its
// process ran for it (a cache it filled, a sync.Once, a lazily built
// table) is in the earlier test's record only. So SelectCovered gives a
// test T, recorded in process P at start order s, every changed function
// that a test of P started before s executed: run alone, or in another
// order, T may run it, and a change there may break T. Together with its
// own record, that is everything T could have run in that process: what
// ran before T started is in the earlier tests' records (the window
// before the first test is every test's), and what ran while T ran is in
// T's own. A record whose earlier tests are not all in the index (one was
// recorded again since, or never ended) cannot say that, and is not
// usable: the static evidence decides for its test.
//
// Narrowed by reachability: T can use what an earlier test left only
// through code T itself ran, so the earlier test's function F counts for
// T only when the language's static reference graph (lang.Reacher) has a
// path to F from some function of T's own record (covered_reach.go). Where the
// graph cannot answer (no Reacher, a function outside it, a record whose
// functions are unknown), the wide rule stands.

// procKey names one process of one recording.
type procKey struct {
	recorded time.Time
	process  string
}

// procGroup is one process's recorded tests: by start order, and those
// without one (coverage.Unordered: they ran in several processes or
// started twice, and may have run before any other).
type procGroup struct {
	bySeq     map[int]string
	unordered []string
}

// executor is the first test of a process that executed a changed
// function: its ID and start order (-1 when it has none).
type executor struct {
	id  string
	seq int
}

// procsOf groups the recorded tests by process, once.
func (c *covSel) procsOf() map[procKey]*procGroup {
	if c.procs != nil {
		return c.procs
	}
	c.procs = map[procKey]*procGroup{}
	for id, ti := range c.tests {
		if ti.Process == "" {
			continue
		}
		k := procKey{ti.Recorded.UTC(), ti.Process}
		g := c.procs[k]
		if g == nil {
			g = &procGroup{bySeq: map[int]string{}}
			c.procs[k] = g
		}
		if ti.Seq < 0 { // coverage.Unordered
			g.unordered = append(g.unordered, id)
			continue
		}
		g.bySeq[ti.Seq] = id
	}
	return c.procs
}

// inOrder reports whether what ran before a recorded test in its process
// is all in the index: it ran alone, or every start order before its own
// has its record.
func (c *covSel) inOrder(id string) bool {
	ti := c.tests[id]
	if ti.Process == "" {
		return true
	}
	if ti.Seq < 0 {
		return false
	}
	g := c.procsOf()[procKey{ti.Recorded.UTC(), ti.Process}]
	for s := 0; s < ti.Seq; s++ {
		if _, ok := g.bySeq[s]; !ok {
			return false
		}
	}
	return true
}

// earlier says why a recorded test whose own record executed nothing
// changed in fc's file is affected all the same: the changed functions
// that a test of its process executed before it started (the first such
// test, and the functions it was first to execute); nil when none.
func (c *covSel) earlier(fc *fileChange, id string) *affected {
	ti := c.tests[id]
	if ti.Process == "" || fc.static != "" {
		return nil
	}
	first := fc.firstExecutors(c)[procKey{ti.Recorded.UTC(), ti.Process}]
	var best executor
	var names []string
	for _, name := range sortedKeys(first) {
		e := first[name]
		switch {
		case e.seq >= ti.Seq || e.id == id:
		case !c.mayReach(id, fc.path, name):
		case names == nil || e.seq < best.seq:
			best, names = e, []string{name}
		case e.id == best.id:
			names = append(names, name)
		}
	}
	if names == nil {
		return nil
	}
	return &affected{funcs: names, earlier: best.id}
}

// firstExecutors computes, once per changed file, the first test of each
// process that executed each changed function (by its own record).
func (fc *fileChange) firstExecutors(c *covSel) map[procKey]map[string]executor {
	if fc.first != nil {
		return fc.first
	}
	fc.first = map[procKey]map[string]executor{}
	for id := range fc.entries {
		ti, ok := c.tests[id]
		if !ok || ti.Process == "" {
			continue
		}
		why := fc.affects(id, ti.Recorded)
		if why == nil || why.static != "" {
			continue // static: the tests of its run see the same version, and go static too
		}
		k, seq := procKey{ti.Recorded.UTC(), ti.Process}, max(ti.Seq, -1)
		m := fc.first[k]
		if m == nil {
			m = map[string]executor{}
			fc.first[k] = m
		}
		for _, name := range why.funcs {
			if e, ok := m[name]; !ok || seq < e.seq || (seq == e.seq && id < e.id) {
				m[name] = executor{id: id, seq: seq}
			}
		}
	}
	return fc.first
}

// earlierOf returns the recorded tests that ran before a recorded test in
// its process (all of its process's unordered ones among them).
func (c *covSel) earlierOf(id string) []string {
	ti := c.tests[id]
	if ti.Process == "" {
		return nil
	}
	g := c.procsOf()[procKey{ti.Recorded.UTC(), ti.Process}]
	out := append([]string(nil), g.unordered...)
	for s, other := range g.bySeq {
		if s < ti.Seq {
			out = append(out, other)
		}
	}
	sort.Strings(out)
	return out
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
