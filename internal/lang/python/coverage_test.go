package python

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/parsertest"
	"github.com/testdex/testdex/internal/testenv"
)

// covModule is the code under test of the coverage fixtures: a's body is
// line 5, b's line 9.
const covModule = `LIMIT = 10


def a(x):
    return x + 1


def b(x):
    return x * 2
`

// writeTree writes files (slash paths) under a new temporary folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runReal runs r's commands for the whole project with python3 (or the
// project's virtualenv, or venv when given: VIRTUAL_ENV) as the core
// would, and returns the parsed events. It skips when python3 is absent;
// pytest and coverage are installed by scripts/setup/python.sh, and their
// absence fails with that fix.
func runReal(t *testing.T, r lang.Coverer, p *lang.Project, coverage bool, venv string) []lang.RunEvent {
	t.Helper()
	env := os.Environ()
	if venv != "" {
		env = append(env, "VIRTUAL_ENV="+venv)
	} else if _, err := exec.LookPath(Python); err != nil {
		testenv.Missing(t, "%s is not on PATH: install Python 3 to run pytest and unittest", Python)
	}
	o := lang.RunOptions{Dir: t.TempDir(), Env: env, Coverage: coverage}
	if coverage {
		if err := r.CoverageCheck(p, o); err != nil {
			t.Fatalf("%v (scripts/setup/python.sh installs it)", err)
		}
	}
	sel := &lang.Selection{Paths: []lang.PathSelection{{Path: ".", Dir: true}}}
	cmds, err := r.RunCommands(p, sel, o)
	if err != nil {
		t.Fatalf("%v (scripts/setup/python.sh installs pytest)", err)
	}
	evs, ran := parsertest.Live(t, r, p, cmds, nil)
	for _, c := range ran {
		if c.Code > 1 {
			t.Fatalf("exit %d\n%s", c.Code, c.Stderr)
		}
	}
	return evs
}

// coveredBy returns each test's covered lines, per file base name.
func coveredBy(t *testing.T, evs []lang.RunEvent) map[string]map[string][]lang.Span {
	t.Helper()
	out := map[string]map[string][]lang.Span{}
	for _, e := range evs {
		if e.Action != lang.ActionCovered {
			continue
		}
		if out[e.Name] != nil {
			t.Errorf("%s: two covered events", e.Name)
		}
		out[e.Name] = map[string][]lang.Span{}
		for _, f := range e.Covered {
			if !filepath.IsAbs(f.File) {
				t.Errorf("%s: covered file %s is not absolute", e.Name, f.File)
			}
			out[e.Name][filepath.Base(f.File)] = f.Lines
		}
	}
	return out
}

func hasLine(spans []lang.Span, line int) bool {
	return slices.ContainsFunc(spans, func(s lang.Span) bool { return s.Start <= line && line <= s.End })
}

// checkLines asserts which lines of file a test executed and did not.
func checkLines(t *testing.T, cov map[string]map[string][]lang.Span, test, file string, has, hasNot []int) {
	t.Helper()
	spans, ok := cov[test][file]
	if !ok && len(has) > 0 {
		t.Errorf("%s: no coverage of %s (got %v)", test, file, cov[test])
		return
	}
	for _, l := range has {
		if !hasLine(spans, l) {
			t.Errorf("%s: %s:%d not covered (%v)", test, file, l, spans)
		}
	}
	for _, l := range hasNot {
		if hasLine(spans, l) {
			t.Errorf("%s: %s:%d covered, it did not run (%v)", test, file, l, spans)
		}
	}
}

// TestPytestCoverage runs real pytest with and without coverage: the same
// results; one covered event per item named by its node ID (parametrized
// rows included); test_a covers a's body and not b's; a failing test has
// its coverage; a module-scoped fixture's body goes to the test using it;
// import-time lines (def lines, module constants, the fixture's decorator)
// go to every test.
func TestPytestCoverage(t *testing.T) { testPytestCoverage(t, "") }

