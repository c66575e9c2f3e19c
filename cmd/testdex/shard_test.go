package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
)

// TestShardRoundTrip: the shards of `run --shard K/N` together run
// exactly what `run` runs, each test once; `merge` of their streams gives
// that run's results and exit code, and fails (exit 1, naming the tests)
// when a shard's stream is missing or given twice; a shard beyond the
// units passes with nothing to run; GitLab's variables name the shard as
// the flag does, but neither split a plan file nor override --shard 1/1.
func TestShardRoundTrip(t *testing.T) {
	if exec.Command("python3", "-c", "import pytest").Run() != nil {
		testenv.Missing(t, "python3 with pytest is not installed")
	}
	root := t.TempDir()
	tree := map[string]string{
		"svc/b_test.go":       "package svc\n\nimport \"testing\"\n\nfunc TestB1(t *testing.T) {}\nfunc TestB2(t *testing.T) {}\nfunc BenchmarkB(b *testing.B) {}\n",
		"svc/helpers_test.go": "package svc\n\nfunc helper() int { return 1 }\n",
		"py/tests/test_n.py":  "def test_a():\n    pass\n\ndef test_b():\n    pass\n",
		"py/tests/test_o.py":  "def test_c():\n    pass\n",
		"py/tests/sub/x.py":   "",
		"py/tests/test_p2.py": "import pytest\n\n@pytest.mark.skip(reason='later')\ndef test_later():\n    pass\n",
	}
	for k, v := range planTree {
		tree[k] = v
	}
	writeFiles(t, root, tree)
	out := t.TempDir()
	full := filepath.Join(out, "full.jsonl")
	code, direct, errs := cliIn(t, root, os.Environ(), "run", "--json")
	if code != cli.ExitFailed {
		t.Fatalf("run: exit %d\n%s", code, errs)
	}
	write(t, full, direct)
	if code, text, errs := cliIn(t, root, os.Environ(), "plan", "--shards", "8", "--durations", full, "-o", filepath.Join(out, "plan")); code != 0 || !strings.Contains(text, "shard(s): max") || !strings.Contains(errs, "fewer than the 8 shards asked") {
		t.Fatalf("plan --shards 8: exit %d\n%s%s", code, text, errs)
	}
	var streams []string
	union := map[string]testdex.Action{}
	for i := 1; i <= 8; i++ { // as many shards as units: each file of svc alone
		k := strconv.Itoa(i)
		_, got, errs := cliIn(t, root, os.Environ(), "run", "--json", "--shard", k+"/8", "--durations", full)
		if got == "" && strings.Contains(errs, "nothing to run") {
			continue // fewer units than shards
		}
		if !strings.Contains(errs, "shard "+k+"/8: predicted") {
			t.Errorf("shard %s does not say its predicted and measured times:\n%s", k, errs)
		}
		for id, a := range finals(t, got) {
			if _, twice := union[id]; twice {
				t.Errorf("%s ran in two shards", id)
			}
			union[id] = a
		}
		streams = append(streams, filepath.Join(out, "shard-"+k+".jsonl"))
		write(t, streams[len(streams)-1], got)
	}
	if want := finals(t, direct); !reflect.DeepEqual(union, want) {
		t.Fatalf("the shards ran %v\nthe run ran %v", union, want)
	}
	planFile := filepath.Join(out, "plan", "plan.json")
	code, merged, errs := cliIn(t, root, os.Environ(), append([]string{"merge", "--json", "--plan", planFile}, streams...)...)
	if code != cli.ExitFailed || !reflect.DeepEqual(finals(t, merged), finals(t, direct)) {
		t.Errorf("merge: exit %d, %v\n%s", code, finals(t, merged), errs)
	}
	if code, _, errs := cliIn(t, root, os.Environ(), "merge", "--plan", planFile, full); code != cli.ExitFailed || strings.Contains(errs, "shard") {
		t.Errorf("merge of the unsplit run with its plan: exit %d\n%s", code, errs)
	}
	code, _, errs = cliIn(t, root, os.Environ(), append([]string{"merge", "--plan", planFile}, streams[1:]...)...)
	if code != cli.ExitFailed || !strings.Contains(errs, "reported by no shard") {
		t.Errorf("merge without shard 1: exit %d\n%s", code, errs)
	}
	code, _, errs = cliIn(t, root, os.Environ(), append([]string{"merge", streams[0]}, streams...)...)
	if code != cli.ExitFailed || !strings.Contains(errs, "reported by two shards") {
		t.Errorf("merge with shard 1 twice: exit %d\n%s", code, errs)
	}
	if code, _, errs := cliIn(t, root, os.Environ(), "run", "--shard", "40/40"); code != 0 || !strings.Contains(errs, "nothing to run") {
		t.Errorf("an idle shard: exit %d\n%s", code, errs)
	}
	t.Setenv("CI_NODE_INDEX", "2")
	t.Setenv("CI_NODE_TOTAL", "3")
	_, viaEnv, errs := cliIn(t, root, os.Environ(), "run", "--json", "--durations", full)
	_, viaFlag, _ := cliIn(t, root, os.Environ(), "run", "--json", "--shard", "2/3", "--durations", full)
	if !strings.Contains(errs, "from GitLab CI") || !reflect.DeepEqual(finals(t, viaEnv), finals(t, viaFlag)) {
		t.Errorf("GitLab's shard 2 of 3 ran %v, --shard 2/3 %v\n%s", finals(t, viaEnv), finals(t, viaFlag), errs)
	}
	if _, got, errs := cliIn(t, root, os.Environ(), "run", "--json", "--plan", planFile); !reflect.DeepEqual(finals(t, got), finals(t, direct)) {
		t.Errorf("a plan file under GitLab's variables ran %v, not the whole plan\n%s", finals(t, got), errs)
	}
	if _, got, errs := cliIn(t, root, os.Environ(), "run", "--json", "--shard", "1/1"); !reflect.DeepEqual(finals(t, got), finals(t, direct)) {
		t.Errorf("--shard 1/1 under GitLab's variables ran %v, not everything\n%s", finals(t, got), errs)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestShardProjectRules: a shard of a pytest project runs what the whole
// run runs under the project's own collection rules. conftest.py's
// collect_ignore leaves out a failing file the listing holds, which
// pytest would run if a shard named it on the command line; a file
// broken into its tests by ID keeps its rows and methods. Every shard
// passes, as the whole run does, and together they run what it runs.
func TestShardProjectRules(t *testing.T) {
	if exec.Command("python3", "-c", "import pytest").Run() != nil {
		testenv.Missing(t, "python3 with pytest is not installed")
	}
	shardProjectRules(t, "", os.Environ())
}

// TestShardProjectRulesXdist is TestShardProjectRules under pytest-xdist
// (`-n 2` in addopts), whose workers load no plugin testdex's driver
// gives pytest: the shard's part is named to them, the files the
// project's rules leave out taken away first.
func TestShardProjectRulesXdist(t *testing.T) {
	if exec.Command("python3", "-c", "import pytest").Run() != nil {
		testenv.Missing(t, "python3 with pytest is not installed")
	}
	dir := os.Getenv("TESTDEX_XDIST_DIR")
	if dir == "" {
		home, _ := os.UserCacheDir()
		dir = filepath.Join(home, "testdex-setup", "xdist")
	}
	check := exec.Command("python3", "-c", "import xdist, execnet")
	check.Env = append(os.Environ(), "PYTHONPATH="+dir)
	if check.Run() != nil {
		testenv.Missing(t, "pytest-xdist is not unpacked in %s (run scripts/setup/xdist.sh)", dir)
	}
	shardProjectRules(t, "addopts = -n 2\n", append(os.Environ(), "PYTHONPATH="+dir))
}

func shardProjectRules(t *testing.T, ini string, env []string) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"pytest.ini":            "[pytest]\n" + ini,
		"tests/conftest.py":     "collect_ignore = []\nif True:\n    collect_ignore.append('test_ignored.py')\n",
		"tests/test_ignored.py": "def test_never():\n    assert False, 'collect_ignore leaves this file out'\n",
		"tests/test_a.py":       "def test_a1():\n    pass\n\ndef test_a2():\n    pass\n",
		"tests/test_b.py":       "def test_b1():\n    pass\n",
		"tests/sub/test_c.py":   "def test_c1():\n    pass\n",
		"tests/test_big.py": "import time, pytest\n\n" +
			"@pytest.mark.parametrize('n', [1, 2])\ndef test_rows(n):\n    time.sleep(0.3)\n\n" +
			"class TestK:\n    def test_m(self):\n        time.sleep(0.3)\n    def test_n(self):\n        time.sleep(0.3)\n\n" +
			"def test_slow():\n    time.sleep(0.3)\n",
	})
	out := t.TempDir()
	full := filepath.Join(out, "full.jsonl")
	code, direct, errs := cliIn(t, root, env, "run", "--json")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, direct, errs)
	}
	write(t, full, direct)
	union := map[string]testdex.Action{}
	for i := 1; i <= 3; i++ {
		k := strconv.Itoa(i)
		code, got, errs := cliIn(t, root, env, "run", "--json", "--shard", k+"/3", "--durations", full)
		if code != 0 {
			t.Errorf("shard %s/3: exit %d (the whole run passes)\n%s", k, code, errs)
		}
		for id, a := range finals(t, got) {
			if _, twice := union[id]; twice {
				t.Errorf("%s ran in two shards", id)
			}
			union[id] = a
		}
	}
	if want := finals(t, direct); !reflect.DeepEqual(union, want) {
		t.Fatalf("the shards ran %v\nthe run ran %v", union, want)
	}
	if _, ok := union["tests/test_big.py::test_rows[1]"]; !ok {
		t.Errorf("the rows of a file broken into tests did not run: %v", union)
	}
	_, text, _ := cliIn(t, root, env, "plan", "--shards", "3", "--json", "--durations", full)
	if !strings.Contains(text, "tests/test_big.py::TestK") {
		t.Errorf("test_big.py was not broken into its tests, so its IDs were not tried:\n%s", text)
	}
}

