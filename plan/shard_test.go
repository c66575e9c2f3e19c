package plan_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/plan"
)

// durations is a synthetic history.
type durations struct {
	tests, setups map[string]time.Duration
}

func (d durations) Test(id string) (time.Duration, bool) {
	v, ok := d.tests[id]
	return v, ok
}

func (d durations) Setup(unit string) (time.Duration, bool) {
	v, ok := d.setups[unit]
	return v, ok
}

// synthetic makes a plan of projects × files × tests (each test with a
// subtest, a few declared in another file), the whole of each project
// selected, and random durations for most tests.
func synthetic(r *rand.Rand, projects, files, tests int) (*plan.Plan, durations) {
	d := durations{tests: map[string]time.Duration{}, setups: map[string]time.Duration{}}
	p := &plan.Plan{Version: plan.Version}
	for pi := range projects {
		dir := fmt.Sprintf("p%d", pi)
		b := &plan.Batch{Name: dir + " go", Dir: dir, Framework: "go"}
		ps := lang.PathSelection{Path: ".", Dir: true}
		for fi := range files {
			file := fmt.Sprintf("%s/f%d_test.go", dir, fi)
			p.Listing.Files = append(p.Listing.Files, lang.ListedFile{Path: file, Framework: "go", Project: dir})
			for ti := range 1 + r.IntN(tests) {
				id := fmt.Sprintf("%s::T%d_%d", file, fi, ti)
				top := &testdex.Test{ID: id, Framework: "go", File: file, Line: ti + 1}
				sub := &testdex.Test{ID: id + "/sub", Framework: "go", File: file, Line: ti + 1, Parent: id}
				if ti%7 == 3 {
					sub.File = dir + "/base_test.go" // declared in another file (an inherited method)
				}
				ps.Tests = append(ps.Tests, top)
				b.Expected = append(b.Expected, top, sub)
				if r.IntN(5) > 0 {
					d.tests[sub.ID] = time.Duration(1+r.IntN(3000)) * time.Millisecond
				}
			}
		}
		b.Paths = []string{dir}
		b.Selection.Paths = []lang.PathSelection{ps}
		p.Batches = append(p.Batches, b)
		if pi%2 == 0 {
			d.setups[b.Name] = time.Duration(r.IntN(4000)) * time.Millisecond
		}
	}
	return p, d
}

// shardsText is everything a split decides, for comparing two splits.
func shardsText(t *testing.T, s *plan.Sharding) string {
	var buf bytes.Buffer
	for _, sh := range s.Shards {
		fmt.Fprintf(&buf, "shard %d %v %v\n", sh.Index, sh.Predicted, sh.Units)
		if err := sh.Plan.Write(&buf); err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

// TestSplitProperties splits random plans and checks every test is in
// exactly one shard, no shard is empty, and the same inputs (the plan
// read back from its document, as another machine holds it) give the
// same split.
func TestSplitProperties(t *testing.T) {
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 7))
		p, d := synthetic(r, 1+r.IntN(4), 1+r.IntN(12), 1+r.IntN(30))
		n := 1 + r.IntN(10)
		if _, err := plan.Split(p, n, plan.SplitOptions{Durations: d, RoundRobin: true}); err != nil {
			t.Fatalf("seed %d: round robin: %v", seed, err)
		}
		s, err := plan.Split(p, n, plan.SplitOptions{Durations: d})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var plans []*plan.Plan
		for _, sh := range s.Shards {
			plans = append(plans, sh.Plan)
			if len(sh.Units) == 0 || len(sh.Plan.Batches) == 0 {
				t.Fatalf("seed %d: shard %d is empty", seed, sh.Index)
			}
			checkShares(t, seed, sh)
		}
		if err := plan.Verify(p, plans); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(s.Shards) > n || (len(s.Shards) < n) != (s.Note != "") {
			t.Fatalf("seed %d: %d shards of %d asked, note %q", seed, len(s.Shards), n, s.Note)
		}
		var doc bytes.Buffer
		if err := p.Write(&doc); err != nil {
			t.Fatal(err)
		}
		again, err := plan.Read(&doc)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := plan.Split(again, n, plan.SplitOptions{Durations: d})
		if err != nil {
			t.Fatal(err)
		}
		if a, b := shardsText(t, s), shardsText(t, s2); a != b {
			t.Fatalf("seed %d: the same plan split twice differs", seed)
		}
	}
}

