package js

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// runner runs one JavaScript framework's tests in the process the
// project's own test command would give them.
//
// The runner used is the project's own: Jest, Vitest and Mocha are found
// in node_modules as node resolves them from the project folder (the
// folder's or an ancestor's, never npx, which may fetch another version);
// a missing one is an error wrapping lang.ErrNotInstalled that names the
// install command. node:test is the node on PATH.
//
// The tests see the project's own world. Jest, Vitest and Mocha run
// through their programmatic entry points from a wrapper script
// (runner_wrapper.cjs, written to RunOptions.Dir): process.argv is [node,
// the framework's command (node_modules/.bin/jest), the project's own
// arguments, the user's extra ones], the environment is the caller's plus
// only the test command's own VAR=value assignments, the working folder is
// the project's, so the frameworks find their configuration files
// themselves. node:test runs as `node --test`, each test file in a child
// node whose argv is [node, file]. Nothing is added for testdex: no CI,
// no FORCE_COLOR, no variable; the results reach testdex through reporter
// modules written for each command with their events file in them (see
// runner_reporters.go).
//
// The project's own options come from package.json's scripts.test: its
// first command that runs the framework (`mocha ...`, `npx jest ...`,
// `node node_modules/.bin/jest ...`, `node --test ...`, after `cross-env`
// or `nyc`, following `npm run X`; see readTestScript). Its flags are kept
// but for those that change only the output, watch, or select by git:
// reporters and their options, --watch and kin, coverage (Jest's and
// Vitest's --coverage, node's --experimental-test-coverage), Jest's --json
// and --outputFile, --onlyChanged, --changedSince. A name pattern or
// per-test timeout the project sets gives way to testdex's when the run
// sets one. Its paths run only when the whole project does. Jest's flags
// are sorted here (jestFlags), node's too (nodeFlags); Vitest's and
// Mocha's by the frameworks' own parsers in the wrapper, so that Mocha's
// .mocharc.* and package.json options are sorted the same way.
//
// What runs: the whole project (".") runs with no path and no name, as its
// test command does. Paths run whole, handed to the framework as paths
// (Jest: --runTestsByPath for files, an anchored path pattern for folders;
// Vitest: absolute path filters; Mocha: the files, a folder as the files
// of the project's spec under it; node:test: the files, a folder as the
// files the listing found under it, since node 21 takes globs and no
// folders). Tests named by ID run by their files and the union of their
// anchored name patterns, in a command of their own when paths are run
// too; a test without a pattern (a dynamic name at top level) runs its
// file whole.
//
// Every result the framework reports is reported, the tests a name pattern
// filtered out included where the framework reports them (Jest and Vitest
// as skipped, node 20 as skipped with "test name does not match pattern":
// the run core drops those skips of tests the batch did not select);
// suites have no result of their own but where the framework gives one
// (node:test's suites, a Vitest suite whose hook failed), with Kind suite.
type runner struct{ fw testdex.Framework }

// runnerFor returns the Runner of a framework, nil when there is none.
func runnerFor(fw testdex.Framework) lang.Runner {
	switch fw {
	case testdex.Jest, testdex.Vitest, testdex.Mocha, testdex.NodeTest:
		return runner{fw}
	}
	return nil
}

// batchRun is what one command runs.
type batchRun struct {
	whole bool // the whole project: no path and no name
	// paths are files and folders run whole or, with a pattern, the files
	// of the tests it names.
	paths   []lang.PathSelection
	pattern string
}