// testPytestCoverage is TestPytestCoverage with the virtualenv venv's
// interpreter ("": python3's, as the runner finds it).
func testPytestCoverage(t *testing.T, venv string) {
	dir := writeTree(t, map[string]string{
		"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-p no:cacheprovider\"\n",
		// A project configuration that would hide the tests' own lines and
		// start a context of its own: both overridden.
		".coveragerc": "[run]\nsource = nothing_here\nomit = test_*.py\ndynamic_context = test_function\n",
		"mod.py":      covModule,
		"test_m.py": `import pytest
import mod


@pytest.fixture(scope="module")
def shared():
    return mod.LIMIT


def test_a():
    assert mod.a(1) == 2


def test_b(shared):
    assert mod.b(2) == 4


@pytest.mark.parametrize("n", [1, 2])
def test_rows(n):
    assert mod.a(n) == n + 1


def test_fail():
    assert mod.b(1) == 3
`,
	})
	p := &lang.Project{Dir: dir}
	r := pytestRunner{rootRel: "."}
	plain := runReal(t, r, p, false, venv)
	covered := runReal(t, r, p, true, venv)
	if got, want := parsertest.Results(covered), parsertest.Results(plain); !reflect.DeepEqual(got, want) {
		t.Errorf("results differ with coverage:\n got %+v\nwant %+v", got, want)
	}
	cov := coveredBy(t, covered)
	names := []string{"test_m.py::test_a", "test_m.py::test_b", "test_m.py::test_rows[1]", "test_m.py::test_rows[2]", "test_m.py::test_fail"}
	if got := slices.Sorted(maps.Keys(cov)); !reflect.DeepEqual(got, slices.Sorted(slices.Values(names))) {
		t.Fatalf("covered events for %v, want %v", got, names)
	}
	checkLines(t, cov, "test_m.py::test_a", "mod.py", []int{5}, []int{9})
	checkLines(t, cov, "test_m.py::test_a", "test_m.py", []int{11}, []int{7, 15, 20, 24})
	checkLines(t, cov, "test_m.py::test_b", "mod.py", []int{9}, []int{5})
	checkLines(t, cov, "test_m.py::test_b", "test_m.py", []int{7, 15}, []int{11})
	checkLines(t, cov, "test_m.py::test_rows[2]", "mod.py", []int{5}, []int{9})
	checkLines(t, cov, "test_m.py::test_fail", "mod.py", []int{9}, []int{5})
	for _, n := range names {
		checkLines(t, cov, n, "mod.py", []int{1, 4, 8}, nil)       // import time
		checkLines(t, cov, n, "test_m.py", []int{1, 2, 5, 6}, nil) // collection
	}
	if _, err := os.Stat(filepath.Join(dir, ".coverage")); err == nil {
		t.Error("a .coverage data file was written in the project")
	}
}

// TestUnittestCoverage runs the unittest driver with and without
// coverage: the same results, one covered event per method named and
// declared as its results are; setUpClass's lines go to every test.
func TestUnittestCoverage(t *testing.T) { testUnittestCoverage(t, "") }

// testUnittestCoverage is TestUnittestCoverage with venv's interpreter
// ("": python3's).
func testUnittestCoverage(t *testing.T, venv string) {
	dir := writeTree(t, map[string]string{
		"pkg/__init__.py": "",
		"pkg/mod.py":      covModule,
		"pkg/test_u.py": `import unittest
from pkg import mod


class TestU(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.limit = mod.LIMIT

    def test_a(self):
        self.assertEqual(mod.a(1), 2)

    def test_b(self):
        self.assertEqual(mod.b(1), 3)

    def test_lazy(self):
        from pkg import lazy
        self.assertEqual(lazy.c(), 3)

    def test_sub(self):
        for n in (1, 2):
            with self.subTest(n=n):
                self.assertEqual(mod.a(n), n + 1)
`,
		// Imported by test_lazy alone: its module-level lines (1, 4) go
		// to every test, c's body (5) to test_lazy.
		"pkg/lazy.py": "K = 3\n\n\ndef c():\n    return K\n",
	})
	p := &lang.Project{Dir: dir}
	plain := runReal(t, unittestRunner{}, p, false, venv)
	covered := runReal(t, unittestRunner{}, p, true, venv)
	if got, want := parsertest.Results(covered), parsertest.Results(plain); !reflect.DeepEqual(got, want) {
		t.Errorf("results differ with coverage:\n got %+v\nwant %+v", got, want)
	}
	for _, e := range covered {
		if e.Action == lang.ActionCovered && e.Decl != "pkg/test_u.py" {
			t.Errorf("%s covered: declared in %q", e.Name, e.Decl)
		}
	}
	cov := coveredBy(t, covered)
	if len(cov) != 4 {
		t.Fatalf("covered events for %d tests, want 4: %v", len(cov), cov)
	}
	checkLines(t, cov, "pkg.test_u.TestU.test_a", "mod.py", []int{1, 4, 5, 8}, []int{9})
	checkLines(t, cov, "pkg.test_u.TestU.test_b", "mod.py", []int{1, 4, 8, 9}, []int{5})
	checkLines(t, cov, "pkg.test_u.TestU.test_b", "test_u.py", []int{8, 14}, []int{11, 18, 23})
	// A method's subTests are the method's; a's body again, after test_a
	// took it: each test gets what it ran, not what ran first.
	checkLines(t, cov, "pkg.test_u.TestU.test_sub", "mod.py", []int{5}, []int{9})
	checkLines(t, cov, "pkg.test_u.TestU.test_sub", "test_u.py", []int{21, 22, 23}, []int{11, 14, 18})
	checkLines(t, cov, "pkg.test_u.TestU.test_lazy", "lazy.py", []int{1, 4, 5}, nil)
	for _, n := range []string{"test_a", "test_b", "test_sub"} {
		checkLines(t, cov, "pkg.test_u.TestU."+n, "lazy.py", []int{1, 4}, []int{5})
	}
}