// checkShares checks a shard's per-batch predictions: one per batch of
// its plan, in order, summing to its predicted time.
func checkShares(t *testing.T, seed uint64, sh *plan.Shard) {
	t.Helper()
	var sum time.Duration
	if len(sh.Batches) != len(sh.Plan.Batches) {
		t.Fatalf("seed %d: shard %d: %d batch shares for %d batches", seed, sh.Index, len(sh.Batches), len(sh.Plan.Batches))
	}
	for i, b := range sh.Batches {
		if b.Name != sh.Plan.Batches[i].Name || b.Setup <= 0 {
			t.Fatalf("seed %d: shard %d: share %d is %+v, batch %s", seed, sh.Index, i, b, sh.Plan.Batches[i].Name)
		}
		sum += b.Setup + b.Tests
	}
	if sum != sh.Predicted {
		t.Fatalf("seed %d: shard %d: shares sum to %s, predicted %s", seed, sh.Index, sum, sh.Predicted)
	}
}

// TestVerifyCatches checks Verify names a test run twice, a test run by
// no shard and an empty shard.
func TestVerifyCatches(t *testing.T) {
	p, d := synthetic(rand.New(rand.NewPCG(1, 2)), 2, 4, 5)
	s, err := plan.Split(p, 3, plan.SplitOptions{Durations: d})
	if err != nil {
		t.Fatal(err)
	}
	shards := []*plan.Plan{s.Shards[0].Plan, s.Shards[1].Plan, s.Shards[2].Plan}
	twice := append(shards[:3:3], s.Shards[0].Plan)
	if err := plan.Verify(p, twice); err == nil || !strings.Contains(err.Error(), "in 2 shard(s)") {
		t.Errorf("a shard given twice: %v", err)
	}
	if err := plan.Verify(p, shards[:2]); err == nil || !strings.Contains(err.Error(), "in 0 shard(s)") {
		t.Errorf("a shard left out: %v", err)
	}
	empty := append(shards[:3:3], &plan.Plan{})
	if err := plan.Verify(p, empty); err == nil || !strings.Contains(err.Error(), "shard 4 has nothing to run") {
		t.Errorf("an empty shard: %v", err)
	}
}

// TestSplitLongestFirst checks the packing on known durations: files of
// 6, 5, 4, 3, 2 seconds in one batch without setup into 2 shards give
// 6+3+2 and 5+4 (longest first, each to the least loaded shard).
func TestSplitLongestFirst(t *testing.T) {
	p := &plan.Plan{Version: plan.Version}
	b := &plan.Batch{Name: ". pytest", Dir: ".", Framework: "pytest", Paths: []string{"."}}
	ps := lang.PathSelection{Path: ".", Dir: true}
	d := durations{tests: map[string]time.Duration{}, setups: map[string]time.Duration{". pytest": 0}}
	for i, secs := range []int{2, 6, 3, 5, 4} {
		file := fmt.Sprintf("t%d.py", i)
		rec := &testdex.Test{ID: file + "::test", Framework: "pytest", File: file}
		ps.Tests = append(ps.Tests, rec)
		b.Expected = append(b.Expected, rec)
		d.tests[rec.ID] = time.Duration(secs) * time.Second
	}
	b.Selection.Paths = []lang.PathSelection{ps}
	p.Batches = []*plan.Batch{b}
	s, err := plan.Split(p, 2, plan.SplitOptions{Durations: d})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(s.Shards[0].Predicted, s.Shards[0].Units, s.Shards[1].Predicted, s.Shards[1].Units)
	want := "11s [. pytest: t0.py . pytest: t1.py . pytest: t2.py] 9s [. pytest: t3.py . pytest: t4.py]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if s.Max() != 11*time.Second || s.Mean() != 10*time.Second {
		t.Errorf("max %v mean %v", s.Max(), s.Mean())
	}
	for _, sh := range s.Shards {
		for _, sel := range sh.Plan.Batches[0].Selection.Paths {
			if sel.Dir || len(sel.Tests) != 1 {
				t.Errorf("shard %d selects %+v, want one file", sh.Index, sel)
			}
		}
	}
}