// RunCommands returns one command per batchRun of the selection, each with
// its reporter (and, but for node:test, the wrapper) written to o.Dir.
func (r runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	if o.Dir == "" {
		return nil, fmt.Errorf("no scratch folder for the %s reporter (the core must set RunOptions.Dir)", r.fw)
	}
	var in install
	if r.fw != testdex.NodeTest {
		var err error
		if in, err = findInstall(p.Dir, r.fw); err != nil {
			return nil, err
		}
	}
	script := readTestScript(p.Dir, r.fw)
	var cmds []*lang.Command
	modules := ""
	if o.Coverage {
		modules = projectModules(p.Dir, o.CacheDir)
		pruneInstruments(o.CacheDir)
	}
	for i, run := range splitSelection(sel) {
		events := filepath.Join(o.Dir, fmt.Sprintf("events-%d.jsonl", i+1))
		var cov string
		if o.Coverage {
			var err error
			if cov, err = writeCoverage(o.Dir, p.Dir, events, o.CacheDir, modules, i+1); err != nil {
				return nil, err
			}
			if r.fw == testdex.Vitest {
				if err := writeVitestSetup(cov, in.Pkg); err != nil {
					return nil, err
				}
			}
		}
		reporter, err := writeReporter(r.fw, o.Dir, i+1, events, in.Pkg, cov)
		if err != nil {
			return nil, err
		}
		var c *lang.Command
		if r.fw == testdex.NodeTest {
			c = &lang.Command{Args: nodeTestArgs(script, run, reporter, events, p.Dir, o), Dir: p.Dir}
			if cov != "" {
				pre, err := writeNodePreload(o.Dir, cov, i+1)
				if err != nil {
					return nil, err
				}
				c.Args = append([]string{c.Args[0], "--require=" + pre}, c.Args[1:]...)
			}
		} else if c, err = r.wrapped(p, in, script, run, reporter, events, cov, o); err != nil {
			return nil, err
		}
		c.Env = script.Env
		if script.Runs > 1 && i == 0 {
			c.Note = fmt.Sprintf("package.json's test script runs %s %d times (each with its own options); testdex runs it once, with the first one's", r.fw, script.Runs)
		}
		if n := subtestsByParent(sel); n > 0 && run.pattern != "" {
			c.Note = strings.TrimPrefix(c.Note+"; "+fmt.Sprintf("node --test cannot select a subtest (t.test) alone: "+
				"the %d selected ran with their enclosing test, whose other subtests ran too", n), "; ")
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// GuardsLinks implements lang.LinkGuard. Vitest and Mocha follow linked
// folders: the wrapper excludes the links (wrapperSpec.Outside). Jest's
// crawler enters no linked folder (a linked file it may read: refused).
// node --test follows them and has no option to exclude one: refused.
func (r runner) GuardsLinks(links []lang.Link) bool {
	switch r.fw {
	case testdex.Vitest, testdex.Mocha:
		return true
	case testdex.Jest:
		for _, l := range links {
			if !l.Dir {
				return false
			}
		}
		return true
	}
	return false
}

// subtestsByParent counts the selected node:test subtests: node runs a
// test's body, and so its subtests, only when the test's own name matches
// the pattern, so each is selected by its outermost test (the walker's
// selector), siblings included.
func subtestsByParent(sel *lang.Selection) int {
	n := 0
	for _, t := range sel.Tests {
		if t.Framework == testdex.NodeTest && t.Kind == testdex.KindSubtest && !t.Dynamic {
			n++
		}
	}
	return n
}

// splitSelection turns a selection into the commands' runs: the whole
// project; or the paths (with the files of named tests that have no
// pattern), then the named tests by their files and patterns.
func splitSelection(sel *lang.Selection) []batchRun {
	if sel.Whole() {
		return []batchRun{{whole: true}}
	}
	paths := append([]lang.PathSelection{}, sel.Paths...)
	whole := map[string]bool{}
	for _, ps := range paths {
		whole[ps.Path] = !ps.Dir
	}
	pattern := func(t *testdex.Test) string {
		if t.Run == "" && !t.Dynamic && t.Name != "" { // a record made by the ID rules
			return runPattern(t.Framework, strings.Split(t.Name, " > "), t.Kind == testdex.KindSuite)
		}
		return t.Run
	}
	for _, t := range sel.Tests {
		if (pattern(t) == "" || t.Dynamic) && !whole[t.Scope] {
			whole[t.Scope] = true
			paths = append(paths, lang.PathSelection{Path: t.Scope})
		}
	}
	pats, files := map[string]bool{}, map[string]bool{}
	for _, t := range sel.Tests {
		if !whole[t.Scope] {
			pats[pattern(t)], files[t.Scope] = true, true
		}
	}
	var runs []batchRun
	if len(paths) > 0 {
		runs = append(runs, batchRun{paths: paths})
	}
	var named batchRun
	for _, f := range sortedKeys(files) {
		named.paths = append(named.paths, lang.PathSelection{Path: f})
	}
	if len(named.paths) > 0 {
		named.pattern = strings.Join(sortedKeys(pats), "|")
		runs = append(runs, named)
	}
	return runs
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// millis renders a duration option in milliseconds.
func millis(o lang.RunOptions) string { return strconv.FormatInt(o.TestTimeout.Milliseconds(), 10) }

// NewParser returns the parser of a command RunCommands built: standard
// output becomes batch output, and the command's events file the results.
func (r runner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	ps := newParser(p.Dir, emit)
	ps.eventsFile = eventsFileOf(cmd)
	ps.fw, ps.covering = r.fw, ps.eventsFile != "" && isFile(recorderOf(ps.eventsFile))
	return ps
}

// eventsFileOf finds a command's events file: node's reporter destination,
// or the events field of the wrapper's spec.
func eventsFileOf(cmd *lang.Command) string {
	for _, a := range cmd.Args {
		if f, ok := strings.CutPrefix(a, "--test-reporter-destination="); ok {
			return f
		}
		if strings.HasPrefix(a, "{") {
			var s wrapperSpec
			if json.Unmarshal([]byte(a), &s) == nil && s.Events != "" {
				return s.Events
			}
		}
	}
	return ""
}

// writeWrapper writes the wrapper script to dir once and returns its path.
func writeWrapper(dir string) (string, error) {
	file := filepath.Join(dir, "testdex-run.cjs")
	if _, err := os.Stat(file); err == nil {
		return file, nil
	}
	if err := os.WriteFile(file, wrapperSource, 0o644); err != nil {
		return "", fmt.Errorf("write the JavaScript runner's wrapper: %w", err)
	}
	return file, nil
}