// TestCoverageNotInstalled: an interpreter without coverage, or with one
// older than 5.0, is one lang.ErrNotInstalled error with the fix.
func TestCoverageNotInstalled(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake interpreter is a shell script")
	}
	proj := t.TempDir()
	py := filepath.Join(proj, ".venv", "bin", "python")
	for code, want := range map[string]string{
		"3": "coverage is not installed for " + py + ", the python the tests run with (run: " + py + " -m pip install coverage",
		"4": "coverage 4.5 for " + py + " is too old",
	} {
		if err := os.MkdirAll(filepath.Dir(py), 0o755); err != nil {
			t.Fatal(err)
		}
		script := "#!/bin/sh\necho " + py + "\necho 4.5\nexit " + code + "\n"
		if err := os.WriteFile(py, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, r := range []lang.Coverer{pytestRunner{rootRel: "."}, unittestRunner{}} {
			err := r.CoverageCheck(&lang.Project{Dir: proj}, lang.RunOptions{Env: os.Environ()})
			if !errors.Is(err, lang.ErrNotInstalled) || !strings.Contains(err.Error(), want) {
				t.Errorf("exit %s: %v", code, err)
			}
		}
	}
}

// TestParserCovered: the process's shared lines (an empty nodeid) join
// each test's, merged, files sorted; a unittest event keeps its Decl; an
// empty nodeid with a message is a note, leaving the shared lines alone.
func TestParserCovered(t *testing.T) {
	stream := `{"action":"covered","nodeid":"","files":{"/p/m.py":"1,4","/p/t.py":"1,2"}}
{"action":"covered","nodeid":"","message":"pytest-xdist runs the tests in worker processes"}
{"action":"covered","nodeid":"t.T.test_a","decl":"t.py","files":{"/p/m.py":"5","/p/x.py":"0"}}
{"action":"covered","nodeid":"t.T.test_b","decl":"t.py","files":{}}
`
	var evs []lang.RunEvent
	ps := newEventParser(&lang.Project{Dir: "/p"}, &lang.Command{Dir: "/p"}, func(e lang.RunEvent) { evs = append(evs, e) })
	for i := range len(stream) { // byte by byte
		ps.Write([]byte{stream[i]})
	}
	ps.Close(0)
	shared := []lang.CoveredFile{{File: "/p/m.py", Lines: []lang.Span{{Start: 1, End: 1}, {Start: 4, End: 4}}}, {File: "/p/t.py", Lines: []lang.Span{{Start: 1, End: 2}}}}
	want := []lang.RunEvent{
		{Action: lang.ActionCovered, Message: "pytest-xdist runs the tests in worker processes"},
		{Action: lang.ActionCovered, Name: "t.T.test_a", Decl: "t.py", Covered: []lang.CoveredFile{
			{File: "/p/m.py", Lines: []lang.Span{{Start: 1, End: 1}, {Start: 4, End: 5}}}, {File: "/p/t.py", Lines: []lang.Span{{Start: 1, End: 2}}}}},
		{Action: lang.ActionCovered, Name: "t.T.test_b", Decl: "t.py", Covered: shared},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("events:\n got %+v\nwant %+v", evs, want)
	}
}