// TestShardUnittestLoadTests: a shard of a unittest folder runs its part
// of the suite the whole run builds, where a package's load_tests in its
// __init__.py drops a failing test, adds the tests of a module whose name
// discovery does not match (test_added) and is the only way to the tests
// of its package. Loaded by name, a shard's modules escaped the hook: the
// dropped test ran and failed, the package's tests ran twice. Every shard
// passes, as the whole run does, and together they run what it runs, each
// test once, the tests of a file broken into its classes included.
func TestShardUnittestLoadTests(t *testing.T) {
	if exec.Command("python3", "-c", "import unittest").Run() != nil {
		testenv.Missing(t, "python3 is not installed")
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"test_top.py": "import unittest\n\nclass TestTop(unittest.TestCase):\n    def test_a(self):\n        pass\n",
		"pkg/__init__.py": "import os, unittest\n\n" +
			"def load_tests(loader, standard_tests, pattern):\n" +
			"    found = loader.discover(start_dir=os.path.dirname(__file__), pattern=pattern or 'test*.py')\n" +
			"    suite = unittest.TestSuite()\n" +
			"    for group in found:\n        for cls in group:\n            for t in cls:\n" +
			"                if not t.id().endswith('.test_dropped'):\n                    suite.addTest(t)\n" +
			"    from . import extra\n" +
			"    suite.addTests(loader.loadTestsFromModule(extra))\n" +
			"    return suite\n",
		"pkg/extra.py": "import unittest\n\nclass TestExtra(unittest.TestCase):\n    def test_added(self):\n        pass\n",
		"pkg/test_one.py": "import unittest\n\nclass TestOne(unittest.TestCase):\n    def test_x(self):\n        pass\n\n" +
			"    def test_dropped(self):\n        self.fail('load_tests drops this test')\n",
		"pkg/test_big.py": "import time, unittest\n\n" +
			"class TestK(unittest.TestCase):\n    def test_m(self):\n        time.sleep(0.3)\n\n    def test_n(self):\n        time.sleep(0.3)\n\n" +
			"class TestL(unittest.TestCase):\n    def test_o(self):\n        time.sleep(0.3)\n",
	})
	out := t.TempDir()
	full := filepath.Join(out, "full.jsonl")
	code, direct, errs := cliIn(t, root, os.Environ(), "run", "--json")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, direct, errs)
	}
	write(t, full, direct)
	want := finals(t, direct)
	if _, ok := want["pkg/extra.py::TestExtra::test_added"]; !ok || len(want) != 6 {
		t.Fatalf("the whole run did not run load_tests' suite: %v", want)
	}
	union := map[string]testdex.Action{}
	for i := 1; i <= 3; i++ {
		k := strconv.Itoa(i)
		code, got, errs := cliIn(t, root, os.Environ(), "run", "--json", "--shard", k+"/3", "--durations", full)
		if code != 0 {
			t.Errorf("shard %s/3: exit %d (the whole run passes)\n%s%s", k, code, got, errs)
		}
		for id, a := range finals(t, got) {
			if _, twice := union[id]; twice {
				t.Errorf("%s ran in two shards", id)
			}
			union[id] = a
		}
	}
	if !reflect.DeepEqual(union, want) {
		t.Fatalf("the shards ran %v\nthe run ran %v", union, want)
	}
	_, text, _ := cliIn(t, root, os.Environ(), "plan", "--shards", "3", "--json", "--durations", full)
	if !strings.Contains(text, "pkg/test_big.py::TestK") {
		t.Errorf("test_big.py was not broken into its classes, so their names were not tried:\n%s", text)
	}
}

