package changes

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/testdex/testdex"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
)

// A Baseline is what a test file depended on when a run recorded its
// tests' coverage: the run's start (the records' Recorded) and the
// file's manifest then.
type Baseline struct {
	Recorded time.Time `json:"recorded"`
	Deps     Manifest  `json:"deps"`
}

// Unaffected returns the listed tests of the files in base that their
// coverage records vouch for: each has a usable record (recorded as
// passed or skipped, SelectCovered's recordsOf), all of its records come
// from one recording whose baseline base holds for the test's file, and
// SelectCovered, asked about the difference between that baseline's
// manifest and the file's current one (cur), does not select it.
//
// Why that is sound: the baseline lists every file the test could depend
// on by the static evidence, with its content when the test ran and
// passed; Diff names exactly the ones that changed since (added and
// deleted included); SelectCovered judges each of those against the
// versions the record saw, falling back on the static evidence (which
// selects the test: the file is in its closure) where coverage cannot
// tell, and on every rule (global files, [affected]). A test it does not
// select runs today as it ran then, so it passes, with SelectCovered's
// blind spots (nondeterminism, source read as data, child processes).
// A file whose current manifest is nil (nothing can vouch for it) gets
// nothing.
func (g *Graph) Unaffected(ix *index.Index, base map[string][]Baseline, cur map[string]Manifest, cov CoverageIndex) (map[string]bool, error) {
	tests, err := cov.AllTests()
	if err != nil {
		return nil, err
	}
	c := &covSel{ix: ix, tests: tests}
	sets := map[string]Set{}         // key -> change since a baseline
	members := map[string][]string{} // key -> the listed tests judged on it
	for _, t := range ix.Tests {
		bs, m := base[t.File], cur[t.File]
		if len(bs) == 0 || m == nil {
			continue
		}
		ids := c.recordsOf(t)
		if len(ids) == 0 {
			continue
		}
		when := tests[ids[0]].Recorded
		same := true
		for _, id := range ids[1:] {
			same = same && tests[id].Recorded.Equal(when)
		}
		set, ok := c.sinceBaselines(t.File, ids, when, base, cur)
		if !same || !ok {
			continue
		}
		key := setKey(set)
		sets[key], members[key] = set, append(members[key], t.ID)
	}
	out := map[string]bool{}
	for key, set := range sets {
		picked := map[string]bool{}
		if len(set) > 0 {
			affected, err := g.selectCovered(ix, set, cov, tests)
			if err != nil {
				return nil, err
			}
			for _, a := range affected {
				for _, t := range a.Tests {
					// A test picked picks its ancestors: a container or a
					// test whose row was selected alone (decideRows) runs.
					picked[t.ID] = true
					for id := t.Parent; id != "" && !picked[id]; id = c.namer()[id].Parent {
						picked[id] = true
					}
				}
			}
		}
		for _, id := range members[key] {
			if !picked[id] {
				out[id] = true
			}
		}
	}
	return out, nil
}

// sinceBaselines is what changed since the recording at when, for a test
// of file judged by its records ids: the difference between each
// baseline and the current manifest of its file and of the files of the
// tests that ran before those records in their process (what they
// executed may serve the test: SelectCovered judges it by them too);
// false when one of those files has no baseline of that recording or no
// current manifest.
func (c *covSel) sinceBaselines(file string, ids []string, when time.Time, base map[string][]Baseline, cur map[string]Manifest) (Set, bool) {
	files := []string{file}
	for _, id := range ids {
		for _, e := range c.earlierOf(id) {
			f, _ := testdex.SplitID(e)
			if f == "" {
				return nil, false
			}
			if !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	var set Set
	seen := map[string]int{} // path -> its place in set
	for _, f := range files {
		var b *Baseline
		for i := range base[f] {
			if base[f][i].Recorded.Equal(when) {
				b = &base[f][i]
			}
		}
		if b == nil || cur[f] == nil {
			return nil, false
		}
		for _, ch := range Diff(b.Deps, cur[f]) {
			i, ok := seen[ch.Path]
			switch {
			case !ok:
				seen[ch.Path] = len(set)
				set = append(set, ch)
			case set[i].Status == Modified:
				set[i] = ch // added or deleted for one file's closure: the static evidence's
			}
		}
	}
	sort.Slice(set, func(i, j int) bool { return set[i].Path < set[j].Path })
	return set, true
}

// setKey names a change set, to judge equal sets once.
func setKey(s Set) string {
	var b strings.Builder
	for _, c := range s {
		fmt.Fprintf(&b, "%s\x00%s\n", c.Path, c.Status)
	}
	return b.String()
}

var _ CoverageIndex = (*coverage.Index)(nil)
