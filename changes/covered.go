package changes

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/languages"
)

// CoverageIndex is what SelectCovered reads of the coverage index
// (*coverage.Index): every recorded test, one file's entries, one
// recorded version of a file.
type CoverageIndex interface {
	AllTests() (map[string]coverage.TestInfo, error)
	FileEntries(path string) (map[string]coverage.Entry, error)
	Version(path string, hash uint64) (coverage.Version, error)
}

// SelectCovered is Select with the coverage index's evidence, for the
// tests that have a usable record: such a test is affected by a change of
// a file iff
//
//   - it executed a function of the file whose canonical hash changed
//     (lines of the function's body, numbered as the version it recorded);
//   - or a test that started before it in its process executed one (a
//     record that names its process: what the earlier test ran, a cache
//     it filled, may serve this one; see covered_process.go), when the
//     language's static graph reaches that function from one the test
//     ran itself or cannot tell (lang.Reacher), its record being usable
//     only when every earlier test of its process has one;
//   - or the file changed outside its function bodies (module-level code,
//     a declaration, a new, renamed or deleted function, a decorator or
//     default), was added, deleted or renamed, is no source a Spanner cuts
//     (a data file, a manifest), or its version when the test was recorded
//     is unknown: then the static evidence decides, as Select does, for
//     that change;
//   - or a rule fires for it (a global file, testdex.toml's [affected], a
//     project without evidence), whatever the coverage says.
//
// A test's own test file is a file like the others: its changed body is a
// changed function it executed. A test without a usable record (none, or
// recorded as failed or without an outcome: a run cut short may have
// written a partial record) keeps the static evidence for the whole
// change. A record stands for a listed test when it is its own, its
// nearest recorded ancestor's (Go records top-level tests, which run their
// subtests) or, failing both, its recorded descendants' (rows named at run
// time).
//
// Why a test that executed no changed function is not affected when every
// file is otherwise unchanged outside function bodies: run on the old code,
// the test's execution and the new code's agree up to the first point
// where it executes something changed; the only code that changed is
// inside function bodies, and it executed none of those. So it runs as it
// ran (given the same inputs: see the blind spots below), and a line it
// did not execute then can be reached now only through a changed line it
// did execute. Code outside function bodies is not judged by lines at all
// (Go records none; Python and JavaScript run it at import, before or
// outside the tests, and it may define what later code reads without
// being "executed" by a test): any change there goes to the static graph.
//
// What coverage sees that the static graph misses: nothing it needs, the
// static graph is a superset by construction where it is asked. What the
// static graph sees that coverage cannot: code reached without being
// executed (declarations, types, constants; data read from files), which
// is why those changes keep it. Blind spots of both, or of coverage only:
// nondeterministic tests (a branch not taken in the recorded run, a
// timing-dependent path, random inputs) may execute a changed function
// next time that they did not execute when recorded; a test that reads a
// source file as data (or a line number of an unchanged function that
// moved: a stack trace in a snapshot) depends on text coverage does not
// count; code run in child processes is not recorded. Record again
// ('testdex run --coverage') after changing such tests; --no-coverage
// asks the static evidence alone.
func (g *Graph) SelectCovered(ix *index.Index, set Set, cov CoverageIndex) ([]Affected, error) {
	tests, err := cov.AllTests()
	if errors.Is(err, coverage.ErrNoData) {
		return g.Select(ix, set), nil
	}
	if err != nil {
		return nil, err
	}
	return g.selectCovered(ix, set, cov, tests)
}

