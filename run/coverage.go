package run

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/plan"
)

// coverRun is one `run --coverage`: which batches record coverage, and
// what each test executed, gathered from the runners' ActionCovered
// events (never forwarded to the handlers) and written to the coverage
// index when the run ends, with the batches that recorded nothing (see
// gaps.go).
type coverRun struct {
	on    map[*plan.Batch]bool
	off   map[*plan.Batch]string // the batches that cannot record: why (said before the run)
	mu    sync.Mutex
	tests map[string]*testCover
	notes map[*plan.Batch][]string // the runners' notes (ActionCovered without a test), in order
}

// testCover is what one test executed, per absolute file.
type testCover struct {
	batch       *plan.Batch
	project     *lang.Project
	granularity string
	files       map[string][]lang.Span
	// process and seq are where the test ran (coverage.Record's): the
	// runner's key made unique in the run by the batch's name; seq is
	// coverage.Unordered when two events named different processes.
	process string
	seq     int
	events  int
}

// newCoverRun decides per batch: a Coverer whose CoverageCheck passes
// records; the others run as usual, with one warning per batch (each
// distinct message once).
func newCoverRun(p *plan.Plan, o Options, warn func(b *plan.Batch, msg string)) *coverRun {
	c := &coverRun{on: map[*plan.Batch]bool{}, off: map[*plan.Batch]string{}, tests: map[string]*testCover{}, notes: map[*plan.Batch][]string{}}
	said := map[string]bool{}
	for _, b := range p.Batches {
		fw := b.Setup.Framework
		why := ""
		if cv, ok := b.Setup.Runner.(lang.Coverer); !ok {
			why = fmt.Sprintf("%s has no coverage in testdex yet", fw)
		} else if err := cv.CoverageCheck(b.Project, lang.RunOptions{Env: o.Env}); err != nil {
			why = "no coverage: " + strings.TrimPrefix(err.Error(), lang.ErrNotInstalled.Error()+": ")
		} else {
			c.on[b] = true
			continue
		}
		c.off[b] = why
		if msg := fmt.Sprintf("%s: %s; its tests run without it", batchLabel(b), why); !said[msg] && warn != nil {
			said[msg] = true
			warn(b, msg)
		}
	}
	return c
}

// batchLabel names a batch in warnings: "project DIR (FRAMEWORK)".
func batchLabel(b *plan.Batch) string {
	return fmt.Sprintf("project %s (%s)", label(b.Dir), b.Setup.Framework)
}

// enabled reports whether batch b records coverage.
func (c *coverRun) enabled(b *plan.Batch) bool { return c != nil && c.on[b] }

// add files one ActionCovered event of batch b under the test's ID
// (several add up); one without a test (id "") is a note of the batch.
func (c *coverRun) add(id string, b *plan.Batch, r lang.RunEvent) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if id == "" {
		if r.Message != "" && !slices.Contains(c.notes[b], r.Message) {
			c.notes[b] = append(c.notes[b], r.Message)
		}
		return
	}
	tc := c.tests[id]
	if tc == nil {
		tc = &testCover{batch: b, project: b.Project, files: map[string][]lang.Span{}}
		if cv, ok := b.Setup.Runner.(lang.Coverer); ok {
			tc.granularity = cv.Granularity()
		}
		c.tests[id] = tc
	}
	for _, f := range r.Covered {
		tc.files[f.File] = addSpans(tc.files[f.File], f.Lines)
	}
	tc.where(b, r)
}

// addSpans adds spans to a test's lines of a file. The first spans of a
// file are kept as given when sorted and apart, without a copy: a
// runner gives the same slice to every test that shares what ran (what
// loading a file ran), and records and the index then convert and
// encode it once. Kept slices are never appended to in place.
func addSpans(have, more []lang.Span) []lang.Span {
	switch {
	case !sortedApart(more):
		return lang.MergeSpans(append(slices.Clip(have), more...))
	case len(have) == 0:
		return slices.Clip(more)
	}
	return lang.MergeSorted(have, more) // have is sorted and apart: kept so

}

// sortedApart reports whether spans are sorted, neither overlapping nor
// adjacent (what MergeSpans returns).
func sortedApart(spans []lang.Span) bool {
	for i, s := range spans {
		if s.End < s.Start || (i > 0 && s.Start <= spans[i-1].End+1) {
			return false
		}
	}
	return true
}

// where notes the process of one more event of the test: the first
// event's, unless another event names another process (several processes
// have no one order: Unordered) or the same process another place.
func (tc *testCover) where(b *plan.Batch, r lang.RunEvent) {
	proc := ""
	if r.Process != "" {
		proc = b.Name + "\x00" + r.Process
	}
	seq := r.Seq
	if seq == lang.Unordered {
		seq = coverage.Unordered
	}
	tc.events++
	switch {
	case tc.events == 1:
		tc.process, tc.seq = proc, seq
	case tc.seq == coverage.Unordered:
	case proc != tc.process || (proc != "" && seq != tc.seq):
		if tc.process == "" {
			tc.process = proc // ran alone, and in a shared process too
		}
		if tc.process != "" {
			tc.seq = coverage.Unordered
		}
	}
}

