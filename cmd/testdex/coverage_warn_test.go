package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/testenv"
)

// Coverage that records nothing is never silent: per framework, a project
// whose coverage cannot be recorded gets one warning naming it, its
// framework and the reason, on stderr and as a warning event in --json,
// exits as its tests do, and `covering` then gives that reason; a normal
// project gets no warning and covering answers. (Go's case is the script
// coverage_gaps.txtar.)

// wantCoverageWarning runs `run --coverage --json` with env and checks the
// one warning about batch ". FW", whose message holds reason; then that
// covering at gives the same reason. It returns the message.
func wantCoverageWarning(t *testing.T, td cliFunc, env []string, fw testdex.Framework, reason, at string) string {
	t.Helper()
	code, out, errs := td(env, "run", "--coverage", "--json")
	if code != 0 {
		t.Fatalf("run --coverage: exit %d, want 0 (coverage is no test result)\n%s%s", code, tail(out), errs)
	}
	warns := eventsOf(t, out, testdex.ActionWarning)
	label := "project . (" + string(fw) + "): "
	if len(warns) != 1 || warns[0].Batch != ". "+string(fw) || warns[0].Framework != fw ||
		!strings.HasPrefix(warns[0].Message, label) || !strings.Contains(warns[0].Message, reason) {
		t.Fatalf("warning events %+v; want one about . %s saying %q\nstderr:\n%s", warns, fw, reason, errs)
	}
	if !strings.Contains(errs, "testdex: warning: "+warns[0].Message+"\n") {
		t.Errorf("stderr lacks the warning %q:\n%s", warns[0].Message, errs)
	}
	code, _, errs = td(env, "covering", at)
	if code != 2 || !strings.Contains(errs, "recorded nothing for project . ("+string(fw)+"): ") || !strings.Contains(errs, reason) {
		t.Errorf("covering %s: exit %d, want 2 saying why (%q):\n%s", at, code, reason, errs)
	}
	return warns[0].Message
}

// wantCoverage runs `run --coverage` with env and checks it warns of
// nothing, and that covering at names test.
func wantCoverage(t *testing.T, td cliFunc, env []string, at, test string) {
	t.Helper()
	code, out, errs := td(env, "run", "--coverage")
	if code != 0 || strings.Contains(errs, "warning") || !strings.Contains(errs, "coverage of ") {
		t.Fatalf("run --coverage: exit %d, want 0, no warning, coverage recorded\n%s%s", code, tail(out), errs)
	}
	code, out, errs = td(env, "covering", at)
	if code != 0 || !strings.Contains(out, test+"  pass  recorded ") {
		t.Errorf("covering %s: exit %d, want %s\n%s%s", at, code, test, out, errs)
	}
}

// pyCoverageFiles is a project with one test of lib.f, for pytest and
// unittest alike.
var pyCoverageFiles = map[string]string{
	"lib.py":      "def f(x):\n    return x + 1\n",
	"test_lib.py": "import unittest\n\nimport lib\n\n\nclass T(unittest.TestCase):\n    def test_f(self):\n        self.assertEqual(lib.f(1), 2)\n",
}

// emptyVenv makes a virtualenv without pip (nor coverage) and returns it.
func emptyVenv(t *testing.T) string {
	t.Helper()
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv: %v\n%s", err, out)
	}
	return venv
}

// TestCoverageWarnsUnittest: unittest in a virtualenv without coverage.py
// warns with the fix; with coverage.py (scripts/setup/python.sh) it
// records, and the gap is gone.
func TestCoverageWarnsUnittest(t *testing.T) {
	files := map[string]string{"pyproject.toml": "[project]\nname = \"cov\"\n"}
	for f, text := range pyCoverageFiles {
		files[f] = text
	}
	_, td := pyProject(t, "unittest", files)
	venv := emptyVenv(t)
	py := filepath.Join(venv, "bin", "python")
	wantCoverageWarning(t, td, []string{"VIRTUAL_ENV=" + venv}, testdex.Unittest,
		"no coverage: coverage is not installed for "+py+", the python the tests run with (run: "+py+" -m pip install coverage", "lib.py:2")
	if exec.Command("python3", "-c", "import coverage").Run() != nil {
		testenv.Missing(t, "coverage.py is not installed for python3 (run scripts/setup/python.sh)")
	}
	wantCoverage(t, td, nil, "lib.py:2", "test_lib.py::T::test_f")
}

