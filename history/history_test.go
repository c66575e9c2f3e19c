package history

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testdex/testdex"
)

// reports are the recorded reports of the real tools (testdata/import,
// each with the command that made it beside it).
func reports(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob("testdata/import/*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		if filepath.Ext(f) == ".cmd" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	if len(out) < 8 {
		t.Fatalf("%d recorded reports", len(out))
	}
	return out
}

// fromFile is the history of one recorded report, each result named by
// its classname and name (no listing needed to test the store).
func fromFile(t *testing.T, name string, data []byte, label string) *History {
	t.Helper()
	rep, err := Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r := Run{ID: ImportRunID(data), Time: rep.Time, Commit: "c0ffee", Profile: Local(label), Source: rep.Format + " " + name}
	h, lost := FromReport(rep, r, func(res Reported) (string, string) { return res.Class + "::" + res.Name, "" }, nil)
	if len(lost) > 0 {
		t.Fatalf("%s: lost %v", name, lost)
	}
	return h
}

func encode(t *testing.T, h *History) string {
	t.Helper()
	var buf bytes.Buffer
	if err := h.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestMergeIdempotentCommutative: histories of several machines merge to
// the same bytes in any order, merging one again changes nothing, and
// what a file holds reads back as written.
func TestMergeIdempotentCommutative(t *testing.T) {
	var hs []*History
	for name, data := range reports(t) {
		hs = append(hs, fromFile(t, name, data, "linux-"+name[:3]))
	}
	a, b, c := Merge(hs[:3]...), Merge(hs[3:6]...), Merge(hs[6:]...)
	ab, ba := encode(t, Merge(a, b)), encode(t, Merge(b, a))
	if ab != ba {
		t.Errorf("Merge(a, b) != Merge(b, a):\n%s\n---\n%s", ab, ba)
	}
	if got := encode(t, Merge(Merge(a, b), c)); got != encode(t, Merge(a, Merge(c, b))) {
		t.Error("the grouping of three merges changes the result")
	}
	if got := encode(t, Merge(a, a)); got != encode(t, a) {
		t.Error("Merge(a, a) != a")
	}
	if got := encode(t, Merge(Merge(a, b), b)); got != ab {
		t.Error("merging b again changed Merge(a, b)")
	}
	all := Merge(hs...)
	back, err := Read(bytes.NewReader([]byte(encode(t, all))))
	if err != nil {
		t.Fatal(err)
	}
	if encode(t, back) != encode(t, all) {
		t.Error("a history read back differs")
	}
	n := 0
	for _, h := range hs {
		n += len(h.Attempts)
	}
	if len(all.Attempts) != n || len(all.Runs) != len(hs) {
		t.Errorf("merged %d attempts of %d runs; the inputs hold %d of %d", len(all.Attempts), len(all.Runs), n, len(hs))
	}
}

// TestMergeConflict: two records under one key that disagree (a run
// imported on two machines with different clocks) merge to the same one
// whichever comes first.
func TestMergeConflict(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	x := &History{Runs: []Run{{ID: "r", Time: at, Commit: "a"}}, Attempts: []Attempt{{Run: "r", ID: "t", Outcome: Pass, Duration: 1}}}
	y := &History{Runs: []Run{{ID: "r", Time: at, Commit: "b"}}, Attempts: []Attempt{{Run: "r", ID: "t", Outcome: Fail, Duration: 2}}}
	if encode(t, Merge(x, y)) != encode(t, Merge(y, x)) {
		t.Error("the order of conflicting records decides the merge")
	}
	if m := Merge(x, y); len(m.Runs) != 1 || len(m.Attempts) != 1 {
		t.Errorf("one key kept twice: %+v", m)
	}
}

// many is a history of n runs, an hour apart, of tests t0..t(k-1).
func many(n, k int, prefix string) *History {
	h := &History{}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		id := fmt.Sprintf("%s%03d", prefix, i)
		h.Runs = append(h.Runs, Run{ID: id, Time: at.Add(time.Duration(i) * time.Hour)})
		for j := range k {
			h.Attempts = append(h.Attempts, Attempt{Run: id, ID: fmt.Sprintf("t%d", j), Outcome: Pass, Duration: float64(i)})
		}
		h.Units = append(h.Units, Unit{Run: id, Unit: ". go", Wall: float64(i) + 1, Setup: 1})
	}
	return h
}

