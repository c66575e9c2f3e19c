package python

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// modFile is one Python module the Linker knows: a test file handed to it
// or a helper module it parsed to follow a base class.
type modFile struct {
	rel   string // project-relative, slash-separated
	facts *fileFacts
	res   *lang.Result // nil for helper modules
	// decorated are the classes whose decorators of other modules were
	// run over them, what they add set as methods (decorun.go).
	decorated map[string]bool
}

// classRef names one class of one module.
type classRef struct {
	m *modFile
	i int
}

func (r classRef) fact() *classFact { return &r.m.facts.Classes[r.i] }

// classInfo is what inheritance makes of a class.
type classInfo struct {
	testCase bool       // unittest.TestCase is among its ancestors
	mro      []classRef // the class and its project-known ancestors, most derived first
	hasInit  bool       // some known class in the MRO defines __init__ or __new__
	testAttr *bool      // the first __test__ along the MRO
	meta     *metaFact  // what the metaclass adds to each class it makes
}

// classes resolves bases across the project. It parses helper modules
// (base classes outside test files) from disk on demand.
type classes struct {
	dir        string // absolute project folder
	loadAux    func(abs string, ex lang.Extractor, s lang.Settings) (lang.Result, error)
	roots      []string
	rootdirRel string
	unittest   bool
	byRel      map[string]*modFile
	fetched    map[string]fetched // read ahead by prefetch, not yet loaded
	memo       map[classRef]*classInfo
	pkgSkip    map[string]bool // package folders by whether their __init__ skips (fslink.go)
}

func newClasses(p *lang.Project, rootdirRel string, unittest bool, files []*modFile) *classes {
	c := &classes{dir: p.Dir, loadAux: p.Load, unittest: unittest, rootdirRel: rootdirRel, byRel: map[string]*modFile{}, fetched: map[string]fetched{}, memo: map[classRef]*classInfo{}}
	for _, f := range files {
		c.byRel[f.rel] = f
	}
	c.roots = []string{".", "src"}
	if rootdirRel != "." {
		c.roots = append(c.roots, rootdirRel)
	}
	// A project folder that is itself a package (CPython's Lib/test) is
	// imported by its dotted name from the folder above, and so on up.
	up := ".."
	for d := p.Dir; isFile(filepath.Join(d, "__init__.py")) && filepath.Dir(d) != d; d = filepath.Dir(d) {
		c.roots = append(c.roots, up)
		up += "/.."
	}
	return c
}

// knownTestCase lists unittest's TestCase classes by their dotted names.
var knownTestCase = map[string]bool{"unittest.TestCase": true, "unittest.case.TestCase": true,
	"unittest.IsolatedAsyncioTestCase": true, "unittest.async_case.IsolatedAsyncioTestCase": true}

// info computes a class's inheritance facts, memoised, cycles cut.
func (c *classes) info(r classRef, depth int) *classInfo {
	if ci, ok := c.memo[r]; ok {
		if ci == nil {
			return &classInfo{mro: []classRef{r}}
		}
		return ci
	}
	c.memo[r] = nil
	f := r.fact()
	ci := &classInfo{mro: []classRef{r}, hasInit: f.HasInit, testAttr: f.TestAttr, meta: f.Meta}
	for _, b := range f.Bases {
		ref, testCase, found := c.resolve(r.m, b, 0)
		ci.testCase = ci.testCase || testCase
		if !found || depth > 50 {
			continue
		}
		bi := c.info(ref, depth+1)
		ci.testCase = ci.testCase || bi.testCase
		ci.hasInit = ci.hasInit || bi.hasInit
		if ci.testAttr == nil {
			ci.testAttr = bi.testAttr
		}
		if ci.meta == nil {
			ci.meta = bi.meta
		}
		for _, a := range bi.mro {
			if !containsRef(ci.mro, a) {
				ci.mro = append(ci.mro, a)
			}
		}
	}
	c.memo[r] = ci
	return ci
}

func containsRef(rs []classRef, r classRef) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// resolve finds the class a base expression names, as seen from module m.
// testCase reports a base known (or, outside the project, named) to be
// unittest's TestCase.
func (c *classes) resolve(m *modFile, base string, depth int) (ref classRef, testCase, found bool) {
	if depth > 8 {
		return ref, false, false
	}
	if i := m.findClass(base); i >= 0 {
		return classRef{m, i}, false, true
	}
	first, rest, hasRest := strings.Cut(base, ".")
	full := base
	if imp, ok := m.facts.Imports[first]; ok {
		full = imp
		if hasRest {
			full += "." + rest
		}
	}
	if knownTestCase[full] {
		return ref, true, false
	}
	dot := strings.LastIndex(full, ".")
	// from . import Base: full is ".Base", a class of the package's
	// __init__.py (its module name is the dots alone).
	if dots := len(full) - len(strings.TrimLeft(full, ".")); dot >= 0 && (dot > 0 || dots > 0) {
		modName, cls := full[:dot], full[dot+1:]
		if dot < dots {
			modName = full[:dots]
		}
		if mod := c.module(m, modName); mod != nil {
			if i := mod.findClass(cls); i >= 0 {
				return classRef{mod, i}, false, true
			}
			if _, ok := mod.facts.Imports[cls]; ok {
				return c.resolve(mod, cls, depth+1)
			}
		}
	}
	last := full[dot+1:]
	return ref, strings.HasSuffix(last, "TestCase") && last != "", false
}

