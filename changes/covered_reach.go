package changes

import (
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/internal/lang"
)

// reachMemo keeps what the reachability narrowing (mayReach) read of the
// coverage index: each recorded test's functions, each file's entries and
// each recorded version's functions.
type reachMemo struct {
	funcs    map[string][]lang.FuncRef // test ID -> the functions it ran (nil: unknown)
	entries  map[string]map[string]coverage.Entry
	versions map[versionKey][]coverage.Func
}

type versionKey struct {
	path string
	hash uint64
}

// mayReach reports whether the recorded test id may reach the function
// name of file through the code it ran itself: the project's Reacher finds
// a path to it from a function of id's own record, or cannot tell (no
// Reacher, a function outside its graph, a record whose functions are
// unknown).
func (c *covSel) mayReach(id, file, name string) bool {
	var p *project
	for _, q := range c.g.projects {
		if q.evidence && q.in(file) && (p == nil || len(q.dir) > len(p.dir)) {
			p = q
		}
	}
	if p == nil {
		return true
	}
	r, ok := p.grapher.(lang.Reacher)
	if !ok {
		return true
	}
	from := c.executedFuncs(id)
	if from == nil {
		return true
	}
	reached, known := r.Reaches(p.input, from, lang.FuncRef{File: file, Name: name})
	return reached || !known
}

// executedFuncs returns the functions a recorded test's own record
// executed, by the recorded versions of their files (a FuncRef without a
// name for lines outside every function); nil when they cannot be told
// (a record per file, a version without its functions).
func (c *covSel) executedFuncs(id string) []lang.FuncRef {
	m := &c.reach
	if m.funcs == nil {
		m.funcs, m.entries, m.versions = map[string][]lang.FuncRef{}, map[string]map[string]coverage.Entry{}, map[versionKey][]coverage.Func{}
	}
	if fs, ok := m.funcs[id]; ok {
		return fs
	}
	fs, err := c.readFuncs(id)
	if err != nil {
		fs = nil
	}
	m.funcs[id] = fs
	return fs
}

// readFuncs reads executedFuncs' answer from the coverage index.
func (c *covSel) readFuncs(id string) ([]lang.FuncRef, error) {
	ti := c.tests[id]
	if ti.Granularity == "file" {
		return nil, nil
	}
	m := &c.reach
	out := []lang.FuncRef{}
	for _, file := range ti.Files {
		entries, ok := m.entries[file]
		if !ok {
			var err error
			if entries, err = c.cov.FileEntries(file); err != nil {
				return nil, err
			}
			m.entries[file] = entries
		}
		e, ok := entries[id]
		if !ok || len(e.Lines) == 0 {
			continue
		}
		k := versionKey{file, e.Hash}
		funcs, ok := m.versions[k]
		if !ok {
			v, err := c.cov.Version(file, e.Hash)
			if err != nil {
				return nil, err
			}
			funcs = v.Funcs
			m.versions[k] = funcs
		}
		if funcs == nil {
			return nil, nil
		}
		out = append(out, funcsRun(file, funcs, e.Lines)...)
	}
	// The test's own function is a start too: its record holds only the
	// instrumented code it ran (Go's -coverpkg leaves test files out), and
	// the test may read what an earlier test left without calling any of
	// it (a package variable read in the test's body, a helper of another
	// test file). Its ID names it as FILE::NAME; a name the graph does not
	// hold makes the answer unknown, which keeps the wide rule.
	if file, name, ok := strings.Cut(id, testdex.IDSep); ok && name != "" {
		out = append(out, lang.FuncRef{File: file, Name: name})
	}
	return out, nil
}

// funcsRun returns the functions of file whose lines the executed lines
// touch, and one FuncRef without a name when a line lies outside them all.
func funcsRun(file string, funcs []coverage.Func, lines []coverage.Span) []lang.FuncRef {
	var out []lang.FuncRef
	for _, f := range funcs {
		if touches(lines, f.Start, f.End) {
			out = append(out, lang.FuncRef{File: file, Name: f.Name})
		}
	}
	for _, s := range lines {
		for l := s.Start; l <= s.End; l++ {
			if !inFuncs(funcs, l) {
				return append(out, lang.FuncRef{File: file})
			}
		}
	}
	return out
}

// inFuncs reports whether line lies in one of funcs.
func inFuncs(funcs []coverage.Func, line int) bool {
	for _, f := range funcs {
		if f.Start <= line && line <= f.End {
			return true
		}
	}
	return false
}
