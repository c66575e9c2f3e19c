package python

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Pytest's defaults for the options testdex honours.
var (
	defaultFiles     = []string{"test_*.py", "*_test.py"}
	defaultClasses   = []string{"Test"}
	defaultFunctions = []string{"test"}
	defaultNoRecurse = []string{"*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}"}
)

// selection is what addopts selects: -m and -k expressions, --ignore,
// --ignore-glob and --deselect, as pytest applies them.
type selection struct {
	marks, keywords *expr
	ignore          []string // project-relative paths
	ignoreGlob      []string // project-relative fnmatch patterns
	deselect        []string // node ID prefixes
}

// parseAddopts reads the selections out of addopts; options it does not
// know are left to pytest. Bad expressions are returned as problems.
func parseAddopts(args []string) (selection, []string) {
	var s selection
	var bad []string
	take := func(i *int, a, long string) (string, bool) {
		if a == long && *i+1 < len(args) {
			*i++
			return args[*i], true
		}
		if v, ok := strings.CutPrefix(a, long+"="); ok && strings.HasPrefix(long, "--") {
			return v, true
		}
		if v, ok := strings.CutPrefix(a, long); ok && !strings.HasPrefix(long, "--") && v != "" {
			return v, true
		}
		return "", false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v, ok := take(&i, a, "-m"); ok {
			e, err := parseExpr(v)
			if err != nil {
				bad = append(bad, "addopts -m "+v+": "+err.Error())
			}
			s.marks = e
		} else if v, ok := take(&i, a, "-k"); ok {
			e, err := parseExpr(v)
			if err != nil {
				bad = append(bad, "addopts -k "+v+": "+err.Error())
			}
			s.keywords = e
		} else if v, ok := take(&i, a, "--ignore-glob"); ok {
			s.ignoreGlob = append(s.ignoreGlob, strings.TrimSuffix(path.Clean(filepath.ToSlash(v)), "/"))
		} else if v, ok := take(&i, a, "--ignore"); ok {
			s.ignore = append(s.ignore, path.Clean(filepath.ToSlash(v)))
		} else if v, ok := take(&i, a, "--deselect"); ok {
			s.deselect = append(s.deselect, v)
		}
	}
	return s, bad
}

// option returns an ini option or its default.
func (c *pytestConfig) option(name string, def []string) []string {
	if v, ok := c.Options[name]; ok {
		return v
	}
	return def
}

// pytestSetup builds the pytest framework of a project.
func pytestSetup(p *lang.Project, cfg *pytestConfig) (*lang.Setup, []testdex.Problem) {
	sel, bad := parseAddopts(cfg.Options["addopts"])
	var probs []testdex.Problem
	for _, b := range bad {
		probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: cfg.Inifile,
			Message: b + " (the selection is not applied; check the expression)"})
	}
	files := cfg.option("python_files", defaultFiles)
	doc := parseDoctestOptions(cfg.Options["addopts"])
	doc.namespace = iniBool(cfg.Options["consider_namespace_packages"])
	m := &pytestMatcher{dir: p.Dir, files: files, norecurse: cfg.option("norecursedirs", defaultNoRecurse), sel: sel, doc: doc}
	if p.Dir == cfg.Rootdir {
		m.testpaths = cfg.Options["testpaths"]
	}
	settings := lang.Settings{SetFunctions: cfg.option("python_functions", defaultFunctions),
		SetClasses: cfg.option("python_classes", defaultClasses)}
	for _, k := range []string{SetLongStr, SetNoEscape, SetStrictIDs, SetStrict} {
		if v, ok := cfg.Options[k]; ok {
			settings[k] = v
		}
	}
	if doc.modules {
		settings[SetDoctest] = []string{"modules"}
	}
	lk := &linker{cfg: cfg, sel: sel, classes: settings[SetClasses], functions: settings[SetFunctions], doc: doc}
	if doc.modules {
		// Match also takes every module for its doctests; those are
		// doctest-only. (A file named on the command line that Match
		// rejects keeps its tests, as pytest collects them.)
		lk.testFile = func(rel string) bool { return m.matchTest(rel) || !m.match(rel) }
	}
	return &lang.Setup{
		Framework: testdex.Pytest,
		Extractor: Extractor{},
		Match:     m.match,
		Settings:  settings,
		Linker:    lk,
		Lister:    pytestLister{rootRel: relTo(p.Dir, cfg.Rootdir)},
		Runner:    pytestRunner{rootRel: relTo(p.Dir, cfg.Rootdir)},
		Patterns:  files,
		Lenient:   []string{".py"},
	}, probs
}

// pytestMatcher is pytest's file selection for a run from the project
// folder without arguments.
type pytestMatcher struct {
	dir       string
	files     []string
	norecurse []string
	testpaths []string
	sel       selection
	doc       doctestOptions
}

