package python

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// The drivers the Runners write to the batch's scratch folder and run with
// the project's interpreter (see [interpreter]): each reads what to run
// from a JSON file beside it and writes one JSON event a line on its
// standard output, which carries nothing else (see the scripts' doc
// strings and [eventParser]). Nothing reaches the tests through their
// argv or environment: the file carries the selection and the timeout.
var (
	//go:embed runner_pytest.py
	pytestDriver []byte
	//go:embed runner_unittest.py
	unittestDriver []byte
)

// pytestRunner runs pytest through runner_pytest.py, which calls
// pytest.main with its reporting plugin registered as an object (no -p name
// that could clash with an installed module) after giving the tests the
// sys.argv and sys.path of the `pytest` console script. It runs in the
// rootdir, rootRel from the project folder, where node IDs are relative.
//
// xfail and xpass follow pytest's own verdict: an xfailed test is a skip
// (message "xfail: reason"), a non-strict xpass a pass (message "xpass:
// reason"), a strict xpass a failure. A per-test timeout is applied only
// when pytest-timeout is installed (the driver sets its --timeout unless
// the user did); otherwise the driver says so in the batch output and only
// the run's --timeout applies. pytest's exit status 5 (no tests collected)
// is 0: the run ran nothing, and the core reports the listed tests as not
// reported rather than the batch as failed.
type pytestRunner struct{ rootRel string }

// pytestOptions are testdex's own pytest options: pytest's report goes to
// the batch output (shown when the batch fails), and each failure is an
// event already.
var pytestOptions = []string{"-q", "--no-header", "--no-summary"}

// RunCommands returns one command: the project's interpreter (it reports
// lang.ErrNotInstalled when pytest is not importable by it, asking the
// interpreter once through internal/proc: see checkPytest) running the
// driver, which passes pytestOptions, the Extra arguments and the
// selection to pytest.main. The whole project is no argument at all
// (pytest's testpaths and addopts decide), a path is rootdir-relative, a
// test its node ID, passed intact ("::" and "[" inside parameters
// included). A class or function's node ID selects its rows.
func (r pytestRunner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	root := filepath.Join(p.Dir, filepath.FromSlash(r.rootRel))
	python := interpreter(p.Dir, root, o)
	if err := checkPytest(python, root, o.Env); err != nil {
		return nil, err
	}
	cov, err := coverageFiles(o)
	if err != nil {
		return nil, err
	}
	opts := pytestOptions
	for _, l := range o.Outside { // pytest follows a linked folder: never into one that leaves the root
		opts = append(opts[:len(opts):len(opts)], "--ignore="+path.Join(relTo(root, p.Dir), l.Path))
	}
	proj := relTo(root, p.Dir)
	plan := pytestPlan{Options: opts, Extra: o.Extra, Timeout: o.TestTimeout.Seconds(), Coverage: cov}
	plan.Select, plan.Only = pytestSelect(proj, sel)
	args, err := writeDriver(o.Dir, "testdex_pytest.py", pytestDriver, plan)
	if err != nil {
		return nil, err
	}
	return []*lang.Command{{Args: append([]string{python}, args...), Dir: root}}, nil
}

// GuardsLinks implements lang.LinkGuard: RunCommands passes each link
// leaving the root to --ignore, file or folder.
func (pytestRunner) GuardsLinks([]lang.Link) bool { return true }

// pytestPlan is runner_pytest.py's configuration file.
type pytestPlan struct {
	Options []string `json:"options,omitempty"`
	Extra   []string `json:"extra,omitempty"`
	Select  []string `json:"select,omitempty"`
	Timeout float64  `json:"timeout,omitempty"` // seconds
	// Coverage, when set, records per-test coverage (see coverage.go).
	Coverage *coveragePlan `json:"coverage,omitempty"`
	// Only, when set, keeps of what Select collects the tests of its
	// paths and IDs (see pytestSelect).
	Only *pytestOnly `json:"only,omitempty"`
}

// pytestOnly is what the driver keeps of a collection: the files and
// folders of Paths (rootdir-relative), and the tests whose node IDs are,
// or start, an ID of IDs (a function's rows, a class's methods). Named
// is the selection named on the command line instead (pytestArgs), which
// the driver hands pytest-xdist's workers in place of Select: they load
// no plugin the driver gives pytest, so they could not keep a part.
type pytestOnly struct {
	Paths []string `json:"paths"`
	IDs   []string `json:"ids"`
	Named []string `json:"named"`
}

