package htmlreport

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/testdex/testdex/coverage"
)

// site holds the report and every page's address, so pages link to each
// other. Addresses are relative to the site folder; pages under files/
// and tests/ prefix "../".
type site struct {
	rep      *coverage.Report
	o        Options
	fileHref map[string]string // path -> files/NNNN-slug.html
	testHref map[string]string // ID -> tests/NNNN-slug.html
	tests    map[string]coverage.TestInfo
	byTest   map[string][]int // ID -> indexes of the files it executed, in path order
}

func newSite(rep *coverage.Report, o Options) *site {
	if o.Title == "" {
		o.Title = "Coverage"
	}
	s := &site{rep: rep, o: o, fileHref: map[string]string{}, testHref: map[string]string{}, tests: map[string]coverage.TestInfo{}, byTest: map[string][]int{}}
	for i, f := range rep.Files {
		s.fileHref[f.Path] = fmt.Sprintf("files/%04d-%s.html", i+1, slug(f.Path))
		for _, t := range f.Tests {
			s.byTest[t.ID] = append(s.byTest[t.ID], i)
		}
	}
	for i, t := range rep.Tests {
		s.testHref[t.ID] = fmt.Sprintf("tests/%04d-%s.html", i+1, slug(t.ID))
		s.tests[t.ID] = t
	}
	return s
}

// indexData is the index page: the files with their counts, the
// untested functions and the tests.
type indexData struct {
	Title           string
	Covered, Total  int
	Files           []fileRow
	Untested        []untestedRow
	Tests           []testRow
	RecordedPercent string
}

type fileRow struct {
	Path, Href, Note string
	Covered, Total   int
	Percent          int
}

type untestedRow struct {
	Path, Name, Href, Note string
	Line                   int
}

type testRow struct {
	ID, Href, Outcome, Recorded, Note string
}

func (s *site) index() indexData {
	d := indexData{Title: s.o.Title}
	for _, f := range s.rep.Files {
		d.Covered, d.Total = d.Covered+f.Covered, d.Total+f.Total
		d.Files = append(d.Files, fileRow{Path: f.Path, Href: s.fileHref[f.Path], Note: stateNote(f), Covered: f.Covered, Total: f.Total, Percent: percent(f.Covered, f.Total)})
	}
	for _, u := range s.rep.Untested() {
		r := untestedRow{Path: u.Path, Name: u.Func.Name, Line: u.Func.Start, Href: fmt.Sprintf("%s#line-%d", s.fileHref[u.Path], u.Func.Start)}
		if n := len(u.Func.Stale); n > 0 {
			r.Note = fmt.Sprintf("stale: %d recorded before it changed", n)
		}
		d.Untested = append(d.Untested, r)
	}
	for _, t := range s.rep.Tests {
		d.Tests = append(d.Tests, s.testRow(t, ""))
	}
	d.RecordedPercent = fmt.Sprintf("%d %%", percent(d.Covered, d.Total))
	return d
}

func (s *site) testRow(t coverage.TestInfo, prefix string) testRow {
	r := testRow{ID: t.ID, Href: prefix + s.testHref[t.ID], Outcome: t.Outcome, Recorded: t.Recorded.Local().Format("2006-01-02 15:04:05")}
	if r.Outcome == "" {
		r.Outcome = "-"
	}
	if t.Granularity == "file" {
		r.Note = "recorded per test file: its file's tests share these lines"
	}
	return r
}

func percent(n, of int) int {
	if of == 0 {
		return 0
	}
	return n * 100 / of
}

// stateNote says what is unusual about a file, as `testdex coverage`
// does.
func stateNote(f coverage.FileReport) string {
	switch {
	case f.State == coverage.StateGone:
		return "gone since it was recorded"
	case f.State == coverage.StateUnrecorded:
		return "no test loaded it"
	case !f.FuncsKnown:
		return "functions unknown"
	case f.State == coverage.StateChanged:
		return "changed since recorded"
	}
	return ""
}

// fileData is a source file's page.
type fileData struct {
	Path, Note, Back string
	Covered, Total   int
	Funcs            []funcRow
	Lines            []lineRow
	Gone             bool
	// Tests are the data of the panel's script: each test's lines and
	// stale lines, numbered as the file is now.
	Tests []panelTest
	// Recorded lists, for a gone file, what each test executed then.
	Recorded []testLines
}

type funcRow struct {
	Name, Href string
	Start, End int
	Tests      []testRow
	Stale      int
}

// lineRow is one source line: its number, text and mark.
type lineRow struct {
	N     int
	Text  string
	Class string // hit, miss, stale or "" (between functions, blank)
	Mark  string // the number of tests, "?" stale, "0" not executed
	Title string
}

// panelTest is one test of a file, for the panel's script (JSON).
type panelTest struct {
	ID    string   `json:"id"`
	Href  string   `json:"href"`
	Lines [][2]int `json:"lines"`
	Stale [][2]int `json:"stale"`
}

