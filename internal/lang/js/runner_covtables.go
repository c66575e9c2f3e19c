package js

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The counting recorder's events say what a test ran as the functions it
// entered ("cov" events' fns: table id -> function indices), each file's
// table of lines given once per process ("covtab"), so that the tests'
// processes, where each child starts cold, do not turn functions into
// lines: testdex does, here, once per distinct set of a file's functions.

// covTable is one instrumented file's table (runner_instrument.cjs's
// tableLines): the files its lines are in, and per function its lines,
// as [file index, count, line...]...; U names a file whose lines cannot
// be told (code transformed without a source map).
type covTable struct {
	F []string `json:"f"`
	K [][]int  `json:"k"`
	U string   `json:"u"`
	// memo holds the lines of each set of functions met, by its key.
	memo map[string]map[string][]int
}

// table keeps a "covtab" event's table; one that cannot be read is kept
// as nil, which makes the events that use it incomplete.
func (c *coverage) table(id string, raw json.RawMessage) {
	if c.tables == nil {
		c.tables = map[string]*covTable{}
	}
	t := &covTable{}
	if json.Unmarshal(raw, t) != nil {
		t = nil
	}
	c.tables[id] = t
}

// resolve turns a "cov" event's fns into its cov. A table it names that
// was not given or cannot be read, a function index out of its table, or
// a table of a file whose lines cannot be told (nomap is told of it)
// marks the event unmapped: it records nothing rather than less.
func (c *coverage) resolve(e *jsEvent, nomap func(file string)) {
	if len(e.Fns) == 0 {
		return
	}
	lines := map[string][]int{}
	ids := slices.Collect(maps.Keys(e.Fns))
	slices.SortFunc(ids, compareIDs) // the order the process wrote its tables: notes in a stable order
	for _, id := range ids {
		ks := e.Fns[id]
		t := c.tables[id]
		if t == nil {
			e.Unmapped = true
			continue
		}
		if t.U != "" {
			e.Unmapped = true
			nomap(t.U)
			continue
		}
		got, ok := t.lines(ks)
		if !ok {
			e.Unmapped = true
			continue
		}
		for file, ls := range got {
			lines[file] = append(lines[file], ls...)
		}
	}
	if e.Cov == nil {
		e.Cov = map[string][][2]int{}
	}
	for file, ls := range lines {
		e.Cov[file] = append(e.Cov[file], toSpans(ls)...)
	}
}

// lines returns the lines of functions ks, per file; false when one is
// not in the table.
func (t *covTable) lines(ks []int) (map[string][]int, bool) {
	key := string(binaryKey(ks))
	if got, ok := t.memo[key]; ok {
		return got, true
	}
	out := map[string][]int{}
	for _, k := range ks {
		if k < 0 || k >= len(t.K) {
			return nil, false
		}
		row := t.K[k]
		for i := 0; i+1 < len(row); i += 2 + row[i+1] {
			f, n := row[i], row[i+1]
			if f < 0 || f >= len(t.F) || n < 0 || i+2+n > len(row) {
				return nil, false
			}
			out[t.F[f]] = append(out[t.F[f]], row[i+2:i+2+n]...)
		}
	}
	for f, ls := range out {
		slices.Sort(ls)
		out[f] = slices.Compact(ls)
	}
	if t.memo == nil {
		t.memo = map[string]map[string][]int{}
	}
	t.memo[key] = out
	return out, true
}

// compareIDs orders table ids (pid.thread.n) by their numbers.
func compareIDs(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		if ea != nil || eb != nil {
			if c := strings.Compare(pa[i], pb[i]); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(na, nb); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(pa), len(pb))
}

// binaryKey is a set of function indices as a memo key, in the order
// given (a set met again in another order is only read again).
func binaryKey(ks []int) []byte {
	b := make([]byte, 0, 4*len(ks))
	for _, k := range ks {
		b = append(b, byte(k), byte(k>>8), byte(k>>16), byte(k>>24))
	}
	return b
}

// toSpans renders sorted lines as [start, end] spans.
func toSpans(ls []int) [][2]int {
	var out [][2]int
	for _, l := range ls {
		if n := len(out); n > 0 && l <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], l)
			continue
		}
		out = append(out, [2]int{l, l})
	}
	return out
}