// TestLineSpans: the driver's lines of a file become merged spans; what
// is not a line is dropped, and lines out of order or repeated are merged
// as in order.
func TestLineSpans(t *testing.T) {
	for in, want := range map[string][]lang.Span{
		"":             nil,
		"7":            {{Start: 7, End: 7}},
		"1,2,3,5,9,10": {{Start: 1, End: 3}, {Start: 5, End: 5}, {Start: 9, End: 10}},
		"0,x,,-3,2":    {{Start: 2, End: 2}},
		"5,3,4,1":      {{Start: 1, End: 1}, {Start: 3, End: 5}},
		"2,2,3,3":      {{Start: 2, End: 3}},
	} {
		if got := lineSpans(in); !reflect.DeepEqual(got, want) {
			t.Errorf("lineSpans(%q) = %v, want %v", in, got, want)
		}
	}
}

// recorderScript drives runner_coverage.py's Recorder by hand (argv: the
// module; "direct", "restart" (run with TESTDEX_PY_COVERAGE_REARM=0: under
// sys.monitoring coverage's callbacks, restarted at each cut) or
// "fallback": coverage's own switch_context and data; and the name of the
// coverage core the recorder must have taken) and
// prints its covered events, one JSON object a line, as the drivers do.
const recorderScript = `import importlib.util, json, sys, threading
spec = importlib.util.spec_from_file_location("_testdex_coverage", sys.argv[1])
rc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rc)
events = []
r = rc.Recorder(lambda **ev: events.append(ev))
r.start()
tracers = [type(t).__name__ for t in r.cov._collector.tracers]
sysmon = sys.argv[3] == "SysMonitor"
if tracers != [sys.argv[3]] or (r.monitor is not None) != (sysmon and sys.argv[2] == "direct") or (r.restart is not None) != (sysmon and sys.argv[2] != "direct"):
    sys.exit("the recorder took %s (monitor %s, restart %s), not %s on the %s path" % (tracers, r.monitor, r.restart, sys.argv[3], sys.argv[2]))
if sys.argv[2] == "fallback":
    r.traced = None
elif r.traced is None:
    sys.exit("the direct path is not taken with coverage " + rc.coverage.__version__)
sys.path.insert(0, ".")
import mod, twin
r.begin("t1", nodeid="t1"); mod.a(1); r.end()
r.begin("t2", nodeid="t2"); mod.b(1); r.end()
r.begin("t3", nodeid="t3"); mod.a(2); r.end()
r.begin("t4", nodeid="t4")
th = threading.Thread(target=mod.b, args=(3,)); th.start(); th.join()
r.end()
import gen
it = gen.g()
r.begin("t5", nodeid="t5"); next(it); r.end()
r.begin("t6", nodeid="t6"); next(it); r.end()
r.begin("t7", nodeid="t7"); next(gen.g()); r.end()
r.begin("t8", nodeid="t8"); twin.a(1); mod.a(1); r.end()
r.finish()
for ev in events:
    print(json.dumps(ev))
`

// genModule is a generator whose frame lives across tests: lines 2-3
// run to its first yield, 4-5 to its second.
const genModule = `def g():
    x = 1
    yield x
    x += 1
    yield x
`

// TestRecorderPaths: the recorder's own cut of the tracer's data (the
// direct path; under sys.monitoring the recorder's own callbacks, Rearm)
// gives each test what it ran (a's body to t1 and t3 alike, b's to t2
// and, run in a thread, to t4; a generator's lines to the test that
// resumed it; two files' equal functions each to its file), and the same
// events as coverage's own switch_context and data (the fallback of a
// coverage version without the internals the direct path reads) and, under
// sys.monitoring, as coverage's callbacks restarted at each cut
// (TESTDEX_PY_COVERAGE_REARM=0).
func TestRecorderPaths(t *testing.T) {
	if _, err := exec.LookPath(Python); err != nil {
		testenv.Missing(t, "%s is not on PATH: install Python 3", Python)
	}
	py, err := exec.Command(Python, "-c", "import sys; print(sys.version_info >= (3, 12))").Output()
	if err != nil {
		t.Fatal(err)
	}
	core := "CTracer"
	if strings.TrimSpace(string(py)) == "True" {
		core = "SysMonitor"
	}
	testRecorderPaths(t, Python, nil, core, nil)
}

