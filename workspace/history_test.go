package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// TestImportRecorded: each recorded report of a real tool, run on a run
// fixture (history/testdata/import, with the commands beside them), is
// named by that fixture's listing: every result but those the listing
// cannot see, each under a listed ID or under a listed test; each import
// is one run.
func TestImportRecorded(t *testing.T) {
	cases := []struct {
		root     string
		imports  [][]string
		unmapped []string // names of the results the listing cannot hold
		example  [2]string
	}{
		{"python", [][]string{{"pytest.xml"}, {"pytest-xunit1.xml"}}, []string{"test_made", "test_made"},
			[2]string{"test_rows[1]", "test_run.py::TestGroup::test_rows[1]"}},
		{"go", [][]string{{"gotest.json"}, {"gotestsum.xml"}}, nil, [2]string{"TestTable/bad", "run_test.go::TestTable/bad"}},
		{"junit", [][]string{{"surefire-RunTest.xml", "surefire-RowsTest.xml", "surefire-LegacyTest.xml"},
			{"surefire-rerun-RunTest-Inner.xml", "surefire-rerun-RunTest.xml"}}, nil,
			[2]string{"rows(int)[2]", "src/test/java/run/RunTest.java::RunTest.rows(int)[2]"}},
		{"node/vitest", [][]string{{"vitest.xml"}}, nil, [2]string{"math > double 2 is 5", "test/math.test.js::math > double 2 is 5"}},
		{"cargo", [][]string{{"nextest.xml"}}, nil, [2]string{"integration", "tests/more.rs::integration"}},
		{"node/jest", [][]string{{"jest-junit.xml"}}, nil, [2]string{"math double 2 is 5", "__tests__/math.test.js::math > double 2 is 5"}},
	}
	for _, c := range cases {
		t.Run(c.root, func(t *testing.T) {
			root, _ := filepath.Abs(filepath.Join("../testdata/run", c.root))
			ws, err := Open(index.Options{Root: root, Dir: root}, t.TempDir(), os.Environ())
			if err != nil {
				t.Fatal(err)
			}
			ix, err := ws.List(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "h.json")
			var unmapped []string
			results, attempts := 0, 0
			for _, names := range c.imports {
				var files []string
				for _, f := range names {
					files = append(files, filepath.Join("../history/testdata/import", f))
				}
				res, err := ws.ImportHistory(context.Background(), ix, ImportRequest{Files: files, History: out, Profile: "ci", Commit: "abc"}, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range res {
					results, attempts = results+r.Results, attempts+r.Attempts
					if r.Mapped != r.Results-len(r.Unmapped) {
						t.Errorf("%s: %d mapped of %d, %d unmapped", r.File, r.Mapped, r.Results, len(r.Unmapped))
					}
					for _, u := range r.Unmapped {
						unmapped = append(unmapped, u.Name)
					}
				}
			}
			if !slices.Equal(unmapped, c.unmapped) {
				t.Errorf("unmapped %q, want %q", unmapped, c.unmapped)
			}
			h, err := history.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			listed := map[string]testdex.Test{}
			for _, tt := range ix.Tests {
				listed[tt.ID] = tt
			}
			n := ix.NewNamer()
			seen := map[string]int{}
			for _, a := range h.Attempts {
				seen[a.ID]++
				if _, ok := listed[a.ID]; !ok {
					if p, _ := n.ForID(a.ID); p.Parent == "" || listed[p.Parent].ID == "" {
						t.Errorf("%s is neither listed nor under a listed test", a.ID)
					}
				}
			}
			if len(h.Attempts) != attempts || attempts < results-len(unmapped) || len(h.Runs) != len(c.imports) {
				t.Errorf("%d attempts of %d runs kept; %d imported from %d results (%d unmapped) of %d imports",
					len(h.Attempts), len(h.Runs), attempts, results, len(unmapped), len(c.imports))
			}
			if seen[c.example[1]] == 0 {
				t.Errorf("%q not named %q (named: %v)", c.example[0], c.example[1], seen)
			}
			for _, r := range h.Runs {
				if r.Commit != "abc" || r.Profile.Label != "ci" {
					t.Errorf("run %+v", r)
				}
			}
		})
	}
}

// TestImportRerun: Surefire's rerun of a failure, written into another
// report file of the same run, is the test's second attempt in that run;
// importing the files again, in the other order, adds nothing.
func TestImportRerun(t *testing.T) {
	root, _ := filepath.Abs("../testdata/run/junit")
	ws, err := Open(index.Options{Root: root, Dir: root}, t.TempDir(), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	ix, err := ws.List(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	first, rerun := "../history/testdata/import/surefire-rerun-RunTest-Inner.xml", "../history/testdata/import/surefire-rerun-RunTest.xml"
	out := filepath.Join(t.TempDir(), "h.json")
	for _, files := range [][]string{{first, rerun}, {rerun, first}} {
		if _, err := ws.ImportHistory(context.Background(), ix, ImportRequest{Files: files, History: out}, nil); err != nil {
			t.Fatal(err)
		}
	}
	h, err := history.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	var fail []history.Attempt
	for _, a := range h.Attempts {
		if a.ID == "src/test/java/run/RunTest.java::RunTest.fail()" {
			fail = append(fail, a)
		}
	}
	if len(h.Runs) != 1 || len(fail) != 2 || fail[0].Attempt != 0 || fail[1].Attempt != 1 || fail[0].Outcome != history.Fail || fail[1].Outcome != history.Fail {
		t.Errorf("%d runs; the attempts of RunTest.fail: %+v", len(h.Runs), fail)
	}
	if d := h.Durations("")["src/test/java/run/RunTest.java::RunTest.fail()"]; d.Runs != 1 || d.Failed != 1 || d.Timed != 2 {
		t.Errorf("figures %+v", d)
	}
}

// TestRunAppendsHistory: a run appends each test's result and its
// batch's cost to the history, under the profile given.
func TestRunAppendsHistory(t *testing.T) {
	ws, _ := open(t)
	ix, err := ws.List(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "h.json")
	for i := range 2 {
		sum, err := ws.Run(context.Background(), ix, run.Request{Paths: []string{"a"}, History: file, Profile: "small", Shards: 3 * i}, nil)
		if err != nil || sum.Passed != 1 {
			t.Fatalf("run: %+v, %v", sum, err)
		}
	}
	h, err := history.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	d := h.Durations("small")["a/a_test.go::TestA"]
	if d.Runs != 2 || d.Outcome != history.Pass || len(h.Runs) != 2 {
		t.Fatalf("TestA: %+v; history %+v", d, h)
	}
	shards := 0
	for _, r := range h.Runs {
		if r.Profile.Cores == 0 || r.Profile.OS == "" || r.Source != "run" {
			t.Errorf("run %+v", r)
		}
		shards += r.Shards
	}
	if shards != 3 {
		t.Errorf("the runs' shards add up to %d, want 0 and 3", shards)
	}
	s := h.Setup("small")[". go"]
	if s.Runs != 2 || s.Mean <= 0 {
		t.Errorf("setup of the go batch: %+v (units %+v)", s, h.Units)
	}
	for _, u := range h.Units {
		if u.Setup != max(0, u.Wall-u.Tests) || u.Count != 1 {
			t.Errorf("unit %+v", u)
		}
	}
}

// TestHistoryDurationsPerFile: a split reading a history prices a unit
// whose records know their files by its start and cost per file (the
// plan's FileDurations), and tests by their recent median.
func TestHistoryDurationsPerFile(t *testing.T) {
	h := history.Merge(&history.History{
		Runs:     []history.Run{{ID: "full"}},
		Attempts: []history.Attempt{{Run: "full", ID: "a.py::t", Outcome: history.Pass, Duration: 0.5}},
		Units:    []history.Unit{{Run: "full", Unit: ". pytest", Setup: 12, Files: 20}, {Run: "full", Unit: ". go", Setup: 1, Folders: 4}},
	})
	d, ok := HistoryDurations(h, "", 0).(plan.FileDurations)
	if !ok {
		t.Fatal("history durations do not price setups per file")
	}
	if c, ok := d.SetupFiles(". pytest"); !ok || c.Start != 2*time.Second || c.PerFile != 500*time.Millisecond || c.PerTest != 0 {
		t.Errorf("pytest's setup: %+v (%v), want 2s + 500ms a file (one run: nothing per test)", c, ok)
	}
	if _, ok := d.SetupFiles(". go"); ok {
		t.Error("a unit recorded without its files has a cost per file")
	}
	if v, ok := HistoryDurations(h, "", 0).(plan.FolderDurations).SetupPerFolder(". go"); !ok || v != 250*time.Millisecond {
		t.Errorf("go's setup per folder: %v (%v), want 250ms", v, ok)
	}
	if v, ok := d.Test("a.py::t"); !ok || v != 500*time.Millisecond {
		t.Errorf("test: %v %v", v, ok)
	}
}

// TestHistoryDurationsPreferSplit: a test is priced from the runs split as
// the prediction is (a shard of N, or the whole selection) when it has
// some, profile first: a gc-heavy test slow beside the whole suite is
// quick in an eighth of it.
func TestHistoryDurationsPreferSplit(t *testing.T) {
	var runs []history.Run
	var attempts []history.Attempt
	add := func(id, label string, shards int, d float64) {
		runs = append(runs, history.Run{ID: id, Time: time.Date(2026, 11, 28, 0, len(runs), 0, 0, time.UTC),
			Profile: history.Profile{Label: label}, Shards: shards})
		attempts = append(attempts, history.Attempt{Run: id, ID: "t.py::leak", Outcome: history.Pass, Duration: d})
	}
	add("whole1", "", 0, 1.0)
	add("whole2", "", 0, 1.1)
	add("whole3", "", 0, 1.0)
	add("eighth1", "", 8, 0.2)
	add("eighth2", "", 8, 0.3)
	add("big", "large", 0, 0.5)
	h := history.Merge(&history.History{Runs: runs, Attempts: attempts})
	for _, c := range []struct {
		label  string
		shards int
		want   time.Duration
	}{
		{"", 8, 250 * time.Millisecond},      // the two eighths
		{"", 0, 1000 * time.Millisecond},     // the whole runs (1.0, 1.1, 1.0, 0.5)
		{"", 4, 500 * time.Millisecond},      // none split in four: the newest five of all
		{"large", 8, 500 * time.Millisecond}, // the profile before the split
		{"small", 8, 250 * time.Millisecond}, // no run of the profile: the split's
	} {
		got, ok := HistoryDurations(h, c.label, c.shards).Test("t.py::leak")
		if !ok || got != c.want {
			t.Errorf("label %q, %d shards: %v (%v), want %v", c.label, c.shards, got, ok, c.want)
		}
	}
}