// selectCovered is SelectCovered over the recorded tests as read.
func (g *Graph) selectCovered(ix *index.Index, set Set, cov CoverageIndex, tests map[string]coverage.TestInfo) ([]Affected, error) {
	c := &covSel{g: g, ix: ix, cov: cov, tests: tests, static: map[string]map[string]Reason{}, files: map[string]*fileChange{}}
	full := recordReasons(g.Select(ix, set))
	byFile := map[string]*Affected{}
	add := func(t testdex.Test, r Reason) {
		a := byFile[t.File]
		if a == nil {
			a = &Affected{File: t.File}
			byFile[t.File] = a
		}
		a.Tests, a.Reasons = append(a.Tests, t), append(a.Reasons, r)
	}
	for _, t := range ix.Tests {
		ids, how := c.standIns(t)
		var r Reason
		var ok bool
		var err error
		switch {
		case how == skipContainer:
			continue
		case len(ids) == 0:
			r, ok = full[t.ID]
		case how == byRows && languages.Framework(t.Framework).RowsRunByID:
			parent := t.ID
			if t.Dynamic {
				parent = t.Parent
			}
			rows, whole, err := c.decideRows(t, parent, ids, set)
			if err != nil {
				return nil, err
			}
			if whole != nil {
				add(t, *whole)
			}
			for _, rr := range rows {
				add(rr.test, rr.reason)
			}
			continue
		default:
			if r, ok, err = c.decide(t, ids, set); err != nil {
				return nil, err
			}
		}
		if ok {
			add(t, r)
		}
	}
	return c.affected(byFile), nil
}

// row is one affected row of a listed test, named by its recorded ID.
type row struct {
	test   testdex.Test
	reason Reason
}

// decideRows answers a listed test whose records are rows named at run
// time (ids, recorded under parent: the test itself, or a dynamic
// record's parent): the rows that executed a changed statement, each as a
// record of its own under parent (its ID as the runner reported it); or
// the listed test whole, when a rule fires, the static evidence decides
// for a row, or every row is affected.
func (c *covSel) decideRows(t testdex.Test, parent string, ids []string, set Set) ([]row, *Reason, error) {
	var rows []row
	for _, id := range ids {
		r, ok, err := c.decide(t, []string{id}, set)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		if r.Rule != "covered" {
			return nil, &r, nil
		}
		rt := t
		rt.ID, rt.Parent, rt.Dynamic, rt.Kind, rt.Run = id, parent, false, testdex.KindSubtest, ""
		rt.Name = strings.TrimSuffix(t.Name, strings.TrimPrefix(t.ID, parent)) + strings.TrimPrefix(id, parent)
		rows = append(rows, row{rt, r})
	}
	if len(rows) == len(ids) {
		return nil, &rows[0].reason, nil
	}
	return rows, nil, nil
}

