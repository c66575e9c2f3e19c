package python

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// skipsInTree reports a module that skips itself as it is imported, for
// a reason its extractor could not see (skipFact): a folder its
// condition names is missing from the tree (CPython's Tools/ beside Lib/,
// absent from an installed library), the interpreter is not a CPython
// source build, or an imported function it calls says one of these
// (test.test_tools.skip_if_missing('clinic')). Neither runner lists a
// test of such a module. The tree is read at each listing: the answer is
// never cached with the file.
func (c *classes) skipsInTree(m *modFile) bool {
	if m.facts.Skipped || c.ownSkips(m) {
		return true
	}
	// Importing a.b.mod imports a and a.b first: a package whose
	// __init__ skips skips every module under it.
	for d := path.Dir(m.rel); d != "." && d != "/" && !strings.HasPrefix(d, ".."); d = path.Dir(d) {
		if c.packageSkips(d) {
			return true
		}
	}
	return false
}

// packageSkips reports a package folder whose __init__.py skips as it is
// imported, memoised.
func (c *classes) packageSkips(dir string) bool {
	if v, ok := c.pkgSkip[dir]; ok {
		return v
	}
	v := false
	if init := path.Join(dir, "__init__.py"); isFile(filepath.Join(c.dir, filepath.FromSlash(init))) {
		if mf := c.load(init); mf != nil {
			v = mf.facts.Skipped || c.ownSkips(mf)
		}
	}
	if c.pkgSkip == nil {
		c.pkgSkip = map[string]bool{}
	}
	c.pkgSkip[dir] = v
	return v
}

// ownSkips reports a module whose own skipFacts skip it here.
func (c *classes) ownSkips(m *modFile) bool {
	for _, s := range m.facts.Skips {
		switch {
		case s.Path != "":
			if !c.pathHolds(path.Join(path.Dir(m.rel), s.Path), s.Test) {
				return true
			}
		case s.Build:
			if c.installedTestPackage(m.rel) {
				return true
			}
		case s.Call != "":
			if c.callSkips(m, s) {
				return true
			}
		}
	}
	return false
}

// callSkips reports a call of another module's dirSkipper whose folder
// is missing.
func (c *classes) callSkips(m *modFile, s skipFact) bool {
	dot := strings.LastIndex(s.Call, ".")
	if dot <= 0 {
		return false
	}
	mod := c.module(m, s.Call[:dot])
	if mod == nil || mod == m {
		return false
	}
	d, ok := mod.facts.DirSkips[s.Call[dot+1:]]
	if !ok {
		return false
	}
	rel := d.Bare
	if s.Arg != nil {
		rel = ""
		if d.Given != "" {
			rel = strings.ReplaceAll(d.Given, argMark, *s.Arg)
		}
	}
	return rel != "" && !c.pathHolds(path.Join(path.Dir(mod.rel), rel), d.Test)
}

// pathHolds reports whether os.path.isdir (exists, isfile) holds for a
// project-relative path (it may climb above the project).
func (c *classes) pathHolds(rel, test string) bool {
	st, err := os.Stat(filepath.Join(c.dir, filepath.FromSlash(rel)))
	switch test {
	case "isdir":
		return err == nil && st.IsDir()
	case "isfile":
		return err == nil && st.Mode().IsRegular()
	}
	return err == nil
}

// installedTestPackage reports a module of the standard library's test
// package (its top package is named test) whose library folder's parent
// holds no Modules/Setup or Modules/Setup.local: not a CPython source
// tree, so the interpreter that imports it is not a source build and
// sysconfig.is_python_build() is false. In a source tree (Lib/test beside
// Modules/) the answer depends on the interpreter: unknown.
func (c *classes) installedTestPackage(rel string) bool {
	top := ""
	for d := filepath.Dir(filepath.Join(c.dir, filepath.FromSlash(rel))); isFile(filepath.Join(d, "__init__.py")); d = filepath.Dir(d) {
		top = d
		if filepath.Dir(d) == d {
			return false
		}
	}
	if filepath.Base(top) != "test" {
		return false
	}
	src := filepath.Dir(filepath.Dir(top))
	return !isFile(filepath.Join(src, "Modules", "Setup")) && !isFile(filepath.Join(src, "Modules", "Setup.local"))
}
