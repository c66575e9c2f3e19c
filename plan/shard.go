package plan

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/costfit"
	"github.com/testdex/testdex/internal/lang"
)

// Durations are the recorded durations a split predicts with: a test's
// own duration by ID, and the setup cost of a unit (SetupUnit: a batch, or
// one folder of a batch whose runner runs files through their folder; the
// process start, the build, the collection a shard pays once for each
// unit it touches). An implementation picks the records of the
// environment it predicts for (the matching profile when it holds enough
// of them, else all). A nil Durations knows nothing.
type Durations interface {
	Test(id string) (time.Duration, bool)
	Setup(unit string) (time.Duration, bool)
}

// FileDurations is a Durations that also prices a setup which grows with
// the files a runner collects and the tests it runs
// (SplitOptions.SetupPerFile) from records that know their files and
// tests: SetupFiles is the unit's start (at most DefaultSetup), its cost
// per file and per top-level test (internal/costfit). A split then
// predicts a run of the unit as start + files × PerFile + tests ×
// PerTest, however many the records' runs held (a shard's record holds a
// few, a full run's all).
type FileDurations interface {
	Durations
	SetupFiles(unit string) (SetupCost, bool)
}

// SetupCost is a unit's setup as a start, a cost per file it collects and
// a cost per top-level test it runs (what the runner spends around each
// test, beyond the test's own duration).
type SetupCost struct {
	Start, PerFile, PerTest time.Duration
}

// setupCost is m as a SetupCost.
func setupCost(m costfit.Model) SetupCost {
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	return SetupCost{Start: sec(m.Start), PerFile: sec(m.PerFile), PerTest: sec(m.PerTest)}
}

// FolderDurations is a Durations that also prices a folder's share of a
// batch's setup where the runner runs files through their folders (go
// test builds and starts each package: SplitOptions.FolderRuns) from
// records that know how many folders each run held: SetupPerFolder is
// the batch's setup over its folders, per run. A shard's record of two
// packages and a full run's of forty then price a package alike, where
// dividing either's setup by the plan's packages would not.
type FolderDurations interface {
	Durations
	SetupPerFolder(batch string) (time.Duration, bool)
}

// The defaults a split takes without records: a test of a batch none of
// whose tests has a recorded duration costs DefaultTest, a batch without
// a recorded setup costs DefaultSetup. A test without a record in a batch
// that has some costs the median of that batch's recorded tests.
const (
	DefaultTest  = 100 * time.Millisecond
	DefaultSetup = 2 * time.Second
)

// A file whose predicted time exceeds DominantShare of a shard's mean is
// broken into its top-level tests, selected by ID, unless it has more
// than MaxBroken of them (a selection by ID is a command line), only one,
// a record named only at run time, two records with one ID, a
// benchmark, or a runner's selector shared by records under two of them
// (apart).
const (
	DominantShare = 0.5
	MaxBroken     = 500
)

// SplitOptions are how Split prices and places the units.
type SplitOptions struct {
	// Durations price the tests and setups (nil: the defaults).
	Durations Durations
	// RoundRobin deals the units out in name order, whatever their
	// durations (no file broken up): the naive baseline a benchmark
	// measures the packing against. Durations then only predict.
	RoundRobin bool
	// FolderRuns reports whether a framework's runner runs a file
	// through its folder (lang.Framework.FolderRuns): a file without
	// listed tests then goes with the other files of its folder rather
	// than on its own, where it would run all of them again.
	FolderRuns func(testdex.Framework) bool
	// SetupPerFile reports whether most of a framework's setup grows with
	// the files it runs (lang.Framework.SetupPerFile): a shard then pays
	// a fixed start (at most DefaultSetup) and, with each item it takes,
	// the item's share of the rest of its unit's recorded setup.
	SetupPerFile func(testdex.Framework) bool
}

