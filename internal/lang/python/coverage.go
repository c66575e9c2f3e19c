package python

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/proc"
)

// Per-test coverage (lang.Coverer) for pytest and unittest: the drivers
// start coverage.py themselves and, as each test starts and ends, cut what
// its tracer recorded into the test's lines, named as their events name
// the test (a pytest node ID with its parameters, a unittest id()), then
// send one "covered" event per test. See runner_coverage.py's doc string
// for what goes to which test (import-time and module-level lines go to
// every test of the process; wider-scoped pytest fixtures to every test
// using them), for the overrides of the project's own coverage
// configuration, and for why the recorder reads coverage's collector
// rather than switching coverage's contexts (its fallback). Nothing is
// written: the project's .coverage is never touched.
//
// Overhead (scripts/pycovbench.py, docs/coverage.md "Python"; CPU time,
// medians of three alternated runs on a loaded machine): x1.47 on
// itsdangerous (pytest, 297 tests), x2.66 on pyasn1 (unittest, 1,179
// one-millisecond tests), x1.90 on click, against x1.52, x3.85 and x2.78
// with coverage's own contexts; coverage's tracer alone is x1.35 to x1.6
// of the driver's time on Python 3.11.

//go:embed runner_coverage.py
var coverageModule []byte

// coveragePlan is the drivers' "coverage" configuration: the module
// they load by path.
type coveragePlan struct {
	Module string `json:"module"`
}

// coverageFiles writes runner_coverage.py to the scratch folder and
// returns the drivers' plan; nil when o does not ask for coverage.
func coverageFiles(o lang.RunOptions) (*coveragePlan, error) {
	if !o.Coverage {
		return nil, nil
	}
	if o.Dir == "" {
		return nil, errors.New("no scratch folder for the python driver (set RunOptions.Dir)")
	}
	mod := filepath.Join(o.Dir, "testdex_coverage.py")
	if err := os.WriteFile(mod, coverageModule, 0o644); err != nil {
		return nil, fmt.Errorf("write the python coverage recorder: %w", err)
	}
	return &coveragePlan{Module: mod}, nil
}

// CoverageCheck reports, wrapping lang.ErrNotInstalled, an interpreter
// that cannot import coverage (or one older than 5.0, which has no
// dynamic contexts): the interpreter the tests run with (see interpreter),
// asked once in the rootdir.
func (r pytestRunner) CoverageCheck(p *lang.Project, o lang.RunOptions) error {
	root := filepath.Join(p.Dir, filepath.FromSlash(r.rootRel))
	return checkCoverage(interpreter(p.Dir, root, o), root, o.Env)
}

// Granularity is "test": each pytest item (each parametrized row) has its
// own context.
func (pytestRunner) Granularity() string { return "test" }

// CoverageCheck is pytestRunner's, in the project folder.
func (unittestRunner) CoverageCheck(p *lang.Project, o lang.RunOptions) error {
	return checkCoverage(interpreter(p.Dir, p.Dir, o), p.Dir, o.Env)
}

// Granularity is "test": each test method has its own context (its
// subTests with it).
func (unittestRunner) Granularity() string { return "test" }

var (
	_ lang.Coverer = pytestRunner{}
	_ lang.Coverer = unittestRunner{}
)

// coverageProbe prints the interpreter and exits 3 when coverage cannot
// be imported, 4 (printing its version) when it is older than 5.0.
const coverageProbe = `import sys
del sys.path[0]
import importlib.util
print(sys.executable)
if importlib.util.find_spec("coverage") is None:
    sys.exit(3)
from importlib.metadata import version
v = version("coverage")
print(v)
sys.exit(4 if int(v.split(".")[0]) < 5 else 0)`

// checkCoverage runs coverageProbe with python in dir and env (as
// checkPytest does: importability cannot be read from files). A failure of
// the probe itself is left to the run, whose driver says the same.
func checkCoverage(python, dir string, env []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	res, err := proc.Run(ctx, proc.Spec{Args: []string{python, "-c", coverageProbe}, Dir: dir, Env: env})
	var missing *proc.MissingError
	switch {
	case errors.As(err, &missing):
		return fmt.Errorf("%w: %s is not in PATH (install Python 3, or activate the project's virtualenv)", lang.ErrNotInstalled, python)
	case err != nil || res.TimedOut || (res.ExitCode != 3 && res.ExitCode != 4):
		return nil
	}
	out := strings.Fields(string(res.Stdout))
	exe := python
	if len(out) > 0 {
		exe = out[0]
	}
	if res.ExitCode == 4 && len(out) > 1 {
		return fmt.Errorf("%w: coverage %s for %s is too old for per-test coverage (run: %s -m pip install 'coverage>=7')", lang.ErrNotInstalled, out[1], exe, exe)
	}
	return fmt.Errorf("%w: coverage is not installed for %s, the python the tests run with (run: %s -m pip install coverage, or add coverage to the project's test dependencies)", lang.ErrNotInstalled, exe, exe)
}