// records turns what was gathered into index records: files inside the
// root only, each with its content hash and functions as they are now.
func (c *coverRun) records(root string, sum *Summary, when time.Time, known knownFuncs) []coverage.Record {
	ids := make([]string, 0, len(c.tests))
	for id := range c.tests {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	files := map[string]*coverage.File{}  // absolute -> hash and functions, read once
	conv := map[spansID][]coverage.Span{} // a slice shared by tests, converted once
	var recs []coverage.Record
	for _, id := range ids {
		tc := c.tests[id]
		res, _ := sum.Outcome(id)
		rec := coverage.Record{ID: id, Recorded: when, Outcome: string(res.Action), Granularity: tc.granularity, Process: tc.process, Seq: tc.seq}
		for abs, lines := range tc.files {
			f := fileState(root, abs, tc.project, files, known)
			if f == nil {
				continue
			}
			cf := *f
			cf.Lines = convert(lines, conv)
			rec.Files = append(rec.Files, cf)
		}
		sort.Slice(rec.Files, func(i, j int) bool { return rec.Files[i].Path < rec.Files[j].Path })
		recs = append(recs, rec)
	}
	return recs
}

// spansID names a slice of spans by its memory, for slices shared by
// the tests of one run (never changed once gathered).
type spansID struct {
	first *lang.Span
	n     int
}

// convert turns spans into the index's, once per shared slice.
func convert(lines []lang.Span, conv map[spansID][]coverage.Span) []coverage.Span {
	if len(lines) == 0 {
		return []coverage.Span{}
	}
	k := spansID{&lines[0], len(lines)}
	if out, ok := conv[k]; ok {
		return out
	}
	out := make([]coverage.Span, len(lines))
	for i, l := range lines {
		out[i] = coverage.Span{Start: l.Start, End: l.End}
	}
	conv[k] = out
	return out
}

// fileState reads a covered file once: its root-relative path, content
// hash and functions; nil for a file outside the root or unreadable.
func fileState(root, abs string, p *lang.Project, seen map[string]*coverage.File, known knownFuncs) *coverage.File {
	if f, ok := seen[abs]; ok {
		return f
	}
	seen[abs] = nil
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil
	}
	f := &coverage.File{Path: filepath.ToSlash(rel), Hash: xxh3.Hash(src)}
	if p.Spanner != nil && known != nil {
		f.Funcs = known(f.Path, f.Hash)
	}
	if f.Funcs == nil {
		f.Funcs = FuncsOf(p.Spanner, abs, src)
	}
	if f.Funcs != nil {
		f.Content = src // for `testdex affected`: a change outside functions is told apart
	}
	seen[abs] = f
	return f
}

// knownFuncs returns the functions the index keeps for a version of a
// root-relative file (its content hash), nil when it keeps none: a file
// the last run recorded is not cut again (express: 0.4 s of tree-sitter
// parsing and token hashing for its 129 files).
type knownFuncs func(rel string, hash uint64) []coverage.Func

// FuncsOf cuts a file into functions with sp; nil when there is no
// Spanner or the file does not parse.
func FuncsOf(sp lang.Spanner, abs string, src []byte) []coverage.Func {
	if sp == nil {
		return nil
	}
	spans, err := sp.Spans(abs, src)
	if err != nil {
		return nil
	}
	out := make([]coverage.Func, len(spans))
	for i, s := range spans {
		out[i] = coverage.Func{Name: s.Name, Start: s.Start, End: s.End, Hash: s.Hash}
	}
	return out
}

// save writes the run's coverage and gaps to the root's index; it
// returns how many tests were recorded.
func (c *coverRun) save(cacheDir, root string, sum *Summary, when time.Time, gaps []coverage.Gap, warn func(string)) (int, error) {
	if c == nil {
		return 0, nil
	}
	put := slices.ContainsFunc(gaps, func(g coverage.Gap) bool { return g.Reason != "" })
	if len(c.tests) == 0 && !put {
		if _, err := os.Stat(coverage.Path(cacheDir, root)); cacheDir == "" || err != nil {
			return 0, nil // nothing to say, and no index whose gaps to clear
		}
	}
	if cacheDir == "" {
		if len(c.tests) == 0 {
			return 0, nil // the warnings said it; nowhere to keep it
		}
		return 0, fmt.Errorf("coverage not saved: no cache folder (TESTDEX_CACHE_DIR is off)")
	}
	ix, err := coverage.Open(coverage.Path(cacheDir, root), coverage.Options{Warn: warn})
	if err != nil {
		return 0, fmt.Errorf("coverage not saved: %w", err)
	}
	defer ix.Close()
	recs := c.records(root, sum, when, func(rel string, hash uint64) []coverage.Func {
		v, err := ix.Version(rel, hash)
		if err != nil {
			return nil
		}
		return v.Funcs
	})
	if len(recs) > 0 {
		if err := ix.Replace(recs); err != nil {
			return 0, fmt.Errorf("coverage not saved: %w", err)
		}
	}
	if len(gaps) > 0 {
		if err := ix.SetGaps(gaps); err != nil {
			return len(recs), fmt.Errorf("coverage gaps not saved: %w", err)
		}
	}
	return len(recs), nil
}

// recordedFiles are the test files of the tests a coverage run recorded.
func (c *coverRun) recordedFiles() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for id := range c.tests {
		if f, _ := testdex.SplitID(id); f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}
