package workspace

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/languages"
	"github.com/testdex/testdex/plan"
)

// ImportRequest is what `testdex history import` asks: the report files,
// the history they go into ("" the root's), and the profile label and
// commit of the runs they record ("" for the commit is HEAD's).
type ImportRequest struct {
	Files   []string
	History string
	Profile string
	Commit  string
}

// Imported is what importing one report added: its format, its results,
// how many a test ID names and their attempts, and those none names.
type Imported struct {
	File     string             `json:"file"`
	Format   string             `json:"format"`
	Results  int                `json:"results"`
	Mapped   int                `json:"mapped"`
	Attempts int                `json:"attempts"`
	Unmapped []history.Unmapped `json:"unmapped,omitempty"`
}

// ImportHistory reads each report of req (JUnit XML or go test -json, by
// its content), names its results by the listing ix, and appends them to
// the history as one run (a Surefire run writes a report per class; a
// retry in a later file is a later attempt), its ID the files' hash. A result no listed test (or test
// under a listed one) names, or that several name, is reported in
// Unmapped, never guessed. A file that cannot be read or parsed is an
// error naming it, and nothing is appended.
func (w *Workspace) ImportHistory(ctx context.Context, ix *index.Index, req ImportRequest, warn func(string)) ([]Imported, error) {
	file := w.HistoryFile(req.History)
	if file == "" {
		return nil, ErrNoStore
	}
	commit := req.Commit
	if commit == "" {
		commit, _ = w.Head(ctx)
	}
	var datas [][]byte
	var reps []*history.Report
	r := history.Run{Commit: commit, Profile: history.Local(req.Profile)}
	for _, f := range req.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rep, err := history.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		at := rep.Time
		if fi, err := os.Stat(f); at.IsZero() && err == nil {
			at = fi.ModTime().UTC()
		}
		if r.Time.IsZero() || at.Before(r.Time) {
			r.Time = at
		}
		datas, reps = append(datas, data), append(reps, rep)
	}
	r.ID, r.Source = history.ImportRunID(datas...), "import "+filepath.Base(req.Files[0])
	if len(req.Files) > 1 {
		r.Source += fmt.Sprintf(" and %d more", len(req.Files)-1)
	}
	m := newImportNamer(ix)
	var out []Imported
	var add []*history.History
	next := map[string]int{}
	for i, rep := range reps {
		h, lost := history.FromReport(rep, r, func(res history.Reported) (string, string) { return m.name(rep.Format, res) }, next)
		add = append(add, h)
		out = append(out, Imported{File: req.Files[i], Format: rep.Format, Results: len(rep.Results), Mapped: len(rep.Results) - len(lost),
			Attempts: len(h.Attempts), Unmapped: lost})
	}
	if err := history.Append(file, history.Merge(add...), warn); err != nil {
		return nil, err
	}
	return out, nil
}

// importNamer names the results of another tool's report by a listing:
// each framework's reading of them (lang.Framework.FromJUnit) tried in
// each project of that framework.
type importNamer struct {
	n        *plan.Namer
	fws      []*lang.Framework
	projects map[testdex.Framework][]string
	records  map[[2]string][]testdex.Test // by framework and project
}

func newImportNamer(ix *index.Index) *importNamer {
	m := &importNamer{n: ix.NewNamer(), projects: map[testdex.Framework][]string{}, records: map[[2]string][]testdex.Test{}}
	for _, t := range ix.Tests {
		k := [2]string{string(t.Framework), t.Project}
		m.records[k] = append(m.records[k], t)
		if ps := m.projects[t.Framework]; !slices.Contains(ps, t.Project) {
			m.projects[t.Framework] = append(ps, t.Project)
		}
	}
	for _, fw := range languages.Frameworks() {
		if len(m.projects[fw.Name]) > 0 {
			m.fws = append(m.fws, fw)
		}
	}
	return m
}

// name returns the ID of a result: the one listed test it names, else
// the one test under a listed test it names by the ID rules (a subtest or
// row named at run time, as a run names it); "" and why when there is
// none or more than one.
func (m *importNamer) name(format string, r history.Reported) (string, string) {
	var listed, under []string
	for _, fw := range m.fws {
		for _, p := range m.projects[fw.Name] {
			cands := []lang.Reported{{Scope: r.Class, Name: r.Name}}
			if format == history.FormatJUnit && fw.FromJUnit != nil {
				c := lang.JUnitCase{Suite: r.Suite, Class: r.Class, Name: r.Name, File: r.File}
				cands = fw.FromJUnit(c, m.records[[2]string{string(fw.Name), p}])
			}
			for _, c := range cands {
				if c.Name == "" {
					continue
				}
				file := ""
				if c.File != "" {
					file = path.Join(p, c.File)
				}
				t, ok := m.n.Record(plan.Result{Project: p, Framework: fw.Name, Scope: c.Scope, Name: c.Name, File: file, Kind: c.Kind})
				switch {
				case ok && !slices.Contains(listed, t.ID):
					listed = append(listed, t.ID)
				case !ok && t.Parent != "" && !slices.Contains(under, t.ID):
					under = append(under, t.ID)
				}
			}
		}
	}
	switch {
	case len(listed) == 1:
		return listed[0], ""
	case len(listed) > 1:
		return "", "names several listed tests: " + strings.Join(listed, ", ")
	case len(under) == 1:
		return under[0], ""
	case len(under) > 1:
		return "", "names tests under several listed tests: " + strings.Join(under, ", ")
	}
	return "", "names no listed test"
}