// findClass returns the index of a module-level class (or a dotted nested
// one, Outer.Inner), -1 when absent.
func (m *modFile) findClass(qual string) int {
	parts := strings.Split(qual, ".")
	outer := -1
	for _, name := range parts {
		found := -1
		for i, cl := range m.facts.Classes {
			if cl.Outer == outer && cl.Name == name {
				found = i
				break
			}
		}
		if found < 0 {
			return -1
		}
		outer = found
	}
	return outer
}

// module locates a module by its dotted name as imported from m: relative
// names from m's folder, absolute ones from m's folder and its parents,
// the project folder, src/ and the rootdir (pytest's rootdir-relative
// sys.path insertion makes these the usual homes).
func (c *classes) module(m *modFile, dotted string) *modFile {
	for _, file := range c.candidates(m, dotted) {
		if mf := c.load(file); mf != nil {
			return mf
		}
	}
	return nil
}

// candidates lists the files module tries for a dotted name, in order.
func (c *classes) candidates(m *modFile, dotted string) []string {
	var cands []string
	if strings.HasPrefix(dotted, ".") {
		n := len(dotted) - len(strings.TrimLeft(dotted, "."))
		d := path.Dir(m.rel)
		for i := 1; i < n; i++ {
			d = path.Dir(d)
		}
		if dotted[n:] == "" {
			return []string{path.Join(d, "__init__.py")} // the package itself
		}
		cands = append(cands, path.Join(d, strings.ReplaceAll(dotted[n:], ".", "/")))
	} else {
		rel := strings.ReplaceAll(dotted, ".", "/")
		for d := path.Dir(m.rel); ; d = path.Dir(d) {
			cands = append(cands, path.Join(d, rel))
			if d == "." || d == "/" {
				break
			}
		}
		for _, r := range c.roots {
			cands = append(cands, path.Join(r, rel))
		}
	}
	files := make([]string, 0, 2*len(cands))
	for _, cand := range cands {
		files = append(files, cand+".py", cand+"/__init__.py")
	}
	return files
}

// norm cleans a project-relative path as load keys modules; false when
// it cannot be made relative to the project folder.
func (c *classes) norm(rel string) (string, bool) {
	rel = path.Clean(rel)
	if strings.HasPrefix(rel, "../") {
		r, err := filepath.Rel(c.dir, filepath.Join(c.dir, filepath.FromSlash(rel)))
		if err != nil {
			return "", false
		}
		rel = filepath.ToSlash(r)
	}
	return rel, true
}

// load returns the module at a project-relative path, parsing it from disk
// when it is not a test file (or taking it from what prefetch read).
func (c *classes) load(rel string) *modFile {
	rel, ok := c.norm(rel)
	if !ok {
		return nil
	}
	if mf, ok := c.byRel[rel]; ok {
		return mf
	}
	f, ok := c.fetched[rel]
	if !ok {
		f.res, f.err = c.read(rel)
	}
	if f.err != nil {
		c.byRel[rel] = nil
		return nil
	}
	if f.facts == nil {
		f.facts = decodeFacts(f.res.Facts)
	}
	mf := &modFile{rel: rel, facts: f.facts}
	c.byRel[rel] = mf
	c.settle(mf)
	return mf
}

// read extracts a module that is not a test file, through the core's
// cache when it offers one.
func (c *classes) read(rel string) (lang.Result, error) {
	abs := filepath.Join(c.dir, filepath.FromSlash(rel))
	ex := Extractor{Unittest: c.unittest}
	if c.loadAux != nil {
		return c.loadAux(abs, ex, nil)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return lang.Result{}, err
	}
	return ex.Extract(&lang.File{Rel: rel, Data: data}), nil
}

// methods returns the test methods a class has through its MRO, in
// pytest's order (base classes' methods first, each name once, the most
// derived definition winning) or, for unittest, sorted by name.
func (c *classes) methods(ci *classInfo, want func(string) bool) []fnFact {
	seen := map[string]bool{}
	groups := make([][]fnFact, len(ci.mro))
	for gi, r := range ci.mro {
		// The metaclass sets its methods on each class after the body runs.
		if mf := c.info(r, 0).meta; mf != nil && !slices.Contains(mf.Skip, r.fact().Name) {
			for _, name := range mf.Adds {
				if !seen[name] && want(name) {
					seen[name] = true
					groups[gi] = append(groups[gi], fnFact{Name: name, Line: r.fact().Line})
				}
			}
		}
		for _, name := range r.fact().Hidden {
			seen[name] = true // bound to a value that is not a test
		}
		for _, fn := range r.fact().Methods {
			if seen[fn.Name] || !want(fn.Name) {
				continue
			}
			seen[fn.Name] = true
			groups[gi] = append(groups[gi], fn)
		}
	}
	var out []fnFact
	for i := len(groups) - 1; i >= 0; i-- {
		out = append(out, groups[i]...)
	}
	return out
}

// marks merges the class marks along the MRO, base classes first, as
// pytest's get_unpacked_marks(consider_mro=True) does.
func (c *classes) marks(ci *classInfo) markSet {
	var m markSet
	for i := len(ci.mro) - 1; i >= 0; i-- {
		m = m.merge(ci.mro[i].fact().Marks)
	}
	return m
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