// TestSplitDominantFile checks a file holding most of the time is broken
// into its tests by ID, and that fewer units than shards give fewer
// shards, said.
func TestSplitDominantFile(t *testing.T) {
	p := &plan.Plan{Version: plan.Version}
	b := &plan.Batch{Name: ". jest", Dir: ".", Framework: "jest", Paths: []string{"."}}
	ps := lang.PathSelection{Path: ".", Dir: true}
	d := durations{tests: map[string]time.Duration{}, setups: map[string]time.Duration{". jest": time.Second}}
	add := func(file, name string, secs int) {
		rec := &testdex.Test{ID: file + "::" + name, Framework: "jest", File: file}
		ps.Tests = append(ps.Tests, rec)
		b.Expected = append(b.Expected, rec)
		d.tests[rec.ID] = time.Duration(secs) * time.Second
	}
	for i := range 4 {
		add("big.test.js", fmt.Sprintf("slow %d", i), 10)
	}
	add("small.test.js", "quick", 1)
	b.Selection.Paths = []lang.PathSelection{ps}
	p.Batches = []*plan.Batch{b}
	s, err := plan.Split(p, 4, plan.SplitOptions{Durations: d})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Shards) != 4 || s.Max() > 12*time.Second {
		t.Fatalf("%d shards, max %v: the big file was not broken up (%v)", len(s.Shards), s.Max(), s.Shards[0].Units)
	}
	if sel := s.Shards[0].Plan.Batches[0].Selection; len(sel.Tests) != 1 {
		t.Errorf("shard 1 selects %+v, want one test by ID", sel)
	}
	few, err := plan.Split(p, 9, plan.SplitOptions{Durations: d})
	if err != nil {
		t.Fatal(err)
	}
	if len(few.Shards) != 5 || !strings.Contains(few.Note, "fewer than the 9 shards") || few.Shard(6) != nil {
		t.Errorf("9 shards of 5 units: %d shards, note %q", len(few.Shards), few.Note)
	}
}