// testRecorderPaths is TestRecorderPaths with the interpreter python, env
// added to the environment, the coverage core (its tracer's class name)
// the recorder must take, and files added to the project.
func testRecorderPaths(t *testing.T, python string, env []string, core string, files map[string]string) []lang.RunEvent {
	t.Helper()
	tree := map[string]string{"mod.py": covModule, "twin.py": covModule, "gen.py": genModule, "drive.py": recorderScript}
	maps.Copy(tree, files)
	dir := writeTree(t, tree)
	modPath := filepath.Join(t.TempDir(), "testdex_coverage.py")
	if err := os.WriteFile(modPath, coverageModule, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(path string) []lang.RunEvent {
		cmd := exec.Command(python, "drive.py", modPath, path, core)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		if path != "direct" { // the restart path, and the fallback from it
			cmd.Env = append(cmd.Env, "TESTDEX_PY_COVERAGE_REARM=0")
		}
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) && strings.Contains(string(ee.Stderr), "No module named 'coverage'") {
				t.Fatalf("coverage is not installed for %s (scripts/setup/python.sh installs it)", python)
			}
			if errors.As(err, &ee) {
				out = append(out, ee.Stderr...)
			}
			t.Fatalf("%s: %v\n%s", path, err, out)
		}
		var got []lang.RunEvent
		ps := newEventParser(&lang.Project{Dir: dir}, &lang.Command{Dir: dir}, func(e lang.RunEvent) { got = append(got, e) })
		ps.Write(out)
		ps.Close(0)
		return got
	}
	direct, restart, fallback := run("direct"), run("restart"), run("fallback")
	if !reflect.DeepEqual(direct, fallback) {
		t.Errorf("direct and fallback differ:\n direct   %+v\n fallback %+v", direct, fallback)
	}
	if !reflect.DeepEqual(direct, restart) {
		t.Errorf("direct and restart differ:\n direct  %+v\n restart %+v", direct, restart)
	}
	cov := coveredBy(t, direct)
	checkLines(t, cov, "t1", "mod.py", []int{1, 4, 5, 8}, []int{9})
	checkLines(t, cov, "t2", "mod.py", []int{9}, []int{5})
	checkLines(t, cov, "t3", "mod.py", []int{5}, []int{9})
	checkLines(t, cov, "t4", "mod.py", []int{9}, []int{5})
	checkLines(t, cov, "t5", "gen.py", []int{2, 3}, []int{4, 5})
	checkLines(t, cov, "t6", "gen.py", []int{4, 5}, []int{2, 3})
	checkLines(t, cov, "t7", "gen.py", []int{2, 3}, []int{4, 5})
	// Two modules' equal functions (code objects that compare equal) are
	// each recorded in their own file.
	checkLines(t, cov, "t8", "twin.py", []int{5}, []int{9})
	checkLines(t, cov, "t8", "mod.py", []int{5}, []int{9})
	return direct
}

// sysmonVenv is the virtualenv of a Python 3.12 or later with pytest and
// coverage that scripts/setup/python.sh creates when such a Python is
// installed, in the user's cache folder; without it the test reports the
// toolchain missing (testenv.Missing).
func sysmonVenv(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		testenv.Missing(t, "no cache folder to find the Python 3.12 virtualenv in: %v", err)
	}
	venv := filepath.Join(cache, "testdex-python-sysmon")
	py := venvPython(venv)
	if py == "" {
		testenv.Missing(t, "no virtualenv of Python 3.12 or later at %s: scripts/setup/python.sh creates one when a Python 3.12 or later is installed (python3.12 on PATH, or pyenv's)", venv)
	}
	out, err := exec.Command(py, "-c", "import sys, pytest, coverage; print(sys.version_info >= (3, 12))").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "True" {
		testenv.Missing(t, "%s is not a Python 3.12 or later with pytest and coverage (%v: %s): run scripts/setup/python.sh", py, err, out)
	}
	return venv
}

