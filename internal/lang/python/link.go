package python

import (
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// linker turns each file's functions and class facts into the final
// records: it resolves inheritance across the project, decides which
// classes the framework collects, names records (pytest node IDs relative
// to the rootdir; unittest dotted IDs from the project folder) and applies
// addopts' -k, -m and --deselect.
type linker struct {
	cfg                *pytestConfig // nil for unittest
	sel                selection
	classes, functions []string
	unittest           bool
	doc                doctestOptions
	// testFile accepts pytest's test modules (python_files): the other
	// files are there for their doctests only. nil accepts all.
	testFile func(rel string) bool
}

// Link implements lang.Linker.
func (l *linker) Link(p *lang.Project, files []*lang.Linked) []testdex.Problem {
	mods := make([]*modFile, len(files))
	var g errgroup.Group // the facts are decoded on every core: the rest of Link is serial
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, f := range files {
		g.Go(func() error {
			mods[i] = &modFile{rel: f.Rel, facts: decodeFacts(f.Result.Facts), res: f.Result}
			return nil
		})
	}
	g.Wait()
	rootRel := "."
	if l.cfg != nil {
		if r, err := filepath.Rel(p.Dir, l.cfg.Rootdir); err == nil {
			rootRel = filepath.ToSlash(r)
		}
	}
	cl := newClasses(p, rootRel, l.unittest, mods)
	cl.prefetch(mods)
	if l.unittest {
		for _, m := range mods {
			l.runDecorators(cl, m)
		}
	}
	for _, m := range mods {
		l.specialize(cl, m)
	}
	for _, m := range mods {
		cl.settle(m)
	}
	for i, f := range files {
		var tests []lang.Test
		if cl.skipsInTree(mods[i]) {
			f.Result.Tests = nil // it skips as it is imported here (fslink.go)
			continue
		}
		if l.unittest {
			tests = l.unittestRecords(cl, mods[i])
		} else {
			tests = l.pytestRecords(cl, mods[i])
			if l.testFile != nil && !l.testFile(f.Rel) {
				// A module listed for its doctests only: its test-like
				// functions are not collected, its warnings do not apply.
				tests = nil
				f.Result.Problems = errorsOnly(f.Result.Problems)
			}
			tests = append(tests, l.doctestRecords(p, f.Rel, *mods[i].facts)...)
			nodeFile := f.Rel
			if l.cfg != nil {
				if r, err := filepath.Rel(l.cfg.Rootdir, filepath.Join(p.Dir, filepath.FromSlash(f.Rel))); err == nil {
					nodeFile = filepath.ToSlash(r)
				}
			}
			tests = l.applySelection(nodeFile, tests)
			namePytest(nodeFile, tests)
		}
		f.Result.Tests = tests
	}
	return nil
}

// group is the records of one top-level definition, for ordering by line.
type group struct {
	line  int
	tests []lang.Test
}

// pytestRecords builds a file's records: its module-level functions (from
// the extractor) and its collected classes, in definition order.
func (l *linker) pytestRecords(cl *classes, m *modFile) []lang.Test {
	var groups []group
	fx := l.fixtures(cl, m)
	for _, fn := range m.facts.Funcs {
		groups = append(groups, group{line: fn.Line, tests: expandWith("", fn, m.facts.Module, fx)})
	}
	for i, c := range m.facts.Classes {
		if c.Outer == -1 {
			if tests := l.pytestClass(cl, m, classRef{m, i}, c.Name, "", fx); len(tests) > 0 {
				groups = append(groups, group{line: c.Line, tests: tests})
			}
		}
	}
	for _, imp := range importedClasses(cl, m) {
		if tests := l.pytestClass(cl, m, imp.ref, imp.local, "", fx); len(tests) > 0 {
			for i := range tests {
				tests[i].Line = imp.line
			}
			groups = append(groups, group{line: imp.line, tests: tests})
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].line < groups[j].line })
	var out []lang.Test
	for _, g := range groups {
		out = append(out, g.tests...)
	}
	return out
}

// imported is a class a module imports from another project module: the
// frameworks see it in the importing module's namespace too.
type imported struct {
	local string
	line  int
	ref   classRef
}

// importedClasses lists the project classes m imports by name, in line
// order.
func importedClasses(cl *classes, m *modFile) []imported {
	var out []imported
	for local := range m.facts.Imports {
		if ref, _, found := cl.resolve(m, local, 0); found && ref.m != m {
			out = append(out, imported{local: local, line: m.facts.ImportLines[local], ref: ref})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].line != out[j].line {
			return out[i].line < out[j].line
		}
		return out[i].local < out[j].local
	})
	return out
}

