package plan

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// itemsOf returns the units of batch i: each file under a selected folder
// on its own (found in the listing's files of the batch's project and
// framework), each selected file, each test selected by ID. A batch whose
// project lies above the root, or whose paths do not match its
// selection's, stays whole. With folderRuns (see SplitOptions), a file
// under a folder without listed tests is left out when another file of
// its folder holds some (the shard running those builds the folder with
// it), else kept.
func (in *batchInfo) itemsOf(i int, files []lang.ListedFile, folderRuns bool) []*item {
	b := in.b
	if strings.HasPrefix(b.Dir, "..") || len(b.Paths) != len(b.Selection.Paths) {
		return []*item{in.wholeItem(i)}
	}
	var out []*item
	seen := map[string]bool{}
	for k, ps := range b.Selection.Paths {
		if !ps.Dir {
			if !seen[b.Paths[k]] {
				seen[b.Paths[k]] = true
				out = append(out, in.fileItem(i, b.Paths[k], ps.Path, ps.Tests))
			}
			continue
		}
		byFile, ok := filesUnder(b, b.Paths[k], ps.Tests, files)
		if !ok {
			return []*item{in.wholeItem(i)}
		}
		listed := map[string]bool{} // folders with a file holding listed tests
		for f, tests := range byFile {
			if len(tests) > 0 {
				listed[path.Dir(f)] = true
			}
		}
		for _, f := range sortedKeys(byFile) {
			if folderRuns && len(byFile[f]) == 0 && listed[path.Dir(f)] {
				continue
			}
			if !seen[f] {
				seen[f] = true
				out = append(out, in.fileItem(i, f, lang.ProjectRel(b.Dir, f), byFile[f]))
			}
		}
	}
	for _, t := range b.Selection.Tests {
		out = append(out, &item{batch: i, file: t.File, tests: []*testdex.Test{t},
			key: b.Name + "\x00" + t.File + "\x00" + t.ID, cost: in.cost(t, 0)})
	}
	return out
}

// filesUnder groups the records of a folder's selection by file, with
// the listed files of the batch under it that hold none; ok is false when
// a record has no file under the folder (the folder cannot be split into
// files without losing it).
func filesUnder(b *Batch, dir string, tests []*testdex.Test, files []lang.ListedFile) (map[string][]*testdex.Test, bool) {
	byFile := map[string][]*testdex.Test{}
	for _, f := range files {
		if f.Project == b.Dir && f.Framework == b.Framework && under(f.Path, dir) {
			byFile[f.Path] = nil
		}
	}
	for _, t := range tests {
		if t.File == "" || !under(t.File, dir) {
			return nil, false
		}
		byFile[t.File] = append(byFile[t.File], t)
	}
	return byFile, true
}