type testLines struct {
	Test  testRow
	Lines string
}

func (s *site) filePage(f *coverage.FileReport) fileData {
	d := fileData{Path: f.Path, Note: stateNote(*f), Back: "../index.html", Covered: f.Covered, Total: f.Total, Gone: f.State == coverage.StateGone}
	for _, fn := range f.Functions {
		r := funcRow{Name: fn.Name, Start: fn.Start, End: fn.End, Href: fmt.Sprintf("#line-%d", fn.Start), Stale: len(fn.Stale)}
		for _, id := range fn.Tests {
			r.Tests = append(r.Tests, s.testRow(s.tests[id], "../"))
		}
		d.Funcs = append(d.Funcs, r)
	}
	for _, t := range f.Tests {
		d.Tests = append(d.Tests, panelTest{ID: t.ID, Href: "../" + s.testHref[t.ID], Lines: pairs(t.Lines), Stale: pairs(t.Stale)})
		if d.Gone {
			d.Recorded = append(d.Recorded, testLines{Test: s.testRow(s.tests[t.ID], "../"), Lines: coverage.String(t.Stale)})
		}
	}
	if !d.Gone {
		src, err := s.o.Read(f.Path)
		if err != nil {
			d.Note = fmt.Sprintf("cannot read it now: %v", err)
		}
		d.Lines = lines(src, f)
	}
	return d
}

func pairs(spans []coverage.Span) [][2]int {
	out := make([][2]int, len(spans))
	for i, s := range spans {
		out[i] = [2]int{s.Start, s.End}
	}
	return out
}

// lines marks each line of src: executed by N tests, stale (no test
// known to execute it, some recorded on an older version of it), not
// executed (inside a function, not blank), or unmarked.
func lines(src []byte, f *coverage.FileReport) []lineRow {
	text := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	if len(src) == 0 {
		text = nil
	}
	hits := make([]int, len(text)+2)
	stale := make([]bool, len(text)+2)
	mark := func(spans []coverage.Span, fn func(i int)) {
		for _, s := range spans {
			for l := max(s.Start, 1); l <= min(s.End, len(text)); l++ {
				fn(l)
			}
		}
	}
	for _, t := range f.Tests {
		mark(t.Lines, func(l int) { hits[l]++ })
		mark(t.Stale, func(l int) { stale[l] = true })
	}
	inFunc := make([]bool, len(text)+2)
	for _, fn := range f.Functions {
		mark([]coverage.Span{{Start: fn.Start, End: fn.End}}, func(l int) { inFunc[l] = true })
	}
	out := make([]lineRow, len(text))
	for i, t := range text {
		n := i + 1
		r := lineRow{N: n, Text: strings.TrimSuffix(t, "\r")}
		switch {
		case hits[n] > 0:
			r.Class, r.Mark, r.Title = "hit", fmt.Sprint(hits[n]), fmt.Sprintf("executed by %d %s", hits[n], plural(hits[n], "test", "tests"))
		case stale[n]:
			r.Class, r.Mark, r.Title = "stale", "?", "stale: recorded on an older version of the file; run 'testdex run --coverage' again"
		case inFunc[n] && !closing(t):
			r.Class, r.Mark, r.Title = "miss", "0", "not executed by any recorded test"
		}
		out[i] = r
	}
	return out
}

// closing reports whether a line holds nothing a coverage tool counts:
// blank, or only closing brackets and separators (Go's coverage blocks
// end before a function's last "}").
func closing(line string) bool {
	return len(bytes.Trim([]byte(line), " \t\r})];,")) == 0
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// testData is a test's page: per file, the functions and lines it
// executed.
type testData struct {
	Test  testRow
	Files []testFile
}

type testFile struct {
	Path, Href string
	Funcs      []string
	Lines      []lineLink
	Stale      string
}

type lineLink struct {
	Text, Href string
}

func (s *site) testPage(t coverage.TestInfo) testData {
	d := testData{Test: s.testRow(t, "../")}
	for _, fi := range s.byTest[t.ID] {
		f := &s.rep.Files[fi]
		i := slices.IndexFunc(f.Tests, func(ft coverage.FileTest) bool { return ft.ID == t.ID })
		ft := f.Tests[i]
		tf := testFile{Path: f.Path, Href: "../" + s.fileHref[f.Path], Stale: coverage.String(ft.Stale)}
		for _, fn := range f.Functions {
			if slices.Contains(fn.Tests, t.ID) {
				tf.Funcs = append(tf.Funcs, fn.Name)
			}
		}
		for _, sp := range ft.Lines {
			tf.Lines = append(tf.Lines, lineLink{Text: coverage.String([]coverage.Span{sp}), Href: fmt.Sprintf("%s#line-%d", tf.Href, sp.Start)})
		}
		d.Files = append(d.Files, tf)
	}
	return d
}
