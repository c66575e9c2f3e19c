package coverage

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/zeebo/xxh3"
)

// The states of a file in a Report.
const (
	// StateRecorded: the file is as every test recorded it.
	StateRecorded = "recorded"
	// StateChanged: the file changed since some test recorded it; those
	// tests are answered through the functions whose name and canonical
	// hash did not change, and are stale for the rest.
	StateChanged = "changed"
	// StateGone: the file was recorded but no longer exists.
	StateGone = "gone"
	// StateUnrecorded: no test executed a line of the file (a source file
	// of the project no test loaded); every function is untested.
	StateUnrecorded = "unrecorded"
)

// ReportOptions configure Index.Report. The zero value reports the
// recorded files as recorded, without current functions (every file is
// then "gone": give Current).
type ReportOptions struct {
	// Current reads a root-relative file as it is now: its content and
	// its functions (the language's Spanner; nil when there is none or
	// the file does not parse). ok is false when the file is gone.
	Current func(path string) (src []byte, funcs []Func, ok bool)
	// Files are more root-relative files to report (the project's source
	// files the Spanner can cut): those the index holds no entry for are
	// reported StateUnrecorded, every function untested.
	Files []string
	// Match keeps the files it accepts; nil keeps all.
	Match func(path string) bool
}

// Report is the whole index seen from the source files: per file and
// function, the tests that executed it.
type Report struct {
	// Files are sorted by path.
	Files []FileReport `json:"files"`
	// Tests are every test the index holds, sorted by ID.
	Tests []TestInfo `json:"tests"`
}

// TestInfo is one recorded test: when, its outcome then and the unit
// its lines were attributed to.
type TestInfo struct {
	ID       string    `json:"id"`
	Recorded time.Time `json:"recorded"`
	Outcome  string    `json:"outcome,omitempty"`
	// Granularity is "file" when the runner attributes lines per test
	// file (Hit's); "" per test.
	Granularity string `json:"granularity,omitempty"`
	// Files are the files it executed (AllTests fills them; the report
	// lists them per file instead).
	Files []string `json:"-"`
	// Process and Seq are the record's (Record's), for selection
	// (AllTests fills them).
	Process string `json:"-"`
	Seq     int    `json:"-"`
}

// FileReport is one source file: its functions now and, per test, the
// lines it executed, numbered as the file is now.
type FileReport struct {
	Path  string `json:"path"`
	State string `json:"state"`
	// Functions are the file's functions now, in source order; empty when
	// its language has no Spanner or it does not parse (FuncsKnown false).
	Functions  []FuncReport `json:"functions"`
	FuncsKnown bool         `json:"functions_known"`
	// Covered counts the functions some test executed; Total all of them.
	Covered int `json:"covered"`
	Total   int `json:"total"`
	// Tests are the tests that executed lines of the file, sorted by ID.
	Tests []FileTest `json:"tests"`
	// Lines is the file's line count now (0 when gone).
	Lines int `json:"lines"`
}

// FileTest is what one test executed in one file.
type FileTest struct {
	ID string `json:"id"`
	// Lines are the lines it executed, numbered as the file is now.
	Lines []Span `json:"lines"`
	// Stale are lines it may or may not execute now: recorded on an
	// older version, they lie in functions that changed (or outside any
	// function, or the file's functions are unknown).
	Stale []Span `json:"stale,omitempty"`
}