// TestCoverageWarnsPytest: pytest in a virtualenv that sees pytest (a .pth
// file naming its site-packages) and not coverage.py warns with the fix;
// python3 with both records.
func TestCoverageWarnsPytest(t *testing.T) {
	files := map[string]string{"pytest.ini": "[pytest]\n"}
	for f, text := range pyCoverageFiles {
		files[f] = text
	}
	_, td := pyProject(t, "python", files)
	out, err := exec.Command("python3", "-c", "import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))").Output()
	if err != nil {
		testenv.Missing(t, "pytest is not installed for python3")
	}
	site := strings.TrimSpace(string(out))
	if _, err := os.Stat(filepath.Join(site, "coverage")); err == nil {
		t.Skipf("coverage.py is installed beside pytest in %s: no virtualenv sees one without the other", site)
	}
	venv := emptyVenv(t)
	pths, _ := filepath.Glob(filepath.Join(venv, "lib", "python3*", "site-packages"))
	if len(pths) != 1 {
		t.Fatalf("site-packages of %s: %v", venv, pths)
	}
	if err := os.WriteFile(filepath.Join(pths[0], "pytest-only.pth"), []byte(site+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	py := filepath.Join(venv, "bin", "python")
	wantCoverageWarning(t, td, []string{"VIRTUAL_ENV=" + venv}, testdex.Pytest,
		"no coverage: coverage is not installed for "+py, "lib.py:2")
	if exec.Command("python3", "-c", "import coverage").Run() != nil {
		testenv.Missing(t, "coverage.py is not installed for python3 (run scripts/setup/python.sh)")
	}
	wantCoverage(t, td, nil, "lib.py:2", "test_lib.py::T::test_f")
}

// TestCoverageWarnsNode runs internal/lang/js's coverage fixtures through
// the CLI (with the frameworks scripts/setup/node.sh installs in
// testdata/run/node): Jest with a transform that moves lines and gives no
// source map, and Mocha with --parallel, warn with the reason; Jest 30
// with ts-jest, Vitest, Mocha and node:test record without a warning.
func TestCoverageWarnsNode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the frameworks")
	}
	ar, err := txtar.ParseFile("../../internal/lang/js/testdata/coverage.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, installed string
		fw              testdex.Framework
		reason          string // "" records
		at, test        string
	}{
		{"jest-nomap", "jest", testdex.Jest, "2 files ran as code transformed without a source map (", "lib.js:4", ""},
		{"mocha-parallel", "mocha", testdex.Mocha, "Mocha's --parallel runs the tests in worker processes", "lib.js:2", ""},
		{"jest30-ts", "jest30-ts", testdex.Jest, "", "src/lib.ts:6", "__tests__/lib.test.ts::lib > test_a"},
		{"vitest", "vitest", testdex.Vitest, "", "lib.ts:6", "test/lib.test.ts::lib > test_a"},
		{"mocha", "mocha", testdex.Mocha, "", "lib.js:4", "test/lib.spec.js::lib > test_a"},
		{"node-test", "node-test", testdex.NodeTest, "", "lib.js:4", "test/lib.test.js::lib > test_a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), c.name)
			copyNodeFixture(t, c.installed, t.TempDir()) // skips without node or the framework
			for _, f := range ar.Files {
				if rel, ok := strings.CutPrefix(f.Name, c.name+"/"); ok {
					os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
					if err := os.WriteFile(filepath.Join(dir, rel), f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if c.installed != "node-test" {
				modules, _ := filepath.Abs(filepath.Join("../../testdata/run/node", c.installed, "node_modules"))
				if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
					t.Fatal(err)
				}
			}
			td := runnerIn(t, dir)
			if c.reason != "" {
				wantCoverageWarning(t, td, nil, c.fw, c.reason, c.at)
				return
			}
			wantCoverage(t, td, nil, c.at, c.test)
		})
	}
}
