package coverage

import (
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/zeebo/xxh3"
)

// Query asks which tests executed lines of one file.
type Query struct {
	// File is root-relative and slash-separated.
	File string
	// Start and End are the lines asked about, 1-based and inclusive; 0
	// and 0 ask about the whole file.
	Start, End int
	// Current is the file's content now; nil when the file is gone.
	Current []byte
	// Funcs are the file's functions now, from its language's Spanner;
	// nil when there is none (a changed file is then answered stale).
	Funcs []Func
}

// Hit is a test that executed lines of the query.
type Hit struct {
	ID       string    `json:"id"`
	Recorded time.Time `json:"recorded"`
	Outcome  string    `json:"outcome,omitempty"`
	// Lines are the lines of the query it executed, numbered as the file
	// is now.
	Lines []Span `json:"lines"`
	// By is "line" when the file is as it was recorded, "function" when it
	// changed since and the lines lie in functions whose canonical hash
	// did not change (Functions names them).
	By        string   `json:"by"`
	Functions []string `json:"functions,omitempty"`
	// Granularity is "file" when the runner attributes lines per test
	// file (the test may not have executed them itself); "" per test.
	Granularity string `json:"granularity,omitempty"`
}

// Stale is a test recorded on an older version of the file that cannot be
// matched to the lines asked about: it may or may not execute them now.
type Stale struct {
	ID       string    `json:"id"`
	Recorded time.Time `json:"recorded"`
	Outcome  string    `json:"outcome,omitempty"`
	Reason   string    `json:"reason"`
	// Granularity is as Hit's.
	Granularity string `json:"granularity,omitempty"`
}

// Answer is the reply to a Query.
type Answer struct {
	File       string  `json:"file"`
	Start      int     `json:"start,omitempty"`
	End        int     `json:"end,omitempty"`
	Tests      []Hit   `json:"tests"`
	Stale      []Stale `json:"stale"`
	Changed    bool    `json:"changed"` // the file differs from some recording
	Recordings int     `json:"recordings"`
}

// Covering answers q: the tests that executed its lines, and the stale
// ones. An index that holds no test at all is ErrNoData.
func (ix *Index) Covering(q Query) (*Answer, error) {
	ans := &Answer{File: q.File, Start: q.Start, End: q.End, Tests: []Hit{}, Stale: []Stale{}}
	lo, hi := q.Start, q.End
	if lo <= 0 {
		lo, hi = 1, 1<<31-1
	}
	cur := xxh3.Hash(q.Current)
	err := ix.view(func(tx *bolt.Tx) error {
		tests, files, meta := tx.Bucket(bucketTests), tx.Bucket(bucketFiles), tx.Bucket(bucketMeta)
		if tests == nil || files == nil || meta == nil || !readable(meta.Get(keyVersion)) || tests.Stats().KeyN == 0 {
			return ErrNoData // none, or recorded by another version of testdex: run again
		}
		fb := files.Bucket([]byte(q.File))
		if fb == nil {
			return nil
		}
		sets, names, err := ix.readSets(tx, fb, q.File)
		if err != nil {
			return err
		}
		m := &matcher{q: q, lo: lo, hi: hi, old: map[uint64][]Func{}, fb: fb}
		for _, s := range sets {
			ans.Recordings += len(s.nums)
			var hit *Hit
			reason := ""
			if q.Current != nil && s.hash == cur {
				if l := intersect(s.lines, lo, hi); len(l) > 0 {
					hit = &Hit{Lines: l, By: "line"}
				}
			} else {
				ans.Changed = true
				hit, reason = m.changed(s.hash, s.lines)
			}
			if hit == nil && reason == "" {
				continue
			}
			ids, err := names.names(s)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if hit != nil {
					h := *hit
					h.ID = id
					ans.Tests = append(ans.Tests, h)
				} else {
					ans.Stale = append(ans.Stale, Stale{ID: id, Reason: reason})
				}
			}
		}
		slices.SortFunc(ans.Tests, func(a, b Hit) int { return strings.Compare(a.ID, b.ID) })
		slices.SortFunc(ans.Stale, func(a, b Stale) int { return strings.Compare(a.ID, b.ID) })
		return ix.stamp(tests, ans)
	})
	if err != nil {
		return nil, err
	}
	return ans, nil
}

// stamp fills in when each test was recorded and its outcome.
func (ix *Index) stamp(tests *bolt.Bucket, ans *Answer) error {
	get := func(id string) (testValue, error) {
		raw := tests.Get([]byte(id))
		if raw == nil {
			return testValue{}, nil
		}
		v, err := decodeTest(raw)
		if err != nil {
			return v, fmt.Errorf("%w: %s (test %s: %v)", ErrDamaged, ix.path, id, err)
		}
		return v, nil
	}
	for i := range ans.Tests {
		v, err := get(ans.Tests[i].ID)
		if err != nil {
			return err
		}
		ans.Tests[i].Recorded, ans.Tests[i].Outcome, ans.Tests[i].Granularity = v.recorded, v.outcome, fine(v.granularity)
	}
	for i := range ans.Stale {
		v, err := get(ans.Stale[i].ID)
		if err != nil {
			return err
		}
		ans.Stale[i].Recorded, ans.Stale[i].Outcome, ans.Stale[i].Granularity = v.recorded, v.outcome, fine(v.granularity)
	}
	return nil
}