// pytestClass returns a class's records when pytest collects it from
// module m under the name name: a unittest.TestCase subclass whatever its
// name, or a class matching python_classes without __init__ or __new__;
// never with __test__ = False. fx is the fixtures visible around the class.
func (l *linker) pytestClass(cl *classes, m *modFile, r classRef, name, prefix string, fx fixtureScopes) []lang.Test {
	f := r.fact()
	ci := cl.info(r, 0)
	if ci.testAttr != nil && !*ci.testAttr {
		return nil
	}
	if !ci.testCase && (!matchesOption(name, l.classes) || ci.hasInit) {
		return nil
	}
	key := prefix + name
	marks := cl.marks(ci)
	module := m.facts.Module
	suite := lang.Test{Kind: testdex.KindSuite, Name: key, Parent: strings.TrimSuffix(prefix, "::"), Line: f.Line,
		Tags: marks.merge(module).Tags, Skip: marks.Skip || module.Skip}
	out := []lang.Test{suite}
	if ci.testCase {
		for _, fn := range unittestMethods(cl, ci) {
			fn.Marks.Tables = nil // pytest does not parametrize TestCase methods
			if m != cl.ownerOf(ci, fn.Name) {
				fn.Line = f.Line
			}
			out = append(out, withParent(expand(key+"::", fn, marks.merge(module)), key)...)
		}
	} else {
		fx = fx.with(cl.classFixtures(ci))
		for _, fn := range cl.methods(ci, func(n string) bool { return matchesOption(n, l.functions) }) {
			if m != cl.ownerOf(ci, fn.Name) {
				fn.Line = f.Line
			}
			out = append(out, withParent(expandWith(key+"::", fn, marks.merge(module), fx), key)...)
		}
	}
	for i, c := range r.m.facts.Classes {
		if c.Outer == r.i && r.m == m {
			out = append(out, l.pytestClass(cl, m, classRef{r.m, i}, c.Name, key+"::", fx)...)
		}
	}
	if len(out) == 1 {
		return nil
	}
	return out
}

// withParent sets the parent of top records (those without one).
func withParent(tests []lang.Test, parent string) []lang.Test {
	for i := range tests {
		if tests[i].Parent == "" {
			tests[i].Parent = parent
		}
	}
	return tests
}

// ownerOf returns the module whose class defines the method the MRO
// resolves a name to.
func (c *classes) ownerOf(ci *classInfo, name string) *modFile {
	for _, r := range ci.mro {
		for _, fn := range r.fact().Methods {
			if fn.Name == name {
				return r.m
			}
		}
	}
	return nil
}

// unittestMethods is TestLoader.getTestCaseNames: methods whose name
// starts with "test", sorted, or runTest when there are none.
func unittestMethods(cl *classes, ci *classInfo) []fnFact {
	fns := cl.methods(ci, func(n string) bool { return strings.HasPrefix(n, "test") })
	sort.SliceStable(fns, func(i, j int) bool { return fns[i].Name < fns[j].Name })
	if len(fns) == 0 {
		fns = cl.methods(ci, func(n string) bool { return n == "runTest" })
	}
	return fns
}

// unittestRecords builds a unittest file's records: each TestCase
// subclass in the module's namespace (defined or imported) and its test
// methods. IDs use the defining module and the class's own name, as
// TestCase.id() does; Local is LocalName::method.
func (l *linker) unittestRecords(cl *classes, m *modFile) []lang.Test {
	var refs []imported
	for i, c := range m.facts.Classes {
		if c.Outer == -1 {
			refs = append(refs, imported{local: c.Name, line: c.Line, ref: classRef{m, i}})
		}
	}
	refs = append(refs, importedClasses(cl, m)...)
	refs = loadedOnly(m, refs)
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].line < refs[j].line })
	// A test class the module adds tests to at run time is listed even
	// without static test methods: its dynamic record needs a parent.
	testClasses := map[string]string{}
	for _, r := range refs {
		if ci := cl.info(r.ref, 0); ci.testCase && r.ref.m == m {
			testClasses[r.local] = moduleName(m.rel) + "." + r.ref.fact().qualName()
		}
	}
	places := l.dynPlaces(cl, m, testClasses)
	byClass := map[string][]lang.Test{}
	hidden := map[string][]string{}
	var out []lang.Test
	for _, p := range places {
		if p.class != "" {
			byClass[p.class] = append(byClass[p.class], dynRecord(m, p))
			hidden[p.class] = append(hidden[p.class], p.hides...)
		}
	}
	for _, r := range refs {
		ci := cl.info(r.ref, 0)
		if !ci.testCase {
			continue
		}
		fns := unittestMethods(cl, ci)
		if h := hidden[r.local]; len(h) > 0 {
			fns = slices.DeleteFunc(slices.Clone(fns), func(f fnFact) bool { return slices.Contains(h, f.Name) })
		}
		if len(fns) == 0 && byClass[r.local] == nil {
			continue
		}
		marks := cl.marks(ci)
		// unittest names a class by its __qualname__; it is found by
		// the name the module binds it to.
		dotted := moduleName(r.ref.m.rel) + "." + r.ref.fact().qualName()
		run := moduleName(r.ref.m.rel) + "." + r.ref.fact().Name
		out = append(out, lang.Test{Kind: testdex.KindSuite, Name: dotted, Local: r.local, Line: r.line, Skip: marks.Skip, Run: run})
		out = append(out, byClass[r.local]...)
		out = slices.Grow(out, len(fns))
		for _, fn := range fns {
			line := fn.Line
			if cl.ownerOf(ci, fn.Name) != m {
				line = r.line
			}
			out = append(out, lang.Test{Kind: testdex.KindTest, Name: dotted + "." + fn.Name, Local: r.local + "::" + fn.Name,
				Parent: r.local, Line: line, Skip: marks.Skip || fn.Marks.Skip, Run: run + "." + fn.Name})
		}
	}
	out = append(out, l.renamedRecords(cl, m)...)
	out = append(out, docSuiteRecords(cl, m)...)
	for _, p := range places {
		if p.class == "" {
			out = append(out, dynRecord(m, p))
		}
	}
	return out
}