// FuncReport is one function of a file now.
type FuncReport struct {
	Name  string `json:"name"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Tests executed a line of it, sorted.
	Tests []string `json:"tests"`
	// Stale tests were recorded on an older version of the file and the
	// function changed since: whether they execute it now is unknown.
	Stale   []string `json:"stale,omitempty"`
	Covered bool     `json:"covered"`
}

// Untested is one function no test is known to execute.
type Untested struct {
	Path string
	Func FuncReport
}

// Untested returns the functions no test executed, in file then source
// order.
func (r *Report) Untested() []Untested {
	var out []Untested
	for _, f := range r.Files {
		for _, fn := range f.Functions {
			if !fn.Covered {
				out = append(out, Untested{Path: f.Path, Func: fn})
			}
		}
	}
	return out
}

// Report reads the whole index: every recorded file (and o.Files), with
// its functions now and the tests that executed each. An index that
// holds no test is ErrNoData.
func (ix *Index) Report(o ReportOptions) (*Report, error) {
	if o.Current == nil {
		o.Current = func(string) ([]byte, []Func, bool) { return nil, nil, false }
	}
	rep := &Report{Files: []FileReport{}, Tests: []TestInfo{}}
	seen := map[string]bool{}
	err := ix.view(func(tx *bolt.Tx) error {
		tests, files, meta := tx.Bucket(bucketTests), tx.Bucket(bucketFiles), tx.Bucket(bucketMeta)
		if tests == nil || files == nil || meta == nil || !readable(meta.Get(keyVersion)) || tests.Stats().KeyN == 0 {
			return ErrNoData
		}
		if err := ix.readTests(tests, rep); err != nil {
			return err
		}
		c := files.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v != nil { // files holds only buckets
				continue
			}
			path := string(k)
			seen[path] = true
			if o.Match != nil && !o.Match(path) {
				continue
			}
			fr, err := ix.fileReport(files.Bucket(k), path, o.Current)
			if err != nil {
				return err
			}
			rep.Files = append(rep.Files, *fr)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range o.Files {
		if seen[p] || (o.Match != nil && !o.Match(p)) {
			continue
		}
		seen[p] = true
		src, funcs, ok := o.Current(p)
		if !ok {
			continue
		}
		fr := &FileReport{Path: p, State: StateUnrecorded, Tests: []FileTest{}, Lines: lineCount(src)}
		fr.setFuncs(funcs, nil, src)
		rep.Files = append(rep.Files, *fr)
	}
	sort.Slice(rep.Files, func(i, j int) bool { return rep.Files[i].Path < rep.Files[j].Path })
	return rep, nil
}

// readTests lists every test with its stamp.
func (ix *Index) readTests(tests *bolt.Bucket, rep *Report) error {
	return tests.ForEach(func(k, v []byte) error {
		tv, err := decodeTest(v)
		if err != nil {
			return fmt.Errorf("%w: %s (test %s: %v)", ErrDamaged, ix.path, k, err)
		}
		rep.Tests = append(rep.Tests, TestInfo{ID: string(k), Recorded: tv.recorded, Outcome: tv.outcome, Granularity: fine(tv.granularity)})
		return nil
	})
}

// fileReport reads one file's entries and maps each to the file now.
func (ix *Index) fileReport(fb *bolt.Bucket, path string, current func(string) ([]byte, []Func, bool)) (*FileReport, error) {
	src, funcs, ok := current(path)
	fr := &FileReport{Path: path, State: StateRecorded, Tests: []FileTest{}}
	if !ok {
		fr.State = StateGone
	} else {
		fr.Lines = lineCount(src)
	}
	cur := xxh3.Hash(src)
	m := &matcher{q: Query{File: path, Current: src, Funcs: funcs}, old: map[uint64][]Func{}, fb: fb}
	var recorded []Func // the functions as recorded, for a file with no Spanner now
	sets, names, err := ix.readSets(fb.Tx(), fb, path)
	if err != nil {
		return nil, err
	}
	for _, s := range sets {
		var ft FileTest
		switch {
		case !ok:
			ft.Stale = s.lines // numbered as recorded: the file is gone
		case s.hash == cur:
			ft.Lines = s.lines
			if funcs == nil && recorded == nil {
				recorded, _ = m.funcsOf(s.hash)
			}
		default:
			fr.State = StateChanged
			ft.Lines, ft.Stale = m.remap(s.hash, s.lines, fr.Lines)
		}
		if len(ft.Lines)+len(ft.Stale) == 0 {
			continue
		}
		if ft.Lines == nil {
			ft.Lines = []Span{}
		}
		ids, err := names.names(s)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			ft.ID = id
			fr.Tests = append(fr.Tests, ft)
		}
	}
	slices.SortFunc(fr.Tests, func(a, b FileTest) int { return strings.Compare(a.ID, b.ID) })
	if ok {
		if funcs == nil {
			funcs = recorded
		}
		fr.setFuncs(funcs, fr.Tests, src)
	}
	return fr, nil
}

// remap numbers the lines a test executed in an older version of the
// file as the file is now: through each current function whose name and
// canonical hash are unchanged (line by line when its shape is the same,
// the function as a whole when only its formatting changed). The lines
// of changed functions, and those outside every function when the test
// executed lines outside functions then, are stale; with no functions
// known (then or now), the whole file is.
func (m *matcher) remap(hash uint64, lines []Span, n int) (got, stale []Span) {
	old, ok := m.funcsOf(hash)
	if !ok || m.q.Funcs == nil {
		return nil, []Span{{1, max(n, 1)}}
	}
	used := map[int]bool{}
	for _, f := range m.q.Funcs {
		o := matchFunc(old, f, used)
		switch {
		case o == nil:
			stale = append(stale, Span{f.Start, f.End})
		case o.End-o.Start == f.End-f.Start:
			for _, s := range intersect(lines, o.Start, o.End) {
				got = append(got, Span{s.Start - o.Start + f.Start, s.End - o.Start + f.Start})
			}
		case len(intersect(lines, o.Start, o.End)) > 0:
			got = append(got, Span{f.Start, f.End})
		}
	}
	if executedOutside(old, lines) {
		stale = append(stale, outside(m.q.Funcs, n)...)
	}
	got = Merge(got)
	stale = subtract(Merge(stale), got)
	return got, stale
}

// outside returns the lines of 1..n outside every function.
func outside(funcs []Func, n int) []Span {
	in := make([]Span, 0, len(funcs))
	for _, f := range funcs {
		in = append(in, Span{f.Start, f.End})
	}
	return subtract([]Span{{1, max(n, 1)}}, Merge(in))
}

// subtract returns the lines of a (sorted, merged) not in b (sorted,
// merged).
func subtract(a, b []Span) []Span {
	var out []Span
	for _, s := range a {
		lo := s.Start
		for _, t := range b {
			if t.End < lo || t.Start > s.End {
				continue
			}
			if t.Start > lo {
				out = append(out, Span{lo, t.Start - 1})
			}
			lo = t.End + 1
		}
		if lo <= s.End {
			out = append(out, Span{lo, s.End})
		}
	}
	return out
}

// setFuncs fills the functions with the tests that executed (or are
// stale on) a line of each one's body (see body).
func (fr *FileReport) setFuncs(funcs []Func, tests []FileTest, src []byte) {
	text := strings.Split(string(src), "\n")
	fr.FuncsKnown = funcs != nil
	fr.Functions = make([]FuncReport, 0, len(funcs))
	sorted := slices.Clone(funcs)
	slices.SortStableFunc(sorted, func(a, b Func) int { return cmp.Compare(a.Start, b.Start) })
	for _, f := range sorted {
		r := FuncReport{Name: f.Name, Start: f.Start, End: f.End, Tests: []string{}}
		b := body(f, text)
		for _, t := range tests {
			switch {
			case len(intersect(t.Lines, b.Start, b.End)) > 0:
				r.Tests = append(r.Tests, t.ID)
			case len(intersect(t.Stale, b.Start, b.End)) > 0:
				r.Stale = append(r.Stale, t.ID)
			}
		}
		r.Covered = len(r.Tests) > 0
		if r.Covered {
			fr.Covered++
		}
		fr.Functions = append(fr.Functions, r)
	}
	fr.Total = len(fr.Functions)
}

// body is the part of a function whose execution means the function
// ran: the lines after its header, the header being its lines up to the
// first that ends with ":" or "{" (comments aside). A definition's own
// lines, its decorators, a class body's def and a module's function
// statements run when the module loads (coverage.py records them for
// the import) and prove nothing. A function whose header cannot be found,
// or that fits on its header (Go's func F() { return 1 }), is its whole
// span.
func body(f Func, text []string) Span {
	for l := f.Start; l < f.End && l <= len(text); l++ {
		line := text[l-1]
		for _, c := range []string{"//", "#"} {
			if i := strings.Index(line, c); i >= 0 {
				line = line[:i]
			}
		}
		line = strings.TrimSpace(line)
		if strings.HasSuffix(line, ":") || strings.HasSuffix(line, "{") {
			return Span{l + 1, f.End}
		}
	}
	return Span{f.Start, f.End}
}

// lineCount is the number of lines of src (a last line without a
// newline counts).
func lineCount(src []byte) int {
	n := 0
	for _, b := range src {
		if b == '\n' {
			n++
		}
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// RecordedFiles returns the root-relative paths some test executed, as
// the index holds them, sorted. An index that holds no test is
// ErrNoData.
func (ix *Index) RecordedFiles() ([]string, error) {
	var out []string
	err := ix.view(func(tx *bolt.Tx) error {
		tests, files, meta := tx.Bucket(bucketTests), tx.Bucket(bucketFiles), tx.Bucket(bucketMeta)
		if tests == nil || files == nil || meta == nil || !readable(meta.Get(keyVersion)) || tests.Stats().KeyN == 0 {
			return ErrNoData
		}
		return files.ForEach(func(k, v []byte) error {
			if v == nil {
				out = append(out, string(k))
			}
			return nil
		})
	})
	return out, err
}