// TestSysmonCoverage runs the coverage tests with a Python 3.12 or later,
// where the recorder takes sys.monitoring (coverage's sysmon core, whose
// callbacks the recorder's Rearm replaces): pytest and unittest record as
// with coverage's C tracer, a line that an earlier test ran is recorded
// again for each later test that runs it, and the recorder's events are
// the same as with the C tracer forced (TESTDEX_PY_COVERAGE_CORE=ctrace)
// on the same interpreter; a line reported while a cut passes under its
// callback reaches a test (testCutUnderCallback); a configuration naming a
// coverage plugin keeps the C tracer.
func TestSysmonCoverage(t *testing.T) {
	venv := sysmonVenv(t)
	t.Run("pytest", func(t *testing.T) { testPytestCoverage(t, venv) })
	t.Run("unittest", func(t *testing.T) { testUnittestCoverage(t, venv) })
	t.Run("recorder", func(t *testing.T) {
		py := venvPython(venv)
		sysmon := testRecorderPaths(t, py, []string{"TESTDEX_PY_COVERAGE_CORE="}, "SysMonitor", nil)
		ctrace := testRecorderPaths(t, py, []string{"TESTDEX_PY_COVERAGE_CORE=ctrace"}, "CTracer", nil)
		if a, b := coveredBy(t, sysmon), coveredBy(t, ctrace); !reflect.DeepEqual(a, b) {
			t.Errorf("sysmon and ctrace differ:\n sysmon %v\n ctrace %v", a, b)
		}
		testCutUnderCallback(t, py)
		// A configuration that names a plugin keeps the C tracer (the
		// sysmon core runs no plugin).
		testRecorderPaths(t, py, []string{"TESTDEX_PY_COVERAGE_CORE="}, "CTracer", map[string]string{
			".coveragerc": "[run]\nplugins = noplugin\n",
			"noplugin.py": "def coverage_init(reg, options):\n    pass\n",
		})
	})
}

// cutUnderCallback drives Rearm's line callback by hand (argv: the
// module) with a line number whose hashing, inside the callback's add,
// starts the next test: a cut that comes in between, as another thread's
// would. The callback must leave the line on, and the line must reach a
// test.
const cutUnderCallback = `import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("_testdex_coverage", sys.argv[1])
rc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rc)
events = []
r = rc.Recorder(lambda **ev: events.append(ev))
r.start()
if r.monitor is None:
    sys.exit("the recorder did not take over sys.monitoring's callbacks")
sys.path.insert(0, ".")
import mod
r.begin("t1", nodeid="t1"); mod.b(1); r.end()

class Cutting(int):
    def __hash__(self):
        if "t3" not in r.tests:
            r.begin("t3", nodeid="t3")
        return int.__hash__(self)

r.begin("t2", nodeid="t2")
if r.monitor.line(mod.b.__code__, Cutting(9)) is not None:
    sys.exit("the callback switched off a line its cut may have missed")
r.end()
r.finish()
for ev in events:
    print(json.dumps(ev))
`

// testCutUnderCallback runs cutUnderCallback with python: the line added
// while its cut was taken goes to the next test (t3), not lost with the
// set the cut had already made its tuple of.
func testCutUnderCallback(t *testing.T, python string) {
	t.Helper()
	dir := writeTree(t, map[string]string{"mod.py": covModule, "drive.py": cutUnderCallback})
	modPath := filepath.Join(t.TempDir(), "testdex_coverage.py")
	if err := os.WriteFile(modPath, coverageModule, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "drive.py", modPath)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TESTDEX_PY_COVERAGE_CORE=")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			out = append(out, ee.Stderr...)
		}
		t.Fatalf("%v\n%s", err, out)
	}
	var got []lang.RunEvent
	ps := newEventParser(&lang.Project{Dir: dir}, &lang.Command{Dir: dir}, func(e lang.RunEvent) { got = append(got, e) })
	ps.Write(out)
	ps.Close(0)
	cov := coveredBy(t, got)
	checkLines(t, cov, "t1", "mod.py", []int{9}, nil)
	checkLines(t, cov, "t3", "mod.py", []int{9}, []int{5})
}