// TestBounded: a test keeps the attempts of its last KeptRuns runs, a
// unit its last KeptRuns, and the whole history the newest maxAttempts
// attempts; runs nothing names any more go.
func TestBounded(t *testing.T) {
	h := Merge(many(KeptRuns+10, 2, "r"))
	if len(h.Attempts) != 2*KeptRuns || len(h.Units) != KeptRuns || len(h.Runs) != KeptRuns {
		t.Fatalf("kept %d attempts, %d units, %d runs", len(h.Attempts), len(h.Units), len(h.Runs))
	}
	if d := h.Durations("")["t0"]; d.Runs != KeptRuns || d.Last != float64(KeptRuns+9) || d.Max != d.Last {
		t.Errorf("t0: %+v (the newest runs are kept)", d)
	}
	defer func(n int) { maxAttempts = n }(maxAttempts)
	maxAttempts = 25
	h = Merge(many(20, 3, "r"))
	if len(h.Attempts) != 25 {
		t.Fatalf("kept %d attempts, want 25", len(h.Attempts))
	}
	for _, a := range h.Attempts {
		if a.Duration < 11 { // runs 12..19 whole (24 attempts) and one of run 11
			t.Errorf("kept %+v of an old run", a)
		}
	}
}

// TestDurations: the figures of a test per profile: runs, failed runs,
// mean and median of the timed attempts, the last outcome.
func TestDurations(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := Merge(&History{
		Runs: []Run{{ID: "a", Time: at, Profile: Profile{Label: "big"}}, {ID: "b", Time: at.Add(time.Hour), Profile: Profile{Label: "big"}},
			{ID: "c", Time: at.Add(2 * time.Hour), Profile: Profile{Label: "small"}}},
		Attempts: []Attempt{
			{Run: "a", ID: "x", Outcome: Pass, Duration: 1},
			{Run: "b", ID: "x", Outcome: Fail, Duration: 2},
			{Run: "b", ID: "x", Attempt: 1, Outcome: Pass, Duration: 6},
			{Run: "b", ID: "x", Attempt: 2, Outcome: Fail, Untimed: true},
			{Run: "c", ID: "x", Outcome: Skip},
		},
		Units: []Unit{{Run: "a", Unit: ". go", Setup: 0.5}, {Run: "b", Unit: ". go", Setup: 1.5}},
	})
	big := h.Durations("big")["x"]
	want := Stat{Runs: 2, Timed: 3, Mean: 3, Median: 2, Max: 6, Last: 6, Recent: 2, Outcome: Fail, Failed: 1}
	if big != want {
		t.Errorf("big: %+v, want %+v", big, want)
	}
	if all := h.Durations("")["x"]; all.Runs != 3 || all.Outcome != Skip || all.Timed != 3 {
		t.Errorf("every profile: %+v", all)
	}
	if s := h.Setup("big")[". go"]; s.Runs != 2 || s.Mean != 1 || s.Last != 1.5 {
		t.Errorf("setup: %+v", s)
	}
	if got := h.Labels(); fmt.Sprint(got) != "[big small]" {
		t.Errorf("labels %q", got)
	}
}

// TestDurationsRecent: a plan reads a test's newest RecentRuns
// durations (Recent), not the median of every run kept, and a setup that
// grows with the files as a start and a cost per file, the same from a
// full run's record and a shard's.
func TestDurationsRecent(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := &History{}
	for i, d := range []float64{9, 9, 9, 9, 1, 1, 1} { // the test got faster
		id := fmt.Sprintf("r%d", i)
		h.Runs = append(h.Runs, Run{ID: id, Time: at.Add(time.Duration(i) * time.Hour)})
		h.Attempts = append(h.Attempts, Attempt{Run: id, ID: "x", Outcome: Pass, Duration: d})
	}
	// The full run: 40 files, a 2 s start and 0.3 s a file; a shard's: 5.
	h.Units = []Unit{{Run: "r0", Unit: "p pytest", Setup: 14, Files: 40}, {Run: "r1", Unit: "p pytest", Setup: 3.5, Files: 5},
		{Run: "r2", Unit: "q go", Setup: 1}, {Run: "r3", Unit: "g go", Setup: 8, Folders: 40}, {Run: "r4", Unit: "g go", Setup: 0.4, Folders: 2}}
	h = Merge(h)
	if x := h.Durations("")["x"]; x.Recent != 1 || x.Median != 9 {
		t.Errorf("recent %v, median %v: want 1 (the newest five: 9 9 1 1 1) and 9", x.Recent, x.Median)
	}
	fs := h.FileSetups("", 2)
	if f := fs["p pytest"]; f.Runs != 2 || math.Abs(f.Start-2) > 1e-9 || math.Abs(f.PerFile-0.3) > 1e-9 {
		t.Errorf("file setup %+v, want start 2, 0.3 a file, of 2 runs", f)
	}
	if _, ok := fs["q go"]; ok {
		t.Error("a unit whose records do not know their files has no file setup")
	}
	// A package's share: 0.2 s from the full run's 40 and a shard's 2.
	if f := h.FolderSetups(""); math.Abs(f["g go"]-0.2) > 1e-9 || len(f) != 1 {
		t.Errorf("folder setups %v, want g go's 0.2 s alone", f)
	}
}