// loadedOnly keeps the classes a module's load_tests hook loads, when
// that hook loads exactly some of its classes (dynFact.Only).
func loadedOnly(m *modFile, refs []imported) []imported {
	var only []string
	hooks := 0
	for _, f := range m.facts.Dyn {
		if f.Why == whyLoadTests {
			hooks++
			only = f.Only
		}
	}
	if hooks != 1 || only == nil {
		return refs
	}
	var out []imported
	for _, r := range refs {
		if slices.Contains(only, r.local) {
			out = append(out, r)
		}
	}
	return out
}

// moduleName is a project-relative file's dotted module name.
func moduleName(rel string) string {
	return strings.ReplaceAll(strings.TrimSuffix(strings.TrimSuffix(rel, "/__init__.py"), ".py"), "/", ".")
}

// namePytest turns keys into node IDs: Local keeps the key, Name and Run
// become nodeFile::key; a dynamic record runs its parent.
func namePytest(nodeFile string, tests []lang.Test) {
	for i := range tests {
		t := &tests[i]
		t.Local = t.Name
		t.Name = nodeFile + "::" + t.Local
		t.Run = t.Name
		if t.Dynamic {
			t.Run = nodeFile + "::" + t.Parent
			if t.Parent == "" {
				t.Run = nodeFile // the module's doctests made at run time
			}
		}
	}
}

// applySelection applies addopts' -k, -m and --deselect to the items
// pytest would report (tests without rows, and rows), then drops
// parametrized tests and classes left with nothing. Dynamic rows are kept:
// their names are unknown.
func (l *linker) applySelection(nodeFile string, tests []lang.Test) []lang.Test {
	s := l.sel
	if s.keywords == nil && s.marks == nil && len(s.deselect) == 0 {
		return tests
	}
	parent := map[string]string{}
	hasChild := map[string]bool{}
	for _, t := range tests {
		parent[t.Name] = t.Parent
		hasChild[t.Parent] = true
	}
	dirs := strings.Split(path.Dir(nodeFile), "/")
	if dirs[0] == "." {
		dirs = nil
	}
	keep := map[string]bool{}
	for _, t := range tests {
		if t.Kind == testdex.KindSuite || hasChild[t.Name] {
			continue
		}
		if !t.Dynamic && !l.selected(nodeFile, dirs, t) {
			continue
		}
		for k := t.Name; k != "" && !keep[k]; k = parent[k] {
			keep[k] = true
		}
	}
	var out []lang.Test
	for _, t := range tests {
		if keep[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// selected evaluates the selection on one item.
func (l *linker) selected(nodeFile string, dirs []string, t lang.Test) bool {
	names := append(slices.Clone(dirs), path.Base(nodeFile))
	names = append(names, strings.Split(t.Name, "::")...)
	names = append(names, t.Tags...)
	marks := t.Tags
	if t.Kind == testdex.KindSubtest {
		marks = append(slices.Clone(marks), "parametrize")
	}
	if !l.sel.keywords.eval(keywordMatch(names)) || !l.sel.marks.eval(markMatch(marks)) {
		return false
	}
	for _, d := range l.sel.deselect {
		if strings.HasPrefix(nodeFile+"::"+t.Name, d) {
			return false
		}
	}
	return true
}

// fixtures returns the fixtures visible from module m: its own, then
// those of the conftest.py files from its folder up to the project folder
// and the rootdir, nearest first.
func (l *linker) fixtures(cl *classes, m *modFile) fixtureScopes {
	var scopes fixtureScopes
	if len(m.facts.Fixtures) > 0 {
		scopes = append(scopes, m.facts.Fixtures)
	}
	dirs := []string{}
	for d := path.Dir(m.rel); ; d = path.Dir(d) {
		dirs = append(dirs, d)
		if d == "." || d == "/" || strings.HasPrefix(d, "..") {
			break
		}
	}
	if strings.HasPrefix(cl.rootdirRel, "..") {
		dirs = append(dirs, cl.rootdirRel)
	}
	for _, d := range dirs {
		if c := cl.load(path.Join(d, "conftest.py")); c != nil && len(c.facts.Fixtures) > 0 {
			scopes = append(scopes, c.facts.Fixtures)
		}
	}
	return scopes
}