// TestSplitSharedSelector checks a dominant file is not broken into its
// top-level tests where a runner's selector of one also selects a record
// under another (node --test-name-pattern matches a title at any depth:
// "^one$" runs the top-level "one" and the describe's "group > one"),
// which two shards would then both run and report; and that it is broken
// where the selectors differ.
func TestSplitSharedSelector(t *testing.T) {
	split := func(nested string) *plan.Sharding {
		p := &plan.Plan{Version: plan.Version}
		b := &plan.Batch{Name: ". node", Dir: ".", Framework: "node", Paths: []string{"."}}
		ps := lang.PathSelection{Path: ".", Dir: true}
		d := durations{tests: map[string]time.Duration{}, setups: map[string]time.Duration{". node": time.Second}}
		add := func(file, name, run, parent string, secs int) {
			rec := &testdex.Test{ID: file + "::" + name, Framework: "node", File: file, Run: run, Parent: parent}
			if parent == "" {
				ps.Tests = append(ps.Tests, rec)
			}
			b.Expected = append(b.Expected, rec)
			d.tests[rec.ID] = time.Duration(secs) * time.Second
		}
		add("big.test.js", "one", "^one$", "", 10)
		add("big.test.js", "two", "^two$", "", 10)
		add("big.test.js", "group", "^group$", "", 0)
		add("big.test.js", "group > "+nested, "^"+nested+"$", "big.test.js::group", 10)
		add("small.test.js", "quick", "^quick$", "", 1)
		b.Selection.Paths = []lang.PathSelection{ps}
		p.Batches = []*plan.Batch{b}
		s, err := plan.Split(p, 3, plan.SplitOptions{Durations: d})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := split("one"); len(s.Shards) != 2 {
		t.Errorf("big.test.js was broken up though ^one$ selects a test under group too: %d shards %v", len(s.Shards), shardsText(t, s))
	}
	if s := split("three"); len(s.Shards) != 3 {
		t.Errorf("big.test.js was not broken up, its selectors apart: %d shards %v", len(s.Shards), shardsText(t, s))
	}
}

// BenchmarkSplit10k splits a plan of 10,000 tests (20 projects of 50
// files) into 8 shards: `testdex plan` answers in well under a second.
func BenchmarkSplit10k(b *testing.B) {
	p, d := synthetic(rand.New(rand.NewPCG(3, 4)), 20, 50, 19)
	for b.Loop() {
		if _, err := plan.Split(p, 8, plan.SplitOptions{Durations: d}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.Leaves()), "tests")
}

// TestRecorded reads durations from runs' events: a test's elapsed time
// (summed over its runs under one ID), a batch's setup as its wall time
// less its top-level tests' (never negative; the mean over the shards
// that ran it), nothing for a batch never seen.
func TestRecorded(t *testing.T) {
	r := plan.NewRecorded()
	for _, e := range []testdex.Event{
		{Action: testdex.ActionStart, Batch: "a go"},
		{Action: testdex.ActionPass, Batch: "a go", ID: "a/x_test.go::TestX", Elapsed: 1.5},
		{Action: testdex.ActionPass, Batch: "a go", ID: "a/x_test.go::TestX/sub", Parent: "a/x_test.go::TestX", Elapsed: 1.0},
		{Action: testdex.ActionFail, Batch: "a go", ID: "a/x_test.go::TestY", Elapsed: 0.5},
		{Action: testdex.ActionFail, Batch: "a go", ID: "a/x_test.go::TestY", Occurrence: 1, Elapsed: 0.25},
		{Action: testdex.ActionOutput, Batch: "a go", ID: "a/x_test.go::TestY", Elapsed: 9},
		{Action: testdex.ActionFail, Batch: "a go", Elapsed: 5},
		{Action: testdex.ActionPass, Batch: "b go", ID: "b/y_test.go::TestZ", Elapsed: 3},
		{Action: testdex.ActionPass, Batch: "b go", Elapsed: 1},
		// another shard's run of batch a: its setup counts in the mean
		{Action: testdex.ActionStart, Batch: "a go"},
		{Action: testdex.ActionPass, Batch: "a go", ID: "a/z_test.go::TestW", Elapsed: 1},
		{Action: testdex.ActionPass, Batch: "a go", Elapsed: 2.25},
	} {
		if err := r.Event(e); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, got time.Duration, ok bool, want time.Duration, wantOK bool) {
		t.Helper()
		if got != want || ok != wantOK {
			t.Errorf("%s: %v %v, want %v %v", what, got, ok, want, wantOK)
		}
	}
	d, ok := r.Test("a/x_test.go::TestY")
	check("TestY, run twice", d, ok, 750*time.Millisecond, true)
	d, ok = r.Test("a/x_test.go::TestX/sub")
	check("a subtest", d, ok, time.Second, true)
	d, ok = r.Setup("a go")
	check("a's setup, the mean of its two runs' (2.75 s and 1.25 s)", d, ok, 2*time.Second, true)
	d, ok = r.Setup("b go")
	check("b's setup, tests longer than the batch", d, ok, 0, true)
	d, ok = r.Setup("c go")
	check("a batch never seen", d, ok, 0, false)
	// Per file: a's first run, 2.75 s over one file (2 s start, 0.75 s a
	// file), its second 1.25 s over one (1.25 s start): the means.
	c, ok := r.SetupFiles("a go")
	check("a's start", c.Start, ok, 1625*time.Millisecond, true)
	check("a's cost per file", c.PerFile, ok, 375*time.Millisecond, true)
	_, ok = r.SetupFiles("c go")
	check("a batch never seen, per file", 0, ok, 0, false)
	// Per folder: each of a's runs held one folder (a/).
	d, ok = r.SetupPerFolder("a go")
	check("a's setup per folder", d, ok, 2*time.Second, true)
}

// TestSplitFolderRuns: where the runner runs a file through its folder, a
// file without listed tests is not a unit beside its folder's other files
// (selected alone it would run them all again in another shard), but is
// one in a folder of its own; elsewhere every file is a unit.
func TestSplitFolderRuns(t *testing.T) {
	p := &plan.Plan{Version: plan.Version}
	b := &plan.Batch{Name: ". go", Dir: ".", Framework: "go", Paths: []string{"."}}
	ps := lang.PathSelection{Path: ".", Dir: true}
	for _, f := range []string{"a/x_test.go", "a/y_test.go", "a/helpers_test.go", "b/only_test.go"} {
		p.Listing.Files = append(p.Listing.Files, lang.ListedFile{Path: f, Framework: "go", Project: "."})
		if f == "a/helpers_test.go" || f == "b/only_test.go" {
			continue
		}
		rec := &testdex.Test{ID: f + "::TestX", Framework: "go", File: f}
		ps.Tests = append(ps.Tests, rec)
		b.Expected = append(b.Expected, rec)
	}
	b.Selection.Paths = []lang.PathSelection{ps}
	p.Batches = []*plan.Batch{b}
	units := func(o plan.SplitOptions) string {
		s, err := plan.Split(p, 4, o)
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		for _, sh := range s.Shards {
			all = append(all, sh.Units...)
		}
		sort.Strings(all)
		return strings.Join(all, ", ")
	}
	folder := units(plan.SplitOptions{FolderRuns: func(fw testdex.Framework) bool { return fw == "go" }})
	if want := ". go: a/x_test.go, . go: a/y_test.go, . go: b/only_test.go"; folder != want {
		t.Errorf("folder runs: %s\nwant %s", folder, want)
	}
	if got, want := units(plan.SplitOptions{}), ". go: a/helpers_test.go, . go: a/x_test.go, . go: a/y_test.go, . go: b/only_test.go"; got != want {
		t.Errorf("file runs: %s\nwant %s", got, want)
	}
}

// TestSplitSetupUnits: a shard pays each setup unit it touches once; where
// the runner runs files through their folder, each folder is a unit,
// priced by its own record, else by its share of the batch's.
func TestSplitSetupUnits(t *testing.T) {
	p := &plan.Plan{Version: plan.Version}
	b := &plan.Batch{Name: ". go", Dir: ".", Framework: "go", Paths: []string{"."}}
	ps := lang.PathSelection{Path: ".", Dir: true}
	d := durations{tests: map[string]time.Duration{}, setups: map[string]time.Duration{". go": 4 * time.Second, ". go:c": time.Second}}
	for _, f := range []string{"a/x_test.go", "b/y_test.go", "c/z_test.go"} {
		p.Listing.Files = append(p.Listing.Files, lang.ListedFile{Path: f, Framework: "go", Project: "."})
		rec := &testdex.Test{ID: f + "::TestX", Framework: "go", File: f}
		ps.Tests = append(ps.Tests, rec)
		b.Expected = append(b.Expected, rec)
		d.tests[rec.ID] = 10 * time.Second
	}
	b.Selection.Paths = []lang.PathSelection{ps}
	p.Batches = []*plan.Batch{b}
	predicted := func(o plan.SplitOptions) string { return predictedShards(t, p, 3, o) }
	folders := plan.SplitOptions{Durations: d, FolderRuns: func(testdex.Framework) bool { return true }}
	if got, want := predicted(folders), "11.333333333s 11.333333333s 11s"; got != want {
		t.Errorf("folder units: %s, want %s (a and b a third of the batch's 4 s, c its own 1 s)", got, want)
	}
	if got, want := predicted(plan.SplitOptions{Durations: d}), "14s 14s 14s"; got != want {
		t.Errorf("batch units: %s, want %s (each shard pays the batch's 4 s)", got, want)
	}
	// Records that know their folders (the batch's 4 s was a shard's run
	// of two packages): a and b 2 s each, not a third of the 4 s.
	perFolder := plan.SplitOptions{Durations: folderDurations{d, 2 * time.Second}, FolderRuns: folders.FolderRuns}
	if got, want := predicted(perFolder), "12s 12s 11s"; got != want {
		t.Errorf("folder units per folder: %s, want %s", got, want)
	}
	if got := plan.SetupUnit(b, "a/x_test.go", true); got != ". go:a" {
		t.Errorf("SetupUnit = %q", got)
	}
}

// TestRecordedSetupRows: a batch's setup is its wall time less its
// outermost reported tests': a pytest row counts (its function reports
// no result), a Go subtest does not (its test's time holds it).
func TestRecordedSetupRows(t *testing.T) {
	r := plan.NewRecorded()
	for _, e := range []testdex.Event{
		{Batch: "py pytest", Action: testdex.ActionStart},
		{Batch: "py pytest", ID: "t.py::f[1]", Parent: "t.py::f", Action: testdex.ActionPass, Elapsed: 2},
		{Batch: "py pytest", ID: "t.py::f[2]", Parent: "t.py::f", Action: testdex.ActionPass, Elapsed: 3},
		{Batch: "py pytest", Action: testdex.ActionPass, Elapsed: 6},
		{Batch: ". go", Action: testdex.ActionStart},
		{Batch: ". go", ID: "a_test.go::TestA/x", Parent: "a_test.go::TestA", Action: testdex.ActionPass, Elapsed: 1},
		{Batch: ". go", ID: "a_test.go::TestA", Action: testdex.ActionPass, Elapsed: 1.5},
		{Batch: ". go", Action: testdex.ActionPass, Elapsed: 4},
	} {
		r.Event(e)
	}
	if d, _ := r.Setup("py pytest"); d != time.Second {
		t.Errorf("pytest setup %v, want 1s (6s less its rows' 5s)", d)
	}
	if d, _ := r.Setup(". go"); d != 2500*time.Millisecond {
		t.Errorf("go setup %v, want 2.5s (4s less TestA's 1.5s)", d)
	}
}

// TestSplitSetupPerFile: where a framework's setup grows with its files
// (SetupPerFile), a shard pays a fixed start of at most DefaultSetup and
// each file its share of the rest; elsewhere every shard pays the whole
// recorded setup.
func TestSplitSetupPerFile(t *testing.T) {
	p := &plan.Plan{Version: plan.Version}
	b := &plan.Batch{Name: ". pytest", Dir: ".", Framework: "pytest", Paths: []string{"."}}
	ps := lang.PathSelection{Path: ".", Dir: true}
	d := durations{tests: map[string]time.Duration{}, setups: map[string]time.Duration{". pytest": 10 * time.Second}}
	for i := range 4 {
		f := fmt.Sprintf("t%d_test.py", i)
		p.Listing.Files = append(p.Listing.Files, lang.ListedFile{Path: f, Framework: "pytest", Project: "."})
		rec := &testdex.Test{ID: f + "::test_x", Framework: "pytest", File: f}
		ps.Tests = append(ps.Tests, rec)
		b.Expected = append(b.Expected, rec)
		d.tests[rec.ID] = 3 * time.Second
	}
	b.Selection.Paths = []lang.PathSelection{ps}
	p.Batches = []*plan.Batch{b}
	predicted := func(o plan.SplitOptions) string { return predictedShards(t, p, 2, o) }
	perFile := plan.SplitOptions{Durations: d, SetupPerFile: func(testdex.Framework) bool { return true }}
	// 2 s start + two files of 3 s and 2 s each (the 8 s rest over 4 files).
	if got, want := predicted(perFile), "12s 12s"; got != want {
		t.Errorf("setup per file: %s, want %s", got, want)
	}
	if got, want := predicted(plan.SplitOptions{Durations: d}), "16s 16s"; got != want {
		t.Errorf("fixed setup: %s, want %s (each shard pays the batch's 10 s)", got, want)
	}
	// Records that price each file (a shard's record of one file, whose
	// setup, 1.5 s, would price the whole batch far too low): the 1 s
	// start once, and each file's 2 s.
	d.setups[". pytest"] = 1500 * time.Millisecond
	files := plan.SplitOptions{Durations: fileDurations{d, time.Second, 2 * time.Second, 0}, SetupPerFile: perFile.SetupPerFile}
	if got, want := predicted(files), "11s 11s"; got != want {
		t.Errorf("setup per file from records: %s, want %s", got, want)
	}
}

// TestSplitSetupPerTest: where the records price a setup per top-level
// test (what pytest spends around each row), a file of 100 cheap rows
// pays for its rows, and a file of one test of the same duration does
// not; a file broken into its functions gives each the share of its rows.
func TestSplitSetupPerTest(t *testing.T) {
	p := &plan.Plan{Version: plan.Version}
	b := &plan.Batch{Name: ". pytest", Dir: ".", Framework: "pytest", Paths: []string{"."}}
	ps := lang.PathSelection{Path: ".", Dir: true}
	d := durations{tests: map[string]time.Duration{}, setups: map[string]time.Duration{}}
	add := func(rec *testdex.Test, dur time.Duration) {
		b.Expected = append(b.Expected, rec)
		if dur > 0 {
			d.tests[rec.ID] = dur
		}
	}
	for _, f := range []string{"one_test.py", "rows_test.py"} {
		p.Listing.Files = append(p.Listing.Files, lang.ListedFile{Path: f, Framework: "pytest", Project: "."})
	}
	one := &testdex.Test{ID: "one_test.py::test_slow", Framework: "pytest", File: "one_test.py"}
	add(one, 3*time.Second)
	rows := &testdex.Test{ID: "rows_test.py::test_rows", Framework: "pytest", File: "rows_test.py"}
	add(rows, 0)
	for i := range 100 {
		add(&testdex.Test{ID: fmt.Sprintf("rows_test.py::test_rows[%d]", i), Parent: rows.ID, Framework: "pytest", File: "rows_test.py"}, 30*time.Millisecond)
	}
	ps.Tests = []*testdex.Test{one, rows}
	b.Selection.Paths = []lang.PathSelection{ps}
	p.Batches = []*plan.Batch{b}
	o := plan.SplitOptions{Durations: fileDurations{d, time.Second, 0, 20 * time.Millisecond}, SetupPerFile: func(testdex.Framework) bool { return true }}
	// Each shard: 1 s start; 3 s and 20 ms for one test; 3 s and 2 s for
	// 100 rows.
	if got, want := predictedShards(t, p, 2, o), "6s 4.02s"; got != want {
		t.Errorf("setup per test: %s, want %s", got, want)
	}
	if got, want := predictedShards(t, p, 2, plan.SplitOptions{Durations: fileDurations{d, time.Second, 0, 0}, SetupPerFile: o.SetupPerFile}), "4s 4s"; got != want {
		t.Errorf("no setup per test: %s, want %s", got, want)
	}
}

// TestRecordedSetupPerTest: three runs of one batch whose setups grow
// with their tests, not their files, give a cost per test.
func TestRecordedSetupPerTest(t *testing.T) {
	r := plan.NewRecorded()
	for run, tests := range []int{10, 100, 400} {
		r.Event(testdex.Event{Batch: "p pytest", Action: testdex.ActionStart})
		for i := range tests {
			r.Event(testdex.Event{Batch: "p pytest", ID: fmt.Sprintf("a_test.py::t[%d-%d]", run, i), Action: testdex.ActionPass, Elapsed: 0.001})
		}
		// 1 s start and 2 ms a test, beyond the tests' own 1 ms each.
		r.Event(testdex.Event{Batch: "p pytest", Action: testdex.ActionPass, Elapsed: 1 + 0.003*float64(tests)})
	}
	c, ok := r.SetupFiles("p pytest")
	if near := func(a, b time.Duration) bool { return (a - b).Abs() < time.Millisecond/10 }; !ok || !near(c.Start, time.Second) || !near(c.PerTest, 2*time.Millisecond) || c.PerFile > time.Millisecond/10 {
		t.Errorf("SetupFiles = %+v, %v; want a 1 s start and 2 ms a test", c, ok)
	}
}

// folderDurations are durations whose every batch has a setup per
// folder (plan.FolderDurations).
type folderDurations struct {
	durations
	perFolder time.Duration
}

func (d folderDurations) SetupPerFolder(string) (time.Duration, bool) { return d.perFolder, true }

// fileDurations are durations whose every unit has a start, a cost per
// file and one per top-level test (plan.FileDurations).
type fileDurations struct {
	durations
	start, perFile, perTest time.Duration
}

func (d fileDurations) SetupFiles(string) (plan.SetupCost, bool) {
	return plan.SetupCost{Start: d.start, PerFile: d.perFile, PerTest: d.perTest}, true
}

// TestSplitSetupFirst: a unit whose setup is large (a Maven module's
// start) is placed while the shards are still empty, as its whole price
// says, not after the cheaper items of others as its small items would
// have it; so its items share one shard and one setup, and the shards
// stay level.
func TestSplitSetupFirst(t *testing.T) {
	p := &plan.Plan{Version: plan.Version}
	d := durations{tests: map[string]time.Duration{}, setups: map[string]time.Duration{"a junit": 10 * time.Second, "b go": 0}}
	for _, c := range []struct {
		batch, fw string
		n         int
		each      time.Duration
	}{{"a junit", "junit", 3, time.Second}, {"b go", "go", 8, 1500 * time.Millisecond}} {
		dir := c.batch[:1]
		b := &plan.Batch{Name: c.batch, Dir: dir, Framework: testdex.Framework(c.fw), Paths: []string{dir}}
		ps := lang.PathSelection{Path: ".", Dir: true}
		for i := range c.n {
			f := fmt.Sprintf("%s/t%d", dir, i)
			p.Listing.Files = append(p.Listing.Files, lang.ListedFile{Path: f, Framework: testdex.Framework(c.fw), Project: dir})
			rec := &testdex.Test{ID: f + "::T", Framework: testdex.Framework(c.fw), File: f}
			ps.Tests = append(ps.Tests, rec)
			b.Expected = append(b.Expected, rec)
			d.tests[rec.ID] = c.each
		}
		b.Selection.Paths = []lang.PathSelection{ps}
		p.Batches = append(p.Batches, b)
	}
	s, err := plan.Split(p, 2, plan.SplitOptions{Durations: d})
	if err != nil {
		t.Fatal(err)
	}
	touching := 0
	for _, sh := range s.Shards {
		if sh.Predicted > 13500*time.Millisecond {
			t.Errorf("shard %d predicted %s: the 10 s setup placed late (want both near 12.5 s)", sh.Index, sh.Predicted)
		}
		for _, b := range sh.Plan.Batches {
			if b.Name == "a junit" {
				touching++
			}
		}
	}
	if touching != 1 {
		t.Errorf("the 10 s unit is in %d shards, paying its setup each time", touching)
	}
}

// predictedShards splits p into n shards and returns each shard's
// predicted time, space-separated.
func predictedShards(t *testing.T, p *plan.Plan, n int, o plan.SplitOptions) string {
	t.Helper()
	s, err := plan.Split(p, n, o)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sh := range s.Shards {
		out = append(out, sh.Predicted.String())
	}
	return strings.Join(out, " ")
}
