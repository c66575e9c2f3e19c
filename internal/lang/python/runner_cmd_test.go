package python

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// fakePython writes an executable at path that answers the pytest probe
// by printing its own path and exiting with code.
func fakePython(t *testing.T, path, code string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake interpreter is a shell script")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho "+path+"\nexit "+code+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// readPlan reads a driver's configuration file into v.
func readPlan(t *testing.T, cmd *lang.Command, v any) {
	t.Helper()
	data, err := os.ReadFile(cmd.Args[len(cmd.Args)-1])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("plan %s: %v", data, err)
	}
}

// TestPytestRunCommands: the whole project is no argument (pytest's own
// configuration decides) from the rootdir, and the project folder from a
// rootdir above it; paths are rootdir-relative, tests their node IDs
// intact; the timeout and options travel in the plan file, never in the
// environment.
func TestPytestRunCommands(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "p")
	py := filepath.Join(proj, ".venv", "bin", "python")
	fakePython(t, py, "0")
	tests := []*testdex.Test{{Name: "p/t.py::a", Run: "p/t.py::a"}, {Name: "p/t.py::b[x::y]"}, {Name: "p/t.py::c[x[1]]"}}
	for _, c := range []struct {
		name    string
		rootRel string
		sel     lang.Selection
		want    []string
	}{
		{"whole, run in its rootdir", ".", lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}, nil},
		{"whole, below the rootdir", "..", lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}, []string{"p"}},
		{"paths and tests", "..", lang.Selection{Paths: []lang.PathSelection{{Path: "tests", Dir: true}, {Path: "test_x.py"}}, Tests: tests},
			[]string{"p/tests", "p/test_x.py", "p/t.py::a", "p/t.py::b[x::y]", "p/t.py::c[x[1]]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			o := lang.RunOptions{Dir: dir, Extra: []string{"-x"}, TestTimeout: 1500 * time.Millisecond, Env: os.Environ()}
			cmds, err := pytestRunner{rootRel: c.rootRel}.RunCommands(&lang.Project{Dir: proj}, &c.sel, o)
			if err != nil {
				t.Fatal(err)
			}
			want := &lang.Command{Args: []string{py, filepath.Join(dir, "testdex_pytest.py"), filepath.Join(dir, "testdex_pytest.json")},
				Dir: filepath.Join(proj, c.rootRel)}
			if len(cmds) != 1 || !reflect.DeepEqual(cmds[0], want) {
				t.Fatalf("command:\n got %+v\nwant %+v", cmds[0], want)
			}
			var plan pytestPlan
			readPlan(t, cmds[0], &plan)
			wantPlan := pytestPlan{Options: pytestOptions, Extra: []string{"-x"}, Select: c.want, Timeout: 1.5}
			if !reflect.DeepEqual(plan, wantPlan) {
				t.Errorf("plan:\n got %+v\nwant %+v", plan, wantPlan)
			}
		})
	}
}