// pytestSelect returns pytest's arguments for sel, and what the driver
// keeps of their collection. Without sel.Within, the arguments name the
// selection (pytestArgs). With it (a shard's part of a folder's run),
// they name what Within names, so that pytest collects as the whole run
// does (conftest.py's collect_ignore, python_files, testpaths apply,
// which a file named on the command line escapes), and Only keeps the
// part: the driver ignores every other file before it is imported and
// deselects the tests of a file not selected whole that no ID names. A
// path or test outside Within is named as it would be without it.
func pytestSelect(proj string, sel *lang.Selection) ([]string, *pytestOnly) {
	if len(sel.Within) == 0 {
		return pytestArgs(proj, sel), nil
	}
	args := pytestArgs(proj, &lang.Selection{Paths: sel.Within})
	only := &pytestOnly{Paths: []string{}, IDs: []string{}, Named: pytestArgs(proj, sel)}
	inside := func(p string) bool {
		for _, w := range sel.Within {
			if w.Path == "." || p == w.Path || (w.Dir && strings.HasPrefix(p, w.Path+"/")) {
				return true
			}
		}
		return false
	}
	for _, ps := range sel.Paths {
		if !inside(ps.Path) {
			args = append(args, path.Join(proj, ps.Path))
		}
		only.Paths = append(only.Paths, path.Join(proj, ps.Path))
	}
	for _, t := range sel.Tests {
		name := nativeName(t)
		if file, _, _ := strings.Cut(name, "::"); !inside(lang.ProjectRel(proj, file)) {
			args = append(args, name)
		}
		only.IDs = append(only.IDs, name)
	}
	return args, only
}

// pytestArgs are the selection's pytest arguments; proj is the project
// folder relative to the rootdir. The whole project run from its rootdir
// has none; run from a folder below the rootdir, it is that folder, as
// `pytest` run there collects it.
func pytestArgs(proj string, sel *lang.Selection) []string {
	if sel.Whole() && len(sel.Tests) == 0 && proj == "." {
		return nil
	}
	var out []string
	for _, ps := range sel.Paths {
		out = append(out, path.Join(proj, ps.Path))
	}
	for _, t := range sel.Tests {
		out = append(out, nativeName(t))
	}
	return out
}

// NewParser returns the parser of the driver's event stream.
func (pytestRunner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	return newEventParser(p, cmd, emit)
}

// unittestRunner runs unittest through runner_unittest.py in the project
// folder, where the Detector's discovery starts (start and top-level
// folder both the project, pattern test*.py): the whole project is
// discovered as `python -m unittest` does, a folder is discovered with the
// project as its top level (so names stay the listing's), a file loads as
// its module, a test by its dotted name; a shard's part of a folder's run
// loads the folder and keeps the part (unittestSelect). Each result carries the file
// declaring the test's class (RunEvent.Decl), which names a test the
// listing does not hold. An expected failure is a skip, an unexpected
// success a failure, a failed subTest fails its method (its parameters
// lead the message). A per-test timeout arms SIGALRM around each test,
// which fails with "timed out". A module that fails to import is the
// batch's output and error, not a test (see the driver's doc string).
type unittestRunner struct{}

// RunCommands returns one command: the project's interpreter running the
// driver. Extra arguments are ignored: the driver loads tests itself, and
// unittest's options (-k, -f, -b) are not passed on.
func (unittestRunner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	cov, err := coverageFiles(o)
	if err != nil {
		return nil, err
	}
	plan := unittestSelect(sel)
	plan.Timeout, plan.Coverage = o.TestTimeout.Seconds(), cov
	args, err := writeDriver(o.Dir, "testdex_unittest.py", unittestDriver, plan)
	if err != nil {
		return nil, err
	}
	return []*lang.Command{{Args: append([]string{interpreter(p.Dir, p.Dir, o)}, args...), Dir: p.Dir}}, nil
}