// Sharding is a plan split into shards that run apart and together run
// the plan once: every selected test in exactly one shard.
type Sharding struct {
	// Requested is the number of shards asked for; len(Shards) is fewer
	// when the plan has fewer units than that (Note says so).
	Requested int
	Shards    []*Shard
	Note      string
}

// Shard is one part of a split plan.
type Shard struct {
	Index int // 1-based, as Jest's and Playwright's --shard
	Plan  *Plan
	// Predicted is the shard's predicted time: its units' durations and
	// the setup of each batch it touches.
	Predicted time.Duration
	// Units are the files, tests and whole batches it runs, "BATCH: FILE"
	// or "BATCH: ID".
	Units []string
	// Batches split Predicted by the batch that runs it, in the plan's
	// order: what a shard's measured batch times are compared with.
	Batches []BatchPrediction
}

// BatchPrediction is one batch's share of a shard's predicted time: the
// setups of the units it touches and the cost of its items.
type BatchPrediction struct {
	Name         string
	Setup, Tests time.Duration
}

// Max is the longest predicted shard time.
func (s *Sharding) Max() time.Duration {
	var m time.Duration
	for _, sh := range s.Shards {
		m = max(m, sh.Predicted)
	}
	return m
}

// Mean is the mean predicted shard time.
func (s *Sharding) Mean() time.Duration {
	if len(s.Shards) == 0 {
		return 0
	}
	var sum time.Duration
	for _, sh := range s.Shards {
		sum += sh.Predicted
	}
	return sum / time.Duration(len(s.Shards))
}

// Shard returns shard k (1-based) of a split into n, or nil when the
// plan had fewer units than k: that shard has nothing to run.
func (s *Sharding) Shard(k int) *Shard {
	if k < 1 || k > len(s.Shards) {
		return nil
	}
	return s.Shards[k-1]
}

// item is what packing places: a file selected by path, a test selected
// by ID, or a batch kept whole.
type item struct {
	batch int
	file  string              // root-relative file, "" for a whole batch
	ps    *lang.PathSelection // selected by path
	tests []*testdex.Test     // selected by ID
	whole bool
	key   string
	cost  time.Duration
	unit  string // its setup unit (SetupUnit)
}

func (it *item) label(b *Batch) string {
	switch {
	case it.whole:
		return b.Name
	case it.ps != nil:
		return b.Name + ": " + it.file
	}
	return b.Name + ": " + it.tests[0].ID
}

// batchInfo is what costing a batch's records needs.
type batchInfo struct {
	b        *Batch
	children map[string][]*testdex.Test
	median   time.Duration
	setup    time.Duration
	d        Durations
	// folderRuns: each folder is a setup unit of its own (see
	// SplitOptions.FolderRuns and SetupUnit), priced in setups.
	folderRuns bool
	setups     map[string]time.Duration
	items      int
	broken     bool
}