// TestUnittestRunCommands: the whole project and folders are discovered,
// a file loads as its module, a test by its dotted name; tests run
// through the same module (a load_tests hook's renamed classes) load it
// once.
func TestUnittestRunCommands(t *testing.T) {
	dir, proj := t.TempDir(), t.TempDir()
	sel := &lang.Selection{
		Paths: []lang.PathSelection{{Path: ".", Dir: true}, {Path: "pkg/sub", Dir: true}, {Path: "pkg/test_x.py"}, {Path: "pkg/__init__.py"}},
		Tests: []*testdex.Test{{Name: "pkg.test_y.TestY.test_a", Run: "pkg.test_y.TestY.test_a"}, {Name: "pkg.test_y.TestY.test_b"},
			{Name: "pkg.tester.A_Pure.test_a", Run: "pkg.test_z"}, {Name: "pkg.tester.A_Fast.test_a", Run: "pkg.test_z"}},
	}
	cmds, err := unittestRunner{}.RunCommands(&lang.Project{Dir: proj}, sel, lang.RunOptions{Dir: dir, TestTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := &lang.Command{Args: []string{Python, filepath.Join(dir, "testdex_unittest.py"), filepath.Join(dir, "testdex_unittest.json")}, Dir: proj}
	if len(cmds) != 1 || !reflect.DeepEqual(cmds[0], want) {
		t.Fatalf("command:\n got %+v\nwant %+v", cmds[0], want)
	}
	var plan unittestPlan
	readPlan(t, cmds[0], &plan)
	wantPlan := unittestPlan{Discover: []string{".", "pkg/sub"}, Modules: []string{"pkg.test_x", "pkg"},
		Names: []string{"pkg.test_y.TestY.test_a", "pkg.test_y.TestY.test_b", "pkg.test_z"}, Timeout: 2}
	if !reflect.DeepEqual(plan, wantPlan) {
		t.Errorf("plan:\n got %+v\nwant %+v", plan, wantPlan)
	}
	if _, err := (unittestRunner{}).RunCommands(&lang.Project{Dir: proj}, sel, lang.RunOptions{}); err == nil {
		t.Error("no scratch folder: want an error")
	}
}

// TestUnittestSelectWithin: a part of a folder's run loads the folder, as
// the whole run does, and keeps the part by home file and by name; a path
// or test outside the folder is loaded by name as well, or it would not
// run.
func TestUnittestSelectWithin(t *testing.T) {
	sel := &lang.Selection{
		Paths: []lang.PathSelection{{Path: "tests/test_a.py"}, {Path: "tests/sub", Dir: true}, {Path: "other/test_b.py"}},
		Tests: []*testdex.Test{
			{Name: "tests.test_big.TestK", Run: "tests.test_big.TestK", File: "p/tests/test_big.py", Project: "p"},
			{Name: "other.test_o.TestO", Run: "other.test_o.TestO", File: "p/other/test_o.py", Project: "p"},
		},
		Within: []lang.PathSelection{{Path: "tests", Dir: true}},
	}
	got := unittestSelect(sel)
	want := unittestPlan{Discover: []string{"tests"}, Modules: []string{"other.test_b"}, Names: []string{"other.test_o.TestO"},
		Keep: &unittestKeep{Files: []string{"tests/test_a.py", "other/test_b.py"}, Dirs: []string{"tests/sub"},
			Names: []string{"tests.test_big.TestK", "other.test_o.TestO"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan:\n got %+v %+v\nwant %+v %+v", got, got.Keep, want, want.Keep)
	}
	sel.Within = nil
	if got := unittestSelect(sel); got.Keep != nil || len(got.Modules) != 2 || len(got.Names) != 2 {
		t.Errorf("without Within: %+v", got)
	}
}

// TestUnittestKeepRuns runs the driver on parts of a project whose
// package's load_tests drops a test and adds another module's, and whose
// test module's load_tests makes classes named as another module's: each
// part runs what the whole run runs of it, by file (the package's
// __init__.py holds what its hook adds), by a class's name and by the
// module a record names.
func TestUnittestKeepRuns(t *testing.T) {
	if _, err := exec.LookPath(Python); err != nil {
		testenv.Missing(t, "%s is not on PATH: install Python 3 to run unittest", Python)
	}
	dir := writeTree(t, map[string]string{
		"pkg/__init__.py": "import os, unittest\n\n" +
			"def load_tests(loader, standard_tests, pattern):\n" +
			"    suite = unittest.TestSuite()\n" +
			"    def add(s):\n" +
			"        if isinstance(s, unittest.TestSuite):\n            for t in s:\n                add(t)\n" +
			"        elif not s.id().endswith('.test_dropped'):\n            suite.addTest(s)\n" +
			"    add(loader.discover(os.path.dirname(__file__), pattern or 'test*.py'))\n" +
			"    from . import extra\n    suite.addTests(loader.loadTestsFromModule(extra))\n    return suite\n",
		"pkg/extra.py": "import unittest\n\nclass TestExtra(unittest.TestCase):\n    def test_added(self):\n        pass\n",
		"pkg/test_one.py": "import unittest\n\nclass TestOne(unittest.TestCase):\n    def test_x(self):\n        pass\n\n" +
			"    def test_dropped(self):\n        self.fail('dropped')\n\nclass TestTwo(unittest.TestCase):\n    def test_y(self):\n        pass\n",
		"pkg/impl.py": "import unittest\n\nclass A(unittest.TestCase):\n    def test_a(self):\n        pass\n",
		"pkg/test_z.py": "import unittest\nfrom pkg import impl\n\n" +
			"def load_tests(loader, tests, pattern):\n    suite = unittest.TestSuite()\n" +
			"    for kind in ('_Pure', '_Fast'):\n" +
			"        cls = type('A' + kind, (impl.A,), {'__module__': impl.__name__})\n" +
			"        suite.addTests(loader.loadTestsFromTestCase(cls))\n    return suite\n",
	})
	p := &lang.Project{Dir: dir}
	whole := []lang.PathSelection{{Path: ".", Dir: true}}
	for _, c := range []struct {
		name string
		sel  lang.Selection
		want []string
	}{
		{"a test file", lang.Selection{Paths: []lang.PathSelection{{Path: "pkg/test_one.py"}}}, []string{"pkg.test_one.TestOne.test_x", "pkg.test_one.TestTwo.test_y"}},
		{"the package's hook", lang.Selection{Paths: []lang.PathSelection{{Path: "pkg/__init__.py"}}}, []string{"pkg.extra.TestExtra.test_added"}},
		{"a class by name", lang.Selection{Tests: []*testdex.Test{{Name: "pkg.test_one.TestTwo", Run: "pkg.test_one.TestTwo", File: "pkg/test_one.py", Project: "."}}},
			[]string{"pkg.test_one.TestTwo.test_y"}},
		{"a module's records by its name", lang.Selection{Tests: []*testdex.Test{{Name: "pkg.impl.A_Pure.test_a", Run: "pkg.test_z", File: "pkg/test_z.py", Project: "."}}},
			[]string{"pkg.impl.A_Fast.test_a", "pkg.impl.A_Pure.test_a"}},
	} {
		c.sel.Within = whole
		cmds, err := unittestRunner{}.RunCommands(p, &c.sel, lang.RunOptions{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		evs, _ := parsertest.Live(t, unittestRunner{}, p, cmds, nil)
		var got []string
		for _, e := range evs {
			if e.Action == testdex.ActionPass || e.Action == testdex.ActionFail {
				got = append(got, e.Name)
			}
		}
		slices.Sort(got)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ran %q, want %q", c.name, got, c.want)
		}
	}
}

// TestInterpreter: the active virtualenv, then the project's .venv and
// venv, then the rootdir's, then python3 from PATH; a virtualenv without
// an interpreter is passed over.
func TestInterpreter(t *testing.T) {
	tmp := t.TempDir()
	root, proj := tmp, filepath.Join(tmp, "p")
	active, broken := filepath.Join(tmp, "active"), filepath.Join(tmp, "broken")
	for _, py := range []string{filepath.Join(active, "bin", "python"), filepath.Join(proj, "venv", "bin", "python"),
		filepath.Join(root, ".venv", "bin", "python")} {
		fakePython(t, py, "0")
	}
	if err := os.MkdirAll(filepath.Join(broken, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  []string
		proj string
		want string
	}{
		{[]string{"VIRTUAL_ENV=" + active}, proj, filepath.Join(active, "bin", "python")},
		{[]string{"VIRTUAL_ENV=" + broken}, proj, filepath.Join(proj, "venv", "bin", "python")},
		{nil, proj, filepath.Join(proj, "venv", "bin", "python")},
		{nil, filepath.Join(tmp, "q"), filepath.Join(root, ".venv", "bin", "python")},
	} {
		if got := interpreter(c.proj, root, lang.RunOptions{Env: c.env}); got != c.want {
			t.Errorf("env %v, project %s: %s, want %s", c.env, c.proj, got, c.want)
		}
	}
	if got := interpreter(filepath.Join(tmp, "q"), filepath.Join(tmp, "q"), lang.RunOptions{}); got != Python {
		t.Errorf("no virtualenv: %s, want %s", got, Python)
	}
}

// TestPytestNotInstalled: an interpreter without pytest, or no python at
// all, is one lang.ErrNotInstalled error with the fix.
func TestPytestNotInstalled(t *testing.T) {
	proj := t.TempDir()
	py := filepath.Join(proj, ".venv", "bin", "python")
	fakePython(t, py, "3")
	sel := &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}
	_, err := pytestRunner{rootRel: "."}.RunCommands(&lang.Project{Dir: proj}, sel, lang.RunOptions{Dir: t.TempDir(), Env: os.Environ()})
	if !errors.Is(err, lang.ErrNotInstalled) || !strings.Contains(err.Error(), "pytest is not installed for "+py+" (pip install pytest") {
		t.Errorf("no pytest: %v", err)
	}
	bare := t.TempDir()
	_, err = pytestRunner{rootRel: "."}.RunCommands(&lang.Project{Dir: bare}, sel, lang.RunOptions{Dir: t.TempDir(), Env: []string{"PATH=" + t.TempDir()}})
	if !errors.Is(err, lang.ErrNotInstalled) || !strings.Contains(err.Error(), "python3 is not in PATH") {
		t.Errorf("no python: %v", err)
	}
}

// TestPytestSelectWithin: a part of a folder's run names the folder to
// pytest and keeps the part through the driver; a path or test outside
// the folder is still named on the command line, or it would not run.
func TestPytestSelectWithin(t *testing.T) {
	sel := &lang.Selection{
		Paths: []lang.PathSelection{{Path: "tests/test_a.py"}},
		Tests: []*testdex.Test{
			{ID: "p/tests/test_big.py::test_x", Name: "p/tests/test_big.py::test_x"},
			{ID: "p/other/test_o.py::test_o", Name: "p/other/test_o.py::test_o"},
		},
		Within: []lang.PathSelection{{Path: "tests", Dir: true}},
	}
	args, only := pytestSelect("p", sel)
	if want := []string{"p/tests", "p/other/test_o.py::test_o"}; !reflect.DeepEqual(args, want) {
		t.Errorf("args %q, want %q", args, want)
	}
	want := &pytestOnly{Paths: []string{"p/tests/test_a.py"}, IDs: []string{"p/tests/test_big.py::test_x", "p/other/test_o.py::test_o"},
		Named: []string{"p/tests/test_a.py", "p/tests/test_big.py::test_x", "p/other/test_o.py::test_o"}}
	if !reflect.DeepEqual(only, want) {
		t.Errorf("only %+v, want %+v", only, want)
	}
	sel.Within = []lang.PathSelection{{Path: ".", Dir: true}}
	if args, _ := pytestSelect(".", sel); len(args) != 0 {
		t.Errorf("a part of the whole project: args %q, want none (pytest's testpaths decide)", args)
	}
	sel.Within = nil
	if args, only := pytestSelect("p", sel); only != nil || len(args) != 3 {
		t.Errorf("without Within: args %q, only %+v", args, only)
	}
}