// TestShardNamePattern: a shard that runs some of a node:test file's
// tests by ID does not report the file's other tests, which node 20 says
// it skipped ("test name does not match pattern"): the shards that run
// those report them, and `testdex merge` would read each as reported by
// two shards, the merged run failing where the whole run passes. A run
// of one test by ID reports that test alone.
func TestShardNamePattern(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed")
	}
	root := t.TempDir()
	big := "const test = require('node:test');\nconst nap = () => new Promise((ok) => setTimeout(ok, 300));\n"
	for _, n := range []string{"one", "two", "three", "four"} {
		big += "test('" + n + "', nap);\n"
	}
	writeFiles(t, root, map[string]string{
		"package.json":       `{"name": "np", "private": true, "scripts": {"test": "node --test"}}` + "\n",
		"test/big.test.js":   big,
		"test/small.test.js": "const test = require('node:test');\ntest('small', () => {});\n",
	})
	code, direct, errs := cliIn(t, root, os.Environ(), "run", "--json", "test/big.test.js::two")
	if want := map[string]testdex.Action{"test/big.test.js::two": testdex.ActionPass}; code != 0 || !reflect.DeepEqual(finals(t, direct), want) {
		t.Errorf("run test/big.test.js::two: exit %d, %v, want %v\n%s", code, finals(t, direct), want, errs)
	}
	out := t.TempDir()
	full := filepath.Join(out, "full.jsonl")
	code, direct, errs = cliIn(t, root, os.Environ(), "run", "--json")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, direct, errs)
	}
	write(t, full, direct)
	_, text, _ := cliIn(t, root, os.Environ(), "plan", "--shards", "3", "--json", "--durations", full, "-o", filepath.Join(out, "plan"))
	if !strings.Contains(text, "test/big.test.js::two") {
		t.Fatalf("big.test.js was not broken into its tests, so its IDs were not tried:\n%s", text)
	}
	var streams []string
	for i := 1; i <= 3; i++ {
		k := strconv.Itoa(i)
		code, got, errs := cliIn(t, root, os.Environ(), "run", "--json", "--shard", k+"/3", "--durations", full)
		if code != 0 {
			t.Errorf("shard %s/3: exit %d (the whole run passes)\n%s", k, code, errs)
		}
		streams = append(streams, filepath.Join(out, "shard-"+k+".jsonl"))
		write(t, streams[len(streams)-1], got)
	}
	code, merged, errs := cliIn(t, root, os.Environ(), append([]string{"merge", "--json", "--plan", filepath.Join(out, "plan", "plan.json")}, streams...)...)
	if code != 0 || !reflect.DeepEqual(finals(t, merged), finals(t, direct)) {
		t.Errorf("merge: exit %d, %v, want the whole run's %v\n%s", code, finals(t, merged), finals(t, direct), errs)
	}
}

// TestRunByIDFrameworkSkips: a run of some of a file's tests by ID
// reports those alone, whether the framework says nothing of the tests
// its name pattern leaves out (Mocha), says them skipped (Jest, node 20),
// or readies them as well (Vitest 3 calls onTestCaseReady for them, which
// read as started, so that their skips were kept), and node 20's pass of
// a describe whose tests it all left out is not reported either: what one
// shard of a file broken into its tests reports, where the others are
// another shard's.
func TestRunByIDFrameworkSkips(t *testing.T) {
	for _, f := range nodeRunFixtures {
		t.Run(f.dir, func(t *testing.T) {
			root := t.TempDir()
			copyNodeFixture(t, f.dir, filepath.Join(root, f.dir))
			id := f.dir + "/" + f.file + "::top level"
			code, out, errs := runnerIn(t, root)(nil, "run", "--json", id)
			want := map[string]testdex.Action{id: testdex.ActionPass}
			if f.dir == "node-test" { // its subtest runs with it
				want[id+" > sub ok"] = testdex.ActionPass
			}
			if code != 0 || !reflect.DeepEqual(finals(t, out), want) {
				t.Errorf("run %s: exit %d, %v, want %v\n%s", id, code, finals(t, out), want, errs)
			}
		})
	}
}