// affected orders the picks by file; a file whose every record is
// selected for one reason is selected whole.
func (c *covSel) affected(byFile map[string]*Affected) []Affected {
	count := map[string]int{}
	for _, t := range c.ix.Tests {
		count[t.File]++
	}
	out := make([]Affected, 0, len(byFile))
	listed := make(map[string]bool, len(c.ix.Tests))
	for _, t := range c.ix.Tests {
		listed[t.ID] = true
	}
	for _, a := range byFile {
		a.Reason = a.Reasons[0]
		same := len(a.Tests) == count[a.File]
		for _, t := range a.Tests {
			same = same && listed[t.ID] // a row selected alone is no listed record
		}
		for _, r := range a.Reasons {
			same = same && r.String() == a.Reason.String()
		}
		if same {
			a.Reasons = nil
		}
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// recordReasons maps each selected record's ID to its reason.
func recordReasons(affected []Affected) map[string]Reason {
	out := map[string]Reason{}
	for _, a := range affected {
		for i, t := range a.Tests {
			out[t.ID] = a.ReasonOf(i)
		}
	}
	return out
}

// covSel is one SelectCovered: what it read, kept per change.
type covSel struct {
	g      *Graph
	ix     *index.Index
	cov    CoverageIndex
	tests  map[string]coverage.TestInfo
	static map[string]map[string]Reason // change path -> record ID -> static reason
	files  map[string]*fileChange       // change path -> what coverage can say of it
	byName map[string][]string          // listed ID -> recorded descendants
	// children, dynChild and listed are the listing's family (family):
	// records with listed children, with a dynamic child, and the listed
	// IDs that are not dynamic.
	children, dynChild, listed map[string]bool
	names                      map[string]testdex.Test // namer's
	// procs are the recorded tests by the process they ran in (procsOf).
	procs map[procKey]*procGroup
	// reach is what the reachability narrowing read (covered_reach.go).
	reach reachMemo
	// projects are the listing's, computed once (projectOf).
	projects []index.ProjectFiles
}

// How a listed record's stand-ins (standIns) relate to it.
type standIn int

const (
	byOwn         standIn = iota // its own record or its nearest recorded ancestor's
	byRows                       // rows named at run time: recorded descendants no listed record stands for
	skipContainer                // a container whose listed children (or dynamic child) answer for it
)

// standIns returns the recorded tests a listed record is judged by, and
// how. A record with its own or a recorded ancestor's record is judged by
// it (recordsOf). A container (a class, a describe, a test with listed
// rows) is no test of its own: its listed children are judged, and it
// only answers for the recorded tests below it that no listed record
// stands for (rows or tests the listing could not name), unless a dynamic
// child answers for those; with none, it is skipped. A leaf (no listed
// children) answers for all its recorded descendants, its dynamic child
// being skipped. None (nil, byOwn) when there are none or one is
// unusable: the static evidence decides.
//
// Why skipping containers is safe: every recorded test below a container
// is answered for by exactly one listed record (its own or a listed
// ancestor below the container, the dynamic child, or the container), so
// a container adds no test the selection lacks; selecting it would run
// all of its tests for one affected child.
func (c *covSel) standIns(t testdex.Test) ([]string, standIn) {
	if ids := c.ownOrAncestor(t); ids != nil {
		return c.usable(ids), byOwn
	}
	c.family()
	switch {
	case t.Dynamic && t.Parent == "":
		return nil, byOwn
	case t.Dynamic && !c.children[t.Parent]:
		return nil, skipContainer // its parent answers for all its rows, as a leaf
	case t.Dynamic:
		return c.usable(c.orphans(t.Parent)), byRows
	case c.children[t.ID]:
		if c.dynChild[t.ID] {
			return nil, skipContainer
		}
		ids := c.orphans(t.ID)
		if len(ids) == 0 {
			return nil, skipContainer
		}
		return c.usable(ids), byRows
	}
	return c.usable(c.descendants(t.ID)), byRows
}

// family notes, once, which listed records have listed children and
// which have a dynamic child.
func (c *covSel) family() {
	if c.children != nil {
		return
	}
	c.children, c.dynChild, c.listed = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, t := range c.ix.Tests {
		if t.Dynamic {
			c.dynChild[t.Parent] = true
			continue
		}
		c.listed[t.ID] = true
		if t.Parent != "" {
			c.children[t.Parent] = true
		}
	}
}

// orphans are the recorded descendants of a listed record that no listed
// record below it stands for (by its own ID or an ancestor's).
func (c *covSel) orphans(parent string) []string {
	var out []string
	for _, rid := range c.descendants(parent) {
		under := false
		for p := rid; len(p) > len(parent) && !under; {
			under = c.listed[p]
			i := strings.LastIndexAny(p, "[/ >:")
			if i <= 0 {
				break
			}
			p = p[:i]
		}
		if !under {
			out = append(out, rid)
		}
	}
	return out
}

// usable returns ids, or nil when one is recorded as failed or without
// an outcome (a run cut short may have written a partial record), or
// when what ran before one in its process is not all known (inOrder).
func (c *covSel) usable(ids []string) []string {
	for _, id := range ids {
		if o := c.tests[id].Outcome; (o != "pass" && o != "skip") || !c.inOrder(id) {
			return nil
		}
	}
	return ids
}

// ownOrAncestor is a listed record's own record, else its nearest
// recorded ancestor's; nil with neither.
func (c *covSel) ownOrAncestor(t testdex.Test) []string {
	if _, ok := c.tests[t.ID]; ok {
		return []string{t.ID}
	}
	namer := c.namer()
	for p := t.Parent; p != ""; {
		if _, ok := c.tests[p]; ok {
			return []string{p}
		}
		pt, ok := namer[p]
		if !ok {
			break
		}
		p = pt.Parent
	}
	return nil
}

// recordsOf returns the recorded tests that stand for a listed record:
// its own, else its nearest recorded ancestor's, else its recorded
// descendants' (rows named at run time); none when any is unusable.
func (c *covSel) recordsOf(t testdex.Test) []string {
	ids := c.ownOrAncestor(t)
	if ids == nil {
		ids = c.descendants(t.ID)
	}
	return c.usable(ids)
}

// namer maps listed IDs to their records (built once).
func (c *covSel) namer() map[string]testdex.Test {
	if c.names == nil {
		c.names = make(map[string]testdex.Test, len(c.ix.Tests))
		for _, t := range c.ix.Tests {
			c.names[t.ID] = t
		}
	}
	return c.names
}

// descendants returns the recorded IDs below a listed one: the ID
// followed by a separator a runner puts before a row or a subtest.
func (c *covSel) descendants(id string) []string {
	if c.byName == nil {
		c.byName = map[string][]string{}
		for rid := range c.tests {
			for i := len(rid) - 1; i > 0; i-- {
				if strings.ContainsRune("[/ >:", rune(rid[i])) {
					c.byName[rid[:i]] = append(c.byName[rid[:i]], rid)
				}
			}
		}
	}
	out := append([]string(nil), c.byName[id]...)
	sort.Strings(out)
	return out
}

// decide answers one listed record through its recorded tests ids: the
// first change that affects one of them, with its reason.
func (c *covSel) decide(t testdex.Test, ids []string, set Set) (Reason, bool, error) {
	for _, ch := range set {
		st, err := c.staticOf(ch)
		if err != nil {
			return Reason{}, false, err
		}
		if r, ok := st[t.ID]; ok && r.Rule != "" && r.Rule != "changed" {
			return r, true, nil // a rule fires, whatever the coverage says
		}
		fc, err := c.fileChange(ch)
		if err != nil {
			return Reason{}, false, err
		}
		for _, id := range ids {
			why := fc.affects(id, c.tests[id].Recorded)
			if why == nil {
				why = c.earlier(fc, id)
			}
			switch {
			case why == nil:
				continue
			case why.earlier != "":
				return Reason{Changed: ch.Path, Rule: "covered", Test: why.earlier, Functions: why.funcs, Earlier: true}, true, nil
			case why.static != "":
				if r, ok := st[t.ID]; ok {
					r.Fallback = why.static
					return r, true, nil
				}
			default:
				return Reason{Changed: ch.Path, Rule: "covered", Test: id, Functions: why.funcs}, true, nil
			}
		}
	}
	return Reason{}, false, nil
}

// staticOf is the static selection of one change, by record ID.
func (c *covSel) staticOf(ch Change) (map[string]Reason, error) {
	if m, ok := c.static[ch.Path]; ok {
		return m, nil
	}
	m := recordReasons(c.g.Select(c.ix, Set{ch}))
	c.static[ch.Path] = m
	return m, nil
}

// fileChange is what the coverage index can say of one changed file.
type fileChange struct {
	path string
	// static, when set, sends every recorded test to the static
	// evidence, for this reason.
	static  string
	current uint64
	entries map[string]coverage.Entry
	// runs maps a recording's start to the version of the file it saw
	// (any test of that run that executed the file tells).
	runs     map[time.Time]uint64
	versions map[uint64]*versionDiff
	tests    map[string]coverage.TestInfo
	// first is, per process and changed function, its first executor
	// there (covSel.earlier).
	first map[procKey]map[string]executor
}

// versionDiff is how the current file differs from one recorded version.
type versionDiff struct {
	static  string        // set when the change lies outside function bodies, or cannot be told
	changed []changedFunc // the recorded version's functions whose hash changed
}

// changedFunc is a recorded function whose hash changed: its name and
// the lines of its body then (the whole function when it has no body
// apart from its header: a one-line function), or, when the language's
// StatementDiffer could narrow it, the lines of the statements that
// changed (parts, non-nil).
type changedFunc struct {
	name   string
	lo, hi int
	parts  []lang.Span
}

// affected says why a recorded test is affected by the change: static
// (the static evidence decides) or the changed functions it executed;
// nil when it is not.
type affected struct {
	static string
	funcs  []string
	// earlier, when set, is the earlier test of the test's process that
	// executed funcs (covSel.earlier).
	earlier string
}

// affects decides for one recorded test.
func (fc *fileChange) affects(id string, recorded time.Time) *affected {
	if fc.static != "" {
		return &affected{static: fc.static}
	}
	e, executed := fc.entries[id]
	hash := e.Hash
	if !executed {
		h, ok := fc.runs[recorded]
		if !ok {
			return &affected{static: "its recording executed nothing in " + fc.path + ", whose version then is unknown"}
		}
		hash = h
	}
	if hash == fc.current {
		return nil // recorded on the file as it is now
	}
	vd := fc.versions[hash]
	if vd == nil {
		return &affected{static: fc.path + " changed since it was recorded and that version is unknown"}
	}
	if vd.static != "" {
		return &affected{static: vd.static}
	}
	var names []string
	for _, f := range vd.changed {
		if intersects(e.Lines, f) {
			names = append(names, f.name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return &affected{funcs: names}
}

// intersects reports whether executed lines touch a changed function's
// body.
func intersects(lines []coverage.Span, f changedFunc) bool {
	if f.parts != nil {
		for _, p := range f.parts {
			if touches(lines, p.Start, p.End) {
				return true
			}
		}
		return false
	}
	return touches(lines, f.lo, f.hi)
}

// touches reports whether executed lines touch the lines lo to hi.
func touches(lines []coverage.Span, lo, hi int) bool {
	for _, s := range lines {
		if s.Start <= hi && s.End >= lo {
			return true
		}
	}
	return false
}

// fileChange reads what coverage can say of one change, once.
func (c *covSel) fileChange(ch Change) (*fileChange, error) {
	if fc, ok := c.files[ch.Path]; ok {
		return fc, nil
	}
	fc := &fileChange{path: ch.Path, tests: c.tests}
	c.files[ch.Path] = fc
	p, rule := c.projectOf(ch.Path), languages.Bodies(ch.Path)
	switch {
	case ch.Status != Modified:
		fc.static = fmt.Sprintf("%s was %s: what imports resolve to may change", ch.Path, ch.Status)
		return fc, nil
	case p == nil || p.Spanner == nil || rule == nil:
		fc.static = ch.Path + " is no source file coverage records"
		return fc, nil
	}
	abs := filepath.Join(c.ix.Root, filepath.FromSlash(ch.Path))
	src, err := os.ReadFile(abs)
	if err != nil {
		fc.static = fmt.Sprintf("%s cannot be read: %v", ch.Path, err)
		return fc, nil
	}
	fc.current = xxh3.Hash(src)
	spans, err := p.Spanner.Spans(abs, src)
	if err != nil {
		fc.static = ch.Path + " does not parse now: its functions are unknown"
		return fc, nil
	}
	cur := make([]coverage.Func, len(spans))
	for i, s := range spans {
		cur[i] = coverage.Func{Name: s.Name, Start: s.Start, End: s.End, Hash: s.Hash}
	}
	if fc.entries, err = c.cov.FileEntries(ch.Path); err != nil {
		return nil, err
	}
	fc.runs, fc.versions = map[time.Time]uint64{}, map[uint64]*versionDiff{}
	curSkel := skeleton(rule, ch.Path, src, cur)
	for id, e := range fc.entries {
		if ti, ok := c.tests[id]; ok {
			fc.runs[ti.Recorded] = e.Hash
		}
		if _, done := fc.versions[e.Hash]; done || e.Hash == fc.current {
			continue
		}
		v, err := c.cov.Version(ch.Path, e.Hash)
		if err != nil {
			return nil, err
		}
		fc.versions[e.Hash] = diffVersion(ch.Path, rule, v, cur, curSkel, narrower(p, ch.Path, src, cur))
	}
	return fc, nil
}

// diffVersion compares a recorded version of a file with its current
// functions and skeleton, by the language's rule for bodies; narrow, when
// not nil, narrows a changed function to its changed statements.
func diffVersion(file string, rule *lang.Bodies, v coverage.Version, cur []coverage.Func, curSkel string, narrow narrowFunc) *versionDiff {
	vd := &versionDiff{}
	if v.Funcs == nil || v.Content == nil {
		vd.static = file + " changed since it was recorded and that version's text was not kept"
		return vd
	}
	if skeleton(rule, file, v.Content, v.Funcs) != curSkel {
		vd.static = file + " changed outside its function bodies"
		return vd
	}
	have := map[coverage.Func]int{}
	for _, f := range cur {
		have[coverage.Func{Name: f.Name, Hash: f.Hash}]++
	}
	lines := strings.Split(string(v.Content), "\n")
	bodyOf := rule.For(file, v.Content)
	nth := map[string]int{} // name -> functions of that name seen so far
	for _, f := range v.Funcs {
		k := coverage.Func{Name: f.Name, Hash: f.Hash}
		i := nth[f.Name]
		nth[f.Name]++
		if have[k] > 0 {
			have[k]--
			continue
		}
		lo, hi := bodyOf(lines, span(f))
		if lo > hi {
			lo, hi = f.Start, f.End
		}
		cf := changedFunc{name: f.Name, lo: lo, hi: hi}
		if narrow != nil {
			cf.parts = narrow(v, f, i)
		}
		vd.changed = append(vd.changed, cf)
	}
	return vd
}

// narrowFunc narrows the i-th function named f.Name of a recorded
// version to its changed statements; nil when it cannot.
type narrowFunc func(v coverage.Version, f coverage.Func, i int) []lang.Span

// narrower is the project's StatementDiffer over the current text and
// functions of a file (nil when the language has none): a recorded
// function is paired with the current function of the same name and
// rank, when both versions have as many functions of that name.
func narrower(p *lang.Project, file string, src []byte, cur []coverage.Func) narrowFunc {
	sd, ok := p.Spanner.(lang.StatementDiffer)
	if !ok {
		return nil
	}
	byName := map[string][]coverage.Func{}
	for _, f := range cur {
		byName[f.Name] = append(byName[f.Name], f)
	}
	return func(v coverage.Version, f coverage.Func, i int) []lang.Span {
		same := 0
		for _, g := range v.Funcs {
			if g.Name == f.Name {
				same++
			}
		}
		now := byName[f.Name]
		if len(now) != same || i >= len(now) {
			return nil
		}
		parts, ok := sd.ChangedStatements(file, v.Content, span(f), src, span(now[i]))
		if !ok || len(parts) == 0 {
			return nil // a changed hash with no changed statement found: the whole function
		}
		return parts
	}
}

func span(f coverage.Func) lang.FuncSpan {
	return lang.FuncSpan{Name: f.Name, Start: f.Start, End: f.End, Hash: f.Hash}
}

// projectOf is the innermost project holding a root-relative file.
func (c *covSel) projectOf(rel string) *lang.Project {
	if c.projects == nil {
		c.projects = c.ix.ProjectFiles()
	}
	return index.InnermostProject(c.projects, rel)
}