func under(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (in *batchInfo) wholeItem(i int) *item {
	var cost time.Duration
	for _, t := range in.b.Selection.Records() {
		cost += in.cost(t, 0)
	}
	if cost == 0 {
		cost = in.median
	}
	return &item{batch: i, whole: true, key: in.b.Name, cost: cost}
}

func (in *batchInfo) fileItem(i int, file, rel string, tests []*testdex.Test) *item {
	it := &item{batch: i, file: file, ps: &lang.PathSelection{Path: rel, Tests: tests}, key: in.b.Name + "\x00" + file}
	for _, t := range tests {
		it.cost += in.cost(t, 0)
	}
	if len(tests) == 0 {
		it.cost = in.median // a file whose tests are known only when it runs
	}
	return it
}

// breakDominant replaces each file whose cost exceeds DominantShare of
// the mean shard by its top-level tests, selected by ID, where that is
// safe (see MaxBroken).
func breakDominant(items []*item, infos []*batchInfo, n int) []*item {
	var total time.Duration
	for _, it := range items {
		total += it.cost
	}
	for _, in := range infos {
		for _, d := range in.setups {
			total += d
		}
	}
	limit := time.Duration(float64(total) / float64(n) * DominantShare)
	out := items[:0:0]
	for _, it := range items {
		if it.ps == nil || it.cost <= limit || !breakable(it.ps.Tests) || !apart(it.ps.Tests, infos[it.batch]) {
			out = append(out, it)
			continue
		}
		in := infos[it.batch]
		in.broken = true
		// What the file cost beyond its tests (its share of a setup that
		// grows with the files and tests) goes with its tests, in shares
		// by the results each reports (a setup priced per test grows with
		// a function's rows).
		var tests time.Duration
		for _, t := range it.ps.Tests {
			tests += in.cost(t, 0)
		}
		extra, leaves := max(0, it.cost-tests), in.outermost(it)
		for _, t := range it.ps.Tests {
			share := extra * time.Duration(in.leaves(t, 0)) / time.Duration(leaves)
			out = append(out, &item{batch: it.batch, file: it.file, tests: []*testdex.Test{t},
				key: it.key + "\x00" + t.ID, cost: in.cost(t, 0) + share, unit: it.unit})
		}
	}
	return out
}

// SetupUnit names the setup unit a file of batch b belongs to: the
// batch (b.Name), or, where the runner runs files through their folder
// (SplitOptions.FolderRuns: go test builds each package), "BATCH:FOLDER"
// with the file's root-relative folder. Durations.Setup is asked by it.
func SetupUnit(b *Batch, file string, folderRuns bool) string {
	if !folderRuns || file == "" {
		return b.Name
	}
	return b.Name + ":" + path.Dir(file)
}

// priceSetups names each item's setup unit and prices the units: a
// recorded setup of the unit, else, for a folder, its share of the
// batch's recorded setup (per folder of the recorded runs where the
// records know them, FolderDurations; else the batch's over the plan's
// folders), else DefaultSetup.
func (in *batchInfo) priceSetups(items []*item, perFile bool) {
	in.setups = map[string]time.Duration{}
	count := map[string]int{}
	for _, it := range items {
		it.unit = SetupUnit(in.b, it.file, in.folderRuns)
		in.setups[it.unit] = 0
		count[it.unit]++
	}
	batch, known := in.d.Setup(in.b.Name)
	if fd, ok := in.d.(FolderDurations); ok && in.folderRuns {
		if v, ok := fd.SetupPerFolder(in.b.Name); ok {
			batch, known = v*time.Duration(len(in.setups)), true
		}
	}
	for u := range in.setups {
		switch v, ok := in.d.Setup(u); {
		case ok:
			in.setups[u] = v
		case known:
			in.setups[u] = batch / time.Duration(len(in.setups))
		default:
			in.setups[u] = DefaultSetup
		}
	}
	if !perFile {
		return
	}
	// A setup that grows with the files: the shard pays a start of at
	// most DefaultSetup once, and each item carries its share of the
	// rest (one run of the whole unit still costs the setup recorded),
	// or, where the records price each file, its files' cost.
	fd, _ := in.d.(FileDurations)
	share := map[string]time.Duration{}
	files := map[string]map[string]bool{}
	for _, it := range items {
		if files[it.unit] == nil {
			files[it.unit] = map[string]bool{}
		}
		files[it.unit][it.file] = true
	}
	perTest := map[string]time.Duration{}
	for u, v := range in.setups {
		if fd != nil {
			if c, ok := fd.SetupFiles(u); ok {
				in.setups[u] = min(c.Start, DefaultSetup)
				share[u] = c.PerFile * time.Duration(len(files[u])) / time.Duration(count[u])
				perTest[u] = c.PerTest
				continue
			}
		}
		if fixed := min(v, DefaultSetup); v > fixed {
			in.setups[u] = fixed
			share[u] = (v - fixed) / time.Duration(count[u])
		}
	}
	for _, it := range items {
		it.cost += share[it.unit] + perTest[it.unit]*time.Duration(in.outermost(it))
	}
}

// outermost is how many top-level results an item's run reports, as the
// records count them (plan.Recorded, history.Unit.Count): the leaves of
// its records (a pytest function's rows report, the function does not),
// at least one.
func (in *batchInfo) outermost(it *item) int {
	tests := it.tests
	if it.ps != nil {
		tests = it.ps.Tests
	}
	n := 0
	for _, t := range tests {
		n += in.leaves(t, 0)
	}
	return max(n, 1)
}

// leaves is the number of t's records without children (t itself when it
// has none).
func (in *batchInfo) leaves(t *testdex.Test, depth int) int {
	kids := in.children[t.ID]
	if len(kids) == 0 || depth > 64 {
		return 1
	}
	n := 0
	for _, c := range kids {
		n += in.leaves(c, depth+1)
	}
	return n
}

// breakable reports whether a file's top-level records may run apart by
// ID: more than one, at most MaxBroken, all named statically, no ID twice
// (a selection by ID runs every record of that ID), no benchmark (named by
// ID, a benchmark runs; under a path, it does not).
func breakable(tests []*testdex.Test) bool {
	if len(tests) < 2 || len(tests) > MaxBroken {
		return false
	}
	seen := map[string]bool{}
	for _, t := range tests {
		if t.Dynamic || seen[t.ID] || t.Kind == testdex.KindBenchmark {
			return false
		}
		seen[t.ID] = true
	}
	return true
}

// apart reports whether the runner's selectors of a file's top-level
// records select each one's tree alone: no selector (lang.Test.Run) is
// shared by records under two of them. node --test-name-pattern matches
// a test's own title at any depth, so a shard running a top-level test
// "one" also ran the "one" of a describe beside it, which the describe's
// shard ran too (both reported it, and the merge failed).
func apart(tests []*testdex.Test, in *batchInfo) bool {
	owner := map[string]string{}
	for _, top := range tests {
		stack := []*testdex.Test{top}
		for depth := 0; len(stack) > 0 && depth < 1<<16; depth++ {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if t.Run != "" {
				if o, ok := owner[t.Run]; ok && o != top.ID {
					return false
				}
				owner[t.Run] = top.ID
			}
			stack = append(stack, in.children[t.ID]...)
		}
	}
	return true
}

// pack places the items, largest first, into k shards: the first k one
// each (no shard is empty), then each where the shard's time grows least
// (its cost, and its setup unit's if the shard does not touch the unit
// yet), the lowest shard on a tie.
func pack(items []*item, infos []*batchInfo, k int) [][]*item {
	parts := make([][]*item, k)
	loads := make([]time.Duration, k)
	touched := make([]map[string]bool, k)
	for s := range touched {
		touched[s] = map[string]bool{}
	}
	for i, it := range items {
		setup := infos[it.batch].setups[it.unit]
		best := i
		if i >= k {
			best = 0
			var bestLoad time.Duration
			for s := range k {
				load := loads[s] + it.cost
				if !touched[s][it.unit] {
					load += setup
				}
				if s == 0 || load < bestLoad {
					best, bestLoad = s, load
				}
			}
		}
		if !touched[best][it.unit] {
			loads[best] += setup
			touched[best][it.unit] = true
		}
		loads[best] += it.cost
		parts[best] = append(parts[best], it)
	}
	return parts
}

// build makes shard index's plan of its items: per batch it touches (in
// the plan's order), the batch itself when the shard holds all of it
// unbroken, else a batch selecting its files by path and its tests by ID
// and expecting their records. The plan's unrunnable and unchanged
// records go to the first shard, so they are said once.
func build(p *Plan, infos []*batchInfo, part []*item, index int, same bool) *Shard {
	sh := &Shard{Index: index}
	if same {
		sh.Plan = p
	} else {
		sh.Plan = &Plan{Version: p.Version, Listing: p.Listing}
		if index == 1 {
			sh.Plan.Unrunnable, sh.Plan.Unchanged, sh.Plan.UnchangedReason = p.Unrunnable, p.Unchanged, p.UnchangedReason
		}
	}
	byBatch := map[int][]*item{}
	units := map[string]bool{}
	shares := map[int]*BatchPrediction{}
	for _, it := range part {
		byBatch[it.batch] = append(byBatch[it.batch], it)
		share := shares[it.batch]
		if share == nil {
			share = &BatchPrediction{Name: p.Batches[it.batch].Name}
			shares[it.batch] = share
		}
		share.Tests += it.cost
		if !units[it.unit] {
			units[it.unit] = true
			share.Setup += infos[it.batch].setups[it.unit]
		}
	}
	for i, b := range p.Batches {
		its := byBatch[i]
		if len(its) == 0 {
			continue
		}
		sh.Batches = append(sh.Batches, *shares[i])
		sh.Predicted += shares[i].Setup + shares[i].Tests
		sort.Slice(its, func(x, y int) bool { return its[x].key < its[y].key })
		for _, it := range its {
			sh.Units = append(sh.Units, it.label(b))
		}
		if same {
			continue
		}
		if len(its) == infos[i].items && !infos[i].broken {
			sh.Plan.Batches = append(sh.Plan.Batches, b)
			continue
		}
		sh.Plan.Batches = append(sh.Plan.Batches, subBatch(b, its))
	}
	return sh
}

// subBatch is b restricted to the items its: their files by path, their
// tests by ID, the records of both expected (a record with its top-level
// test, which is its file's).
func subBatch(b *Batch, its []*item) *Batch {
	nb := &Batch{Name: b.Name, Dir: b.Dir, Framework: b.Framework, Settings: b.Settings, Outside: b.Outside,
		Project: b.Project, Setup: b.Setup}
	files, ids := map[string]bool{}, map[string]bool{}
	nb.Selection.Within = within(b.Selection)
	for _, it := range its {
		if it.ps != nil {
			files[it.file] = true
			nb.Paths = append(nb.Paths, it.file)
			nb.Selection.Paths = append(nb.Selection.Paths, *it.ps)
			continue
		}
		for _, t := range it.tests {
			ids[t.ID] = true
			nb.Selection.Tests = append(nb.Selection.Tests, t)
		}
	}
	byID := make(map[string]*testdex.Test, len(b.Expected))
	for _, t := range b.Expected {
		if byID[t.ID] == nil {
			byID[t.ID] = t
		}
	}
	for _, t := range b.Expected {
		if selectedAbove(t, ids, byID) || files[topOf(t, byID).File] {
			nb.Expected = append(nb.Expected, t)
		}
	}
	return nb
}

// within is what a part of sel is cut from (lang.Selection.Within):
// sel's paths, without their records, where one of them is a folder
// (files and tests named one by one are what the runner is handed
// anyway), else nil.
func within(sel lang.Selection) []lang.PathSelection {
	if len(sel.Within) > 0 {
		return sel.Within
	}
	var out []lang.PathSelection
	dir := false
	for _, ps := range sel.Paths {
		out = append(out, lang.PathSelection{Path: ps.Path, Dir: ps.Dir})
		dir = dir || ps.Dir
	}
	if !dir {
		return nil
	}
	return out
}

// topOf returns t's outermost expected ancestor (t itself at top level):
// a record goes where its top-level test goes, whatever file declares it.
func topOf(t *testdex.Test, byID map[string]*testdex.Test) *testdex.Test {
	for range 64 {
		up := byID[t.Parent]
		if t.Parent == "" || up == nil {
			return t
		}
		t = up
	}
	return t
}

// selectedAbove reports whether t or one of its ancestors is selected by
// ID.
func selectedAbove(t *testdex.Test, ids map[string]bool, byID map[string]*testdex.Test) bool {
	for range 64 {
		if ids[t.ID] {
			return true
		}
		up := byID[t.Parent]
		if t.Parent == "" || up == nil {
			return false
		}
		t = up
	}
	return false
}

// Verify checks that shards run full once: every expected record of each
// batch in exactly one shard, every test selected by ID selected by
// exactly one, the unrunnable and unchanged records said by exactly one,
// and no shard with nothing to run. Its error names the first test that
// is missing or twice, or the empty shard.
func Verify(full *Plan, shards []*Plan) error {
	want, got := map[string]int{}, map[string]int{}
	count := func(m map[string]int, p *Plan) {
		for _, b := range p.Batches {
			for _, t := range b.Expected {
				m[b.Name+"\x00"+t.ID]++
			}
			for _, t := range b.Selection.Tests {
				m[b.Name+"\x00selected\x00"+t.ID]++
			}
		}
		for _, t := range p.Unrunnable {
			m["\x00unrunnable\x00"+t.ID]++
		}
		for _, t := range p.Unchanged {
			m["\x00unchanged\x00"+t.ID]++
		}
	}
	count(want, full)
	for i, sh := range shards {
		if len(sh.Batches)+len(sh.Unrunnable)+len(sh.Unchanged) == 0 {
			return fmt.Errorf("shard %d has nothing to run", i+1)
		}
		count(got, sh)
	}
	for _, k := range sortedKeys(want) {
		if got[k] != want[k] {
			return fmt.Errorf("%s is in %d shard(s); the plan has it %d time(s)", describe(k), got[k], want[k])
		}
	}
	for _, k := range sortedKeys(got) {
		byID := strings.Contains(k, "\x00selected\x00") // a file broken into its tests selects them anew
		switch {
		case want[k] == 0 && !byID:
			return fmt.Errorf("%s is in a shard but not in the plan", describe(k))
		case want[k] == 0 && got[k] > 1:
			return fmt.Errorf("%s is selected by %d shards", describe(k), got[k])
		}
	}
	return nil
}

// describe words a Verify key.
func describe(k string) string {
	parts := strings.Split(k, "\x00")
	return fmt.Sprintf("test %s (%s)", parts[len(parts)-1], strings.Join(parts[:len(parts)-1], " "))
}