// match accepts pytest's test modules and, with the doctest plugin, the
// modules and text files it collects doctests from.
func (m *pytestMatcher) match(rel string) bool {
	if !strings.HasSuffix(rel, ".py") {
		globs := m.doc.textGlobs()
		return len(globs) > 0 && m.collected(rel, func(base string, initPath bool) bool {
			return initPath && (strings.HasSuffix(base, ".txt") || strings.HasSuffix(base, ".rst")) ||
				fnmatchAny(globs, base, m.dir+"/"+rel)
		})
	}
	if m.matchTest(rel) {
		return true
	}
	return m.doc.modules && m.collected(rel, func(base string, _ bool) bool {
		return base != "__main__.py" && (base != "setup.py" || !isSetupPy(filepath.Join(m.dir, filepath.FromSlash(rel))))
	})
}

// matchTest accepts the test modules (python_files).
func (m *pytestMatcher) matchTest(rel string) bool {
	if !strings.HasSuffix(rel, ".py") {
		return false
	}
	return m.collected(rel, func(base string, initPath bool) bool {
		return initPath || fnmatchAny(m.files, base, m.dir+"/"+rel)
	})
}

// collected applies testpaths, norecursedirs and --ignore to a file, then
// want to its base name (initPath: a testpaths entry names the file).
func (m *pytestMatcher) collected(rel string, want func(base string, initPath bool) bool) bool {
	dirs := strings.Split(rel, "/")
	base := dirs[len(dirs)-1]
	dirs = dirs[:len(dirs)-1]
	start := 0
	if len(m.testpaths) > 0 {
		start = -1
		for _, tp := range m.testpaths {
			if n := prefixMatch(strings.Trim(path.Clean(tp), "/"), rel); n >= 0 {
				start = n
				break
			}
		}
		if start < 0 {
			return false
		}
	}
	for i := start; i < len(dirs); i++ {
		if dirs[i] == "__pycache__" || fnmatchAny(m.norecurse, dirs[i], m.dir+"/"+strings.Join(dirs[:i+1], "/")) {
			return false
		}
	}
	for _, ig := range m.sel.ignore {
		if rel == ig || strings.HasPrefix(rel, ig+"/") {
			return false
		}
	}
	for _, g := range m.sel.ignoreGlob {
		if fnmatch(m.dir+"/"+g, m.dir+"/"+rel) {
			return false
		}
	}
	return want(base, start > len(dirs))
}

// prefixMatch returns how many leading components of rel a testpaths
// entry (a glob) names, or -1.
func prefixMatch(tp, rel string) int {
	parts := strings.Split(rel, "/")
	for n := 1; n <= len(parts); n++ {
		if ok, _ := doublestar.Match(tp, strings.Join(parts[:n], "/")); ok || tp == "." {
			if tp == "." {
				return 0
			}
			return n
		}
	}
	return -1
}

// fnmatchAny is pytest's fnmatch_ex over several patterns: a pattern
// without "/" matches the base name, one with "/" the whole path.
func fnmatchAny(patterns []string, base, full string) bool {
	for _, p := range patterns {
		if !strings.Contains(p, "/") {
			if fnmatch(p, base) {
				return true
			}
		} else if fnmatch("*/"+strings.TrimPrefix(p, "/"), full) || fnmatch(p, full) {
			return true
		}
	}
	return false
}

var validModule = regexp.MustCompile(`(?i)^[_a-z]\w*\.py$`)

// unittestSetup builds the unittest framework of a project: `python -m
// unittest discover` from the project folder (start and top-level folder
// both the project), pattern test*.py, descending only into packages and
// loading each package's __init__.py too. load_tests functions, which may
// change what a module or package yields, are not run.
func unittestSetup(p *lang.Project) *lang.Setup {
	var pkgs sync.Map // project-relative folder -> bool
	isPkg := func(rel string) bool {
		if v, ok := pkgs.Load(rel); ok {
			return v.(bool)
		}
		st, err := os.Stat(filepath.Join(p.Dir, filepath.FromSlash(rel), "__init__.py"))
		ok := err == nil && st.Mode().IsRegular()
		pkgs.Store(rel, ok)
		return ok
	}
	match := func(rel string) bool {
		parts := strings.Split(rel, "/")
		base := parts[len(parts)-1]
		// discover loads every package it enters (its __init__.py) and
		// the modules matching the pattern.
		isInit := base == "__init__.py" && len(parts) > 1
		if !isInit && (!validModule.MatchString(base) || !fnmatch("test*.py", base)) {
			return false
		}
		for i := 0; i < len(parts)-1; i++ {
			if !isIdentifier(parts[i]) || !isPkg(strings.Join(parts[:i+1], "/")) {
				return false
			}
		}
		return true
	}
	return &lang.Setup{
		Framework: testdex.Unittest,
		Extractor: Extractor{Unittest: true},
		Match:     match,
		Linker:    &linker{unittest: true},
		Lister:    unittestLister{},
		Runner:    unittestRunner{},
		Patterns:  []string{"test*.py"},
		Lenient:   []string{".py"},
	}
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func isIdentifier(s string) bool { return identRE.MatchString(s) }

// relTo is target relative to base, slash-separated; "." when it cannot be
// expressed.
func relTo(base, target string) string {
	r, err := filepath.Rel(base, target)
	if err != nil {
		return "."
	}
	return filepath.ToSlash(r)
}
