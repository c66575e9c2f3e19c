package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/run"
)

// CoveringRequest asks which tests executed a file's lines.
type CoveringRequest struct {
	// File is root-relative or absolute, inside the root.
	File string
	// Start and End are 1-based lines, inclusive; 0 and 0 is the whole
	// file, End 0 is Start alone.
	Start, End int
}

// Covering answers from the root's coverage index, which `run
// --coverage` records. Errors: coverage.ErrNoData (nothing recorded),
// a *coverage.GapError (the project's last coverage run recorded
// nothing: why), coverage.ErrDamaged, an *OutsideError.
func (w *Workspace) Covering(ix *index.Index, req CoveringRequest) (*coverage.Answer, error) {
	rel, err := changes.RootFiles(w.Root, []string{req.File}) // the same rule as a change's named files
	if err != nil {
		return nil, &OutsideError{Path: req.File, Root: w.Root, Why: "is outside"}
	}
	end := req.End
	if end == 0 {
		end = req.Start
	}
	return covering(ix, w.CacheDir, rel[0], req.Start, end)
}

// covering answers from the root's coverage index, with the file's
// functions as they are now (its project's Spanner) so that an edited
// file is answered through its unchanged functions. No index is
// coverage.ErrNoData. A file the index holds no record of, whose project's
// last run with coverage recorded nothing, is a *coverage.GapError saying
// why (an ErrNoData too).
func covering(ix *index.Index, cacheDir, file string, start, end int) (*coverage.Answer, error) {
	if cacheDir == "" {
		return nil, coverage.ErrNoData
	}
	cix, err := coverage.Open(coverage.Path(cacheDir, ix.Root), coverage.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer cix.Close()
	abs := filepath.Join(ix.Root, filepath.FromSlash(file))
	q := coverage.Query{File: file, Start: start, End: end}
	projects := ix.ProjectFiles()
	if src, err := os.ReadFile(abs); err == nil {
		q.Current = src
		if p := index.InnermostProject(projects, file); p != nil {
			q.Funcs = run.FuncsOf(p.Spanner, abs, src)
		}
	}
	ans, err := cix.Covering(q)
	if (err == nil && ans.Recordings == 0) || errors.Is(err, coverage.ErrNoData) {
		if gaps := gapsOf(cix, projects, file); len(gaps) > 0 {
			return nil, &coverage.GapError{File: file, Gaps: gaps}
		}
	}
	return ans, err
}

// gapsOf are the index's gaps of the innermost project holding file (of
// the deepest gap folder holding it, when the listing has no project
// there).
func gapsOf(cix *coverage.Index, projects []index.ProjectFiles, file string) []coverage.Gap {
	all, err := cix.Gaps()
	if err != nil || len(all) == 0 {
		return nil
	}
	holds := func(dir string) bool { return dir == "." || file == dir || strings.HasPrefix(file, dir+"/") }
	depth := func(dir string) int { // the longest folder holding the file is the innermost
		if dir == "." {
			return 0
		}
		return len(dir) + 1
	}
	dir := ""
	for _, pf := range projects {
		if holds(pf.Dir) && (dir == "" || depth(pf.Dir) > depth(dir)) {
			dir = pf.Dir
		}
	}
	if dir == "" {
		for _, g := range all {
			if holds(g.Project) && (dir == "" || depth(g.Project) > depth(dir)) {
				dir = g.Project
			}
		}
	}
	var out []coverage.Gap
	for _, g := range all {
		if g.Project == dir {
			out = append(out, g)
		}
	}
	return out
}

// CoverageGaps returns the gaps the root's coverage index keeps: the
// batches whose last coverage run recorded nothing, or only part (see
// coverage.Gap); none without an index.
func (w *Workspace) CoverageGaps() []coverage.Gap {
	if w.CacheDir == "" {
		return nil
	}
	cix, err := coverage.Open(coverage.Path(w.CacheDir, w.Root), coverage.Options{ReadOnly: true})
	if err != nil {
		return nil
	}
	defer cix.Close()
	gaps, _ := cix.Gaps()
	return gaps
}