// unittestPlan is runner_unittest.py's configuration file.
type unittestPlan struct {
	Discover []string `json:"discover,omitempty"` // folders
	Modules  []string `json:"modules,omitempty"`
	Names    []string `json:"names,omitempty"`
	Timeout  float64  `json:"timeout,omitempty"` // seconds
	// Coverage, when set, records per-test coverage (see coverage.go).
	Coverage *coveragePlan `json:"coverage,omitempty"`
	// Keep, when set, is the part of what the plan loads that runs.
	Keep *unittestKeep `json:"keep,omitempty"`
}

// unittestKeep is the part of a load the driver runs: the tests whose
// home is one of Files or lies under one of Dirs ("." is every file), and
// those whose ID or home module is, or starts with, one of Names and a
// dot (a record run through its module names the module). A test's home
// is the test module (a file matching test*.py) or package (its
// __init__.py) of the innermost loadTestsFromModule call that returned it:
// a test a package's load_tests adds from a module of another name, or
// builds itself, is its package's.
type unittestKeep struct {
	Files []string `json:"files"`
	Dirs  []string `json:"dirs"`
	Names []string `json:"names"`
}

// unittestSelect returns the driver's plan for sel. Without sel.Within,
// it loads the selection: folders by discovery, files as modules, tests
// by name. With it (a shard's part of a folder's run), it loads Within as
// the whole run does, so that each package's load_tests builds the suite
// (a module loaded by name escapes its package's hook, which may drop,
// add or skip tests), and Keep runs the part. A path or test outside
// Within is loaded as it would be without it.
func unittestSelect(sel *lang.Selection) unittestPlan {
	var plan unittestPlan
	load := func(ps lang.PathSelection) {
		if ps.Dir {
			plan.Discover = append(plan.Discover, ps.Path)
		} else {
			plan.Modules = append(plan.Modules, moduleName(ps.Path))
		}
	}
	if len(sel.Within) > 0 {
		plan.Keep = &unittestKeep{Files: []string{}, Dirs: []string{}, Names: []string{}}
		for _, ps := range sel.Within {
			load(ps)
		}
	}
	inside := func(p string) bool {
		for _, w := range sel.Within {
			if w.Path == "." || p == w.Path || (w.Dir && strings.HasPrefix(p, w.Path+"/")) {
				return true
			}
		}
		return false
	}
	for _, ps := range sel.Paths {
		if plan.Keep != nil {
			if ps.Dir {
				plan.Keep.Dirs = append(plan.Keep.Dirs, ps.Path)
			} else {
				plan.Keep.Files = append(plan.Keep.Files, ps.Path)
			}
		}
		if !inside(ps.Path) {
			load(ps)
		}
	}
	seen := map[string]bool{}
	for _, t := range sel.Tests {
		// Tests a load_tests hook names run through its module, once.
		n := nativeName(t)
		if seen[n] {
			continue
		}
		seen[n] = true
		if plan.Keep != nil {
			plan.Keep.Names = append(plan.Keep.Names, n)
		}
		if !inside(lang.ProjectRel(t.Project, t.File)) {
			plan.Names = append(plan.Names, n)
		}
	}
	return plan
}

// NewParser returns the parser of the driver's event stream.
func (unittestRunner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	return newEventParser(p, cmd, emit)
}

// nativeName is a record's name in the framework's terms: its Run
// selector, else its Name (a record the ID rules made).
func nativeName(t *testdex.Test) string {
	if t.Run != "" {
		return t.Run
	}
	return t.Name
}

// writeDriver writes the driver script and its configuration to dir; it
// returns the driver's arguments (both paths).
func writeDriver(dir, name string, script []byte, cfg any) ([]string, error) {
	if dir == "" {
		return nil, errors.New("no scratch folder for the python driver (set RunOptions.Dir)")
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("write the python driver's configuration: %w", err)
	}
	driver, config := filepath.Join(dir, name), filepath.Join(dir, strings.TrimSuffix(name, ".py")+".json")
	if err := os.WriteFile(driver, script, 0o644); err != nil {
		return nil, fmt.Errorf("write the python driver: %w", err)
	}
	if err := os.WriteFile(config, data, 0o644); err != nil {
		return nil, fmt.Errorf("write the python driver's configuration: %w", err)
	}
	return []string{driver, config}, nil
}