// TestFileSetupsPerTest: a unit's newest records whose setups grow with
// their top-level tests, not their files, give a cost per test; older
// records than FitRuns are left out.
func TestFileSetupsPerTest(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := &History{}
	for i := range FitRuns + 5 {
		id := fmt.Sprintf("r%02d", i)
		h.Runs = append(h.Runs, Run{ID: id, Time: at.Add(time.Duration(i) * time.Hour)})
		count, setup := 100*(1+i%4), 50.0 // the oldest five: far off
		if i >= 5 {
			setup = 1 + 0.002*float64(count)
		}
		h.Units = append(h.Units, Unit{Run: id, Unit: "p pytest", Setup: setup, Files: 10, Count: count})
	}
	f := Merge(h).FileSetups("", 2)["p pytest"]
	if f.Runs != FitRuns || math.Abs(f.Start+10*f.PerFile-1) > 1e-6 || math.Abs(f.PerTest-0.002) > 1e-6 {
		t.Errorf("FileSetups = %+v, want 1 s for the start and files, 2 ms a test, from the newest %d", f, FitRuns)
	}
}

// TestAppendConcurrent: runs appending to one history at once lose
// nothing (the lock, then read, merge and rename).
func TestAppendConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ci", "history.json")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Append(path, many(3, 5, fmt.Sprintf("w%02d-", i)), nil)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	h, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Runs) != 48 || len(h.Attempts) != 48*5 {
		t.Errorf("%d runs, %d attempts after 16 appends of 3 runs of 5 tests", len(h.Runs), len(h.Attempts))
	}
}

// TestLoadRefuses: a file that is not a history, or of a newer version,
// is an error naming it and is never overwritten by Append.
func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"junk": "{\"runs\": 3}", "newer": "{\"version\": 99, \"runs\": []}", "noversion": "{\"runs\": []}"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		if _, err := Load(p); err == nil {
			t.Errorf("%s: loaded", name)
		}
		if err := Append(p, many(1, 1, "r"), nil); err == nil {
			t.Errorf("%s: appended over it", name)
		}
		if data, _ := os.ReadFile(p); string(data) != text {
			t.Errorf("%s: rewritten", name)
		}
	}
	if h, err := Load(filepath.Join(dir, "missing")); err != nil || len(h.Runs) != 0 {
		t.Errorf("a missing history: %v, %v", h, err)
	}
}

