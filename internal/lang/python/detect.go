package python

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector is the Python ecosystem. A folder with pyproject.toml,
// setup.cfg, pytest.ini, tox.ini or setup.py is a project; .py files with
// none above them belong to a project at the listed root.
//
// A project is pytest's when any of these holds, and unittest's otherwise:
// pytest configuration applies to it (see findConfig), pytest or a pytest-*
// plugin is among its declared dependencies (pyproject's
// [project.optional-dependencies], [dependency-groups] and
// [project].dependencies, requirements*.txt, tox.ini deps, setup.cfg and
// setup.py text), a conftest.py lies in the project folder, its rootdir,
// tests/ or test/, or a test file in the first levels of the project
// imports pytest (at most 200 files are read for this).
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string { return "python" }
func (detector) Manifests() []string {
	return []string{"pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini", "setup.py"}
}

// .txt and .rst are for pytest's --doctest-glob text files.
func (detector) Extensions() []string { return []string{".py", ".txt", ".rst"} }

// Detect reads the project's pytest configuration and decides its
// framework. Problems: a configuration file that does not parse.
func (detector) Detect(env *lang.DetectEnv, dir string, manifests []string) (*lang.Project, []testdex.Problem) {
	if subpackage(env, dir, manifests) {
		return nil, nil // a package of the project above (CPython's test.test_cppext)
	}
	p := &lang.Project{Dir: dir}
	if len(manifests) > 0 {
		p.Manifest = manifests[0]
	}
	var probs []testdex.Problem
	cfg, err := findConfig(dir, env.ReadFile)
	if err != nil {
		probs = append(probs, testdex.Problem{Severity: testdex.SevError, Path: cfg.Inifile, Message: err.Error()})
	}
	if usesPytest(env, dir, cfg) {
		s, sprobs := pytestSetup(p, cfg)
		p.Frameworks = []*lang.Setup{s}
		probs = append(probs, sprobs...)
	} else {
		p.Frameworks = []*lang.Setup{unittestSetup(p)}
	}
	p.Grapher = grapher{cfg: cfg, pytest: p.Frameworks[0].Framework == testdex.Pytest}
	p.Spanner = Spanner
	return p, probs
}

var (
	pytestDep    = regexp.MustCompile(`(?m)(^|["'\s,\[])pytest([-_][A-Za-z0-9_.-]+)?\s*([<>=!~;\[,"']|$)`)
	pytestImport = regexp.MustCompile(`(?m)^\s*(import\s+pytest\b|from\s+pytest\s+import\b|from\s+_pytest\b)`)
)

// usesPytest applies the rule in Detector's comment.
func usesPytest(env *lang.DetectEnv, dir string, cfg *pytestConfig) bool {
	if cfg.Section {
		return true
	}
	for _, name := range []string{"pyproject.toml", "setup.cfg", "tox.ini", "setup.py", "requirements.txt",
		"requirements-dev.txt", "requirements-test.txt", "requirements_dev.txt", "requirements_test.txt",
		"test-requirements.txt", "dev-requirements.txt", "requirements/test.txt", "requirements/dev.txt",
		"requirements/tests.txt", "requirements-tests.txt", "Pipfile"} {
		if data, err := env.ReadFile(filepath.Join(dir, name)); err == nil && pytestDep.Match(data) {
			return true
		}
	}
	for _, d := range []string{dir, cfg.Rootdir, filepath.Join(dir, "tests"), filepath.Join(dir, "test")} {
		if _, err := env.ReadFile(filepath.Join(d, "conftest.py")); err == nil {
			return true
		}
	}
	return importsPytest(env, dir)
}

// importsPytest reads up to 200 test files in dir and the two levels below
// it and reports whether one imports pytest.
func importsPytest(env *lang.DetectEnv, dir string) bool {
	budget := 200
	var visit func(d string, depth int) bool
	visit = func(d string, depth int) bool {
		entries, err := os.ReadDir(d)
		if err != nil {
			return false
		}
		for _, e := range entries {
			name := e.Name()
			if budget <= 0 {
				return false
			}
			switch {
			case e.IsDir() && depth < 2 && !strings.HasPrefix(name, ".") && name != "node_modules" && name != "__pycache__" && name != "venv":
				if visit(filepath.Join(d, name), depth+1) {
					return true
				}
			case !e.IsDir() && strings.HasSuffix(name, ".py") && strings.HasPrefix(name, "test"):
				budget--
				if data, err := env.ReadFile(filepath.Join(d, name)); err == nil && bytes.Contains(data, []byte("pytest")) && pytestImport.Match(data) {
					return true
				}
			}
		}
		return false
	}
	return visit(dir, 0)
}

// subpackage reports a folder whose only manifest is a setup.py and that
// is a package inside another package (it and its parent hold an
// __init__.py): the setup.py builds something the package's tests use,
// and the folder's modules are imported, and run, as part of the
// project above.
func subpackage(env *lang.DetectEnv, dir string, manifests []string) bool {
	if len(manifests) != 1 || manifests[0] != "setup.py" {
		return false
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if _, err := env.ReadFile(filepath.Join(d, "__init__.py")); err != nil {
			return false
		}
	}
	return true
}