// Split splits p into at most n shards by longest-processing-time-first
// packing: each unit (a file selected by path, a test selected by ID, a
// dominant file broken into its tests) goes, largest first, to the shard
// whose predicted time grows least, counting the setup of each batch a
// shard touches once. The same plan and durations give the same shards on
// every machine: ties are broken by name, never by map order. A plan with
// fewer units than n gives fewer shards (Note says so); n = 1 gives p
// itself. The result is checked with Verify before it is returned.
func Split(p *Plan, n int, o SplitOptions) (*Sharding, error) {
	if n < 1 {
		return nil, fmt.Errorf("%d shards: at least 1", n)
	}
	d, roundRobin := o.Durations, o.RoundRobin
	if d == nil {
		d = noDurations{}
	}
	infos := make([]*batchInfo, len(p.Batches))
	var items []*item
	for i, b := range p.Batches {
		infos[i] = newBatchInfo(b, d)
		infos[i].folderRuns = o.FolderRuns != nil && o.FolderRuns(b.Framework)
		its := infos[i].itemsOf(i, p.Listing.Files, infos[i].folderRuns)
		infos[i].priceSetups(its, o.SetupPerFile != nil && o.SetupPerFile(b.Framework))
		items = append(items, its...)
	}
	if n > 1 && !roundRobin {
		items = breakDominant(items, infos, n)
	}
	for _, it := range items {
		infos[it.batch].items++
	}
	rank := ranks(items, infos)
	sort.SliceStable(items, func(i, j int) bool {
		if ri, rj := rank[items[i]], rank[items[j]]; ri != rj && !roundRobin {
			return ri > rj
		}
		return items[i].key < items[j].key
	})
	k := max(1, min(n, len(items)))
	s := &Sharding{Requested: n}
	if k < n {
		s.Note = fmt.Sprintf("the plan has %d unit(s) to run, fewer than the %d shards asked: %d shard(s) run them, the others have nothing to run", len(items), n, k)
	}
	var parts [][]*item
	if roundRobin {
		parts = make([][]*item, k)
		for i, it := range items {
			parts[i%k] = append(parts[i%k], it)
		}
	} else {
		parts = pack(items, infos, k)
	}
	for i, part := range parts {
		s.Shards = append(s.Shards, build(p, infos, part, i+1, n == 1))
	}
	var plans []*Plan
	for _, sh := range s.Shards {
		plans = append(plans, sh.Plan)
	}
	if err := Verify(p, plans); err != nil {
		return nil, fmt.Errorf("the split is wrong (a defect of testdex): %w", err)
	}
	return s, nil
}

// ranks orders the packing: an item's cost, and for the costliest item
// of each setup unit its unit's setup too. The shard that first touches a
// unit pays its setup, so a unit whose setup is large (a Maven module's
// start) is placed as early as its whole price says, while the shards are
// still empty, rather than as late as its small items would have it, after
// which the shard it lands on would be over the others by that setup.
func ranks(items []*item, infos []*batchInfo) map[*item]time.Duration {
	first := map[[2]any]*item{}
	rank := make(map[*item]time.Duration, len(items))
	for _, it := range items {
		rank[it] = it.cost
		k := [2]any{it.batch, it.unit}
		if f, ok := first[k]; !ok || it.cost > f.cost || it.cost == f.cost && it.key < f.key {
			first[k] = it
		}
	}
	for k, it := range first {
		rank[it] += infos[k[0].(int)].setups[it.unit]
	}
	return rank
}

type noDurations struct{}

func (noDurations) Test(string) (time.Duration, bool)  { return 0, false }
func (noDurations) Setup(string) (time.Duration, bool) { return 0, false }

// newBatchInfo indexes b's expected records and prices its unknowns.
func newBatchInfo(b *Batch, d Durations) *batchInfo {
	in := &batchInfo{b: b, children: map[string][]*testdex.Test{}, setup: DefaultSetup, d: d}
	for _, t := range b.Expected {
		if t.Parent != "" {
			in.children[t.Parent] = append(in.children[t.Parent], t)
		}
	}
	var known []time.Duration
	for _, t := range b.Expected {
		if len(in.children[t.ID]) == 0 {
			if v, ok := d.Test(t.ID); ok {
				known = append(known, v)
			}
		}
	}
	in.median = DefaultTest
	if len(known) > 0 {
		slices.Sort(known)
		in.median = known[len(known)/2]
	}
	if v, ok := d.Setup(b.Name); ok {
		in.setup = v
	}
	return in
}

// cost is a record's predicted duration: its own recorded one, else the
// sum of its children's, else the batch's median.
func (in *batchInfo) cost(t *testdex.Test, depth int) time.Duration {
	if v, ok := in.d.Test(t.ID); ok {
		return v
	}
	kids := in.children[t.ID]
	if len(kids) == 0 || depth > 64 {
		return in.median
	}
	var sum time.Duration
	for _, c := range kids {
		sum += in.cost(c, depth+1)
	}
	return sum
}