// TestRecorderAttempts: a rerun's results (Event.Attempt) and a second
// test reported under one ID (Event.Occurrence) are attempts of their
// own; a suite and a test that did not run are not recorded.
func TestRecorderAttempts(t *testing.T) {
	r := NewRecorder(Run{ID: "r1"})
	for _, e := range []testdex.Event{
		{Batch: ". go", ID: "a_test.go::TestA", Action: testdex.ActionFail, Elapsed: 0.5},
		{Batch: ". go", ID: "a_test.go::TestA", Action: testdex.ActionFail, Occurrence: 1, Elapsed: 0.25},
		{Batch: ". go", ID: "a_test.go::TestB", Action: testdex.ActionUnreported},
		{Batch: ". go", ID: "a_test.go::S", Kind: testdex.KindSuite, Action: testdex.ActionPass},
		{Batch: ". go", ID: "a_test.go::TestA", Action: testdex.ActionPass, Attempt: 1, Elapsed: 0.5},
		{Batch: ". go", ID: "a_test.go::TestA", Action: testdex.ActionFlaky, Attempt: 1},
		{Batch: ". go", ID: "b_test.go::TestC", Action: testdex.ActionPass, Elapsed: 0.25},
		{Batch: ". go", Action: testdex.ActionFail, Elapsed: 2},
	} {
		if err := r.Event(e); err != nil {
			t.Fatal(err)
		}
	}
	h := r.History()
	got := h.Attempts
	want := []Attempt{
		{Run: "r1", ID: "a_test.go::TestA", Outcome: Fail, Duration: 0.5},
		{Run: "r1", ID: "a_test.go::TestA", Occurrence: 1, Outcome: Fail, Duration: 0.25},
		{Run: "r1", ID: "a_test.go::TestA", Attempt: 1, Outcome: Pass, Duration: 0.5},
		{Run: "r1", ID: "b_test.go::TestC", Outcome: Pass, Duration: 0.25},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("attempts %+v\nwant %+v", got, want)
	}
	// The batch's unit: four top-level attempts of two files, 1.5 s of
	// tests in 2 s.
	if u := h.Units; len(u) != 1 || u[0].Count != 4 || u[0].Files != 2 || u[0].Folders != 1 || u[0].Tests != 1.5 || u[0].Setup != 0.5 {
		t.Errorf("units %+v, want one of 4 tests in 2 files of one folder, setup 0.5", u)
	}
}

// TestAppendDocuments: an append adds a document at the end of the file
// until compactAfter of them, then rewrites it as one; at every step the
// file reads as the Merge of everything appended. A version 1 file is
// read and rewritten, and a last document cut short (a run killed while
// appending) is left out, said, and dropped by the next append.
func TestAppendDocuments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.json")
	var all []*History
	for i := range compactAfter + 2 {
		add := many(1, 3, fmt.Sprintf("a%02d-", i))
		add.Runs[0].Time = add.Runs[0].Time.Add(time.Duration(i) * time.Minute)
		all = append(all, add)
		if err := Append(path, add, nil); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		docs := bytes.Count(data, docStart)
		if want := i%compactAfter + 1; docs != want {
			t.Errorf("after append %d: %d documents, want %d", i+1, docs, want)
		}
		h, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		var got, want bytes.Buffer
		h.Write(&got)
		Merge(all...).Write(&want)
		if got.String() != want.String() {
			t.Fatalf("after append %d the file reads\n%s\nwant\n%s", i+1, got.String(), want.String())
		}
	}

	v1 := filepath.Join(t.TempDir(), "v1.json")
	os.WriteFile(v1, []byte("{\"version\": 1,\n\"runs\": [\n{\"id\":\"r\",\"time\":\"2026-01-01T00:00:00Z\",\"profile\":{\"os\":\"linux\",\"arch\":\"amd64\",\"cores\":2}}\n],\n\"attempts\": [\n{\"run\":\"r\",\"id\":\"t\",\"outcome\":\"pass\",\"duration\":1}\n]}\n"), 0o644)
	if err := Append(v1, many(1, 1, "s"), nil); err != nil {
		t.Fatal(err)
	}
	if h, err := Load(v1); err != nil || len(h.Runs) != 2 || h.docs != 1 {
		t.Errorf("a version 1 file appended to: %+v, %v (want 2 runs in one document)", h, err)
	}

	cut := filepath.Join(t.TempDir(), "cut.json")
	Append(cut, many(1, 2, "x"), nil)
	var tail bytes.Buffer
	Merge(many(1, 2, "y")).Write(&tail)
	f, _ := os.OpenFile(cut, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(tail.Bytes()[:tail.Len()/2])
	f.Close()
	h, err := Load(cut)
	if err != nil || len(h.Runs) != 1 || h.Dropped == "" {
		t.Fatalf("a file whose last document is cut short: %+v, %v", h, err)
	}
	var warned []string
	if err := Append(cut, many(1, 2, "z"), func(s string) { warned = append(warned, s) }); err != nil {
		t.Fatal(err)
	}
	if h, err := Load(cut); err != nil || len(h.Runs) != 2 || h.Dropped != "" || len(warned) != 1 || !strings.Contains(warned[0], "cut short") {
		t.Errorf("after an append: %+v, %v, warned %q", h, err, warned)
	}
}