// fine drops the default granularity, per test.
func fine(g string) string {
	if g == "test" {
		return ""
	}
	return g
}

// matcher answers the entries recorded on another version of the file.
type matcher struct {
	q      Query
	lo, hi int
	old    map[uint64][]Func // functions per recorded version
	fb     *bolt.Bucket
}

func (m *matcher) funcsOf(hash uint64) ([]Func, bool) {
	if fs, ok := m.old[hash]; ok {
		return fs, fs != nil
	}
	var fs []Func
	if raw := m.fb.Get(hashKey(hash)); raw != nil {
		if d, err := decodeFuncs(raw); err == nil {
			fs = d
		}
	}
	m.old[hash] = fs
	return fs, fs != nil
}

// changed answers one entry of an older version: through the functions
// whose name and canonical hash are unchanged, the asked lines inside
// them mapped to the old numbering. A hit when an asked line maps to an
// executed one; otherwise a reason to call it stale when an asked line
// could not be mapped; neither when every asked line was answered "not
// executed".
func (m *matcher) changed(hash uint64, lines []Span) (*Hit, string) {
	if m.q.Current == nil {
		return nil, "the file no longer exists"
	}
	old, ok := m.funcsOf(hash)
	if !ok || m.q.Funcs == nil {
		return nil, "the file changed since it was recorded and its functions are unknown"
	}
	hit := &Hit{By: "function"}
	unmapped := false
	used := map[int]bool{}
	for _, f := range m.q.Funcs {
		lo, hi := max(f.Start, m.lo), min(f.End, m.hi)
		if lo > hi {
			continue
		}
		o := matchFunc(old, f, used)
		if o == nil {
			unmapped = true
			continue
		}
		var got []Span
		if o.End-o.Start == f.End-f.Start { // same shape: line by line
			for _, s := range intersect(lines, o.Start+lo-f.Start, o.Start+hi-f.Start) {
				got = append(got, Span{s.Start - o.Start + f.Start, s.End - o.Start + f.Start})
			}
		} else if len(intersect(lines, o.Start, o.End)) > 0 { // reformatted: the function as a whole
			got = []Span{{lo, hi}}
		}
		if len(got) > 0 {
			hit.Lines = append(hit.Lines, got...)
			hit.Functions = append(hit.Functions, f.Name)
		}
	}
	// An asked line between functions is answered "not executed" when
	// the test executed no line outside functions then (Go never does).
	if m.outsideFuncs() && executedOutside(old, lines) {
		unmapped = true
	}
	switch {
	case len(hit.Lines) > 0:
		hit.Lines = Merge(hit.Lines)
		return hit, ""
	case unmapped:
		return nil, "the file changed since it was recorded and the lines lie outside its unchanged functions (run 'testdex run --coverage' again)"
	}
	return nil, ""
}

// outsideFuncs reports whether some asked line lies outside every
// current function.
func (m *matcher) outsideFuncs() bool {
	if m.hi-m.lo > 1<<20 { // the whole file
		return true
	}
	for l := m.lo; l <= m.hi; l++ {
		if !slices.ContainsFunc(m.q.Funcs, func(f Func) bool { return f.Start <= l && l <= f.End }) {
			return true
		}
	}
	return false
}

// executedOutside reports whether an executed line lies outside every
// recorded function (Go never has one; Python's module level does).
func executedOutside(old []Func, lines []Span) bool {
	for _, s := range lines {
		for l := s.Start; l <= s.End; l++ {
			if !slices.ContainsFunc(old, func(f Func) bool { return f.Start <= l && l <= f.End }) {
				return true
			}
		}
	}
	return false
}

// matchFunc finds the recorded function of f's name and hash (the next
// one not used yet, for repeated names such as Go's init).
func matchFunc(old []Func, f Func, used map[int]bool) *Func {
	for i := range old {
		if !used[i] && old[i].Name == f.Name && old[i].Hash == f.Hash {
			used[i] = true
			return &old[i]
		}
	}
	return nil
}

// String renders spans as "5", "5-7", "5-7,9".
func String(spans []Span) string {
	parts := make([]string, len(spans))
	for i, s := range spans {
		parts[i] = fmt.Sprint(s.Start)
		if s.End != s.Start {
			parts[i] += fmt.Sprintf("-%d", s.End)
		}
	}
	return strings.Join(parts, ",")
}
