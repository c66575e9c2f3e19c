package js

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/state"
)

// Per-test coverage (testdex run --coverage, see lang.Coverer).
//
// Every framework records, in the process that runs the tests, which
// functions of the project's files each test entered, with the recorder
// of runner_coverage.cjs and runner_instrument.cjs: the files are
// instrumented as they load (a counter per function, after the runner's
// own transform), so a cut between tests costs what the test touched;
// V8's precise coverage (node:inspector) where that cannot reach (see
// runner_instrument.cjs's wantCounters). No package to install, nothing
// in the tests' environment or argv, and the code as it ran (transformed
// or not) with its source map, so TypeScript and Babel code is reported
// in its own lines. What differs is where the recorder is loaded and
// where it cuts:
//
//   - Mocha: in the wrapper, before Mocha loads anything; the reporter
//     cuts at each test, hook and suite event. Granularity "test": a test
//     gets what ran from its start to its end and in its beforeEach and
//     afterEach hooks; what ran outside tests (beforeAll, afterAll) goes
//     to every test of the file, and the loading of the spec files
//     (Mocha loads them all first) to every test of the run.
//   - Vitest: in each worker, through a setup file the reporter puts first
//     in every project's setupFiles (onInit), whose beforeEach and
//     afterEach (run first and last) cut. Granularity "test", the file's
//     loading and beforeAll/afterAll hooks going to each of its tests.
//     Concurrent tests (test.concurrent) share what ran meanwhile.
//   - Jest: in the process running each test file (the wrapper in band, a
//     jest-worker child otherwise, where the wrapper adds it to the fork's
//     execArgv and the recorder removes itself), cutting where jest-circus
//     tells Jest a test started and ended. Granularity "test".
//   - node:test: each test file runs in a child node with the test
//     command's node options, where --require loads the recorder, which
//     removes itself from process.execArgv and cuts with a beforeEach and
//     an afterEach on the child's root test (nodeCoveragePreload).
//     Granularity "test"; a test's window includes its subtests'.
//
// A test's lines are those holding code in the functions it entered,
// less the functions inside them it did not enter, as V8 counts them (a
// branch not taken is not cut out: more lines, never fewer). Files under the project's
// node_modules and outside the project are dropped (a node_modules entry
// linking into the project is read at its real path).
const granularityTest = "test"

//go:embed runner_coverage.cjs
var coverageSource string

//go:embed runner_instrument.cjs
var instrumentSource string

//go:embed acorn/acorn.cjs
var acornSource string

// instrumentVersion names the cache folder of the instrumented files:
// another recorder or parser instruments differently.
var instrumentVersion = strconv.FormatUint(xxh3.HashString(coverageSource+instrumentSource+acornSource), 16)

// instrumentHooks are the loader hooks (node's module.register) of the
// counting recorder: they instrument the project's ES modules, with the
// recorder's instrument (data.recorder), in node's loader thread. A file
// that cannot be parsed runs as it is, behind a line that tells the
// recorder so (marking every later take incomplete).
const instrumentHooks = `import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
let instrument;
export function initialize(data) { instrument = createRequire(data.recorder)(data.recorder).instrument; }
export async function load(url, context, next) {
  const r = await next(url, context);
  if (r.format !== 'module' || r.source == null || !url.startsWith('file:')) return r;
  const src = typeof r.source === 'string' ? r.source : Buffer.from(r.source).toString('utf8');
  const out = instrument(src, fileURLToPath(url), true);
  if (!out) return r;
  if (!out.broken) return { ...r, source: out.code };
  const nl = src.startsWith('#!') ? src.indexOf('\n') + 1 : 0;
  const tell = ';globalThis[Symbol.for("testdex.coverage.counters")]?.broken(' + JSON.stringify(out.broken) + ');';
  return { ...r, source: nl > 0 || !src.startsWith('#!') ? src.slice(0, nl) + tell + src.slice(nl) : src };
}
`

// Granularity is the unit a framework's coverage is attributed to.
func (r runner) Granularity() string { return granularityTest }

// CoverageCheck reports what keeps the project from recording coverage:
// the same as what keeps it from running (the framework's package), as
// the recorder needs nothing but node.
func (r runner) CoverageCheck(p *lang.Project, o lang.RunOptions) error {
	if r.fw == testdex.NodeTest {
		return nil
	}
	_, err := findInstall(p.Dir, r.fw)
	return err
}

// writeCoverage writes the recorder of the n-th command to dir and returns
// its path. It writes to a file of its own beside the events file
// (covFileOf): node:test's reporter destination is not opened for
// appending, and would write over lines the test processes append. The
// counting recorder's parser and loader hooks go beside it; it keeps the
// files it instruments under cache (instrumentCache), if not "". modules
// says which of the project's files node may run as ES modules (see
// projectModules): "no" lets the recorder go without the loader hooks.
func writeCoverage(dir, project, events, cache, modules string, n int) (string, error) {
	file := filepath.Join(dir, fmt.Sprintf("testdex-coverage-%d.cjs", n))
	acorn, hooks := filepath.Join(dir, "testdex-acorn.cjs"), strings.TrimSuffix(file, ".cjs")+"-hooks.mjs"
	if cache != "" {
		cache = filepath.Join(state.Path(cache, "js-instrument", project, "d"), instrumentVersion)
	}
	consts, _ := json.Marshal([]string{covFileOf(events), realDir(project), acorn, hooks, cache, modules})
	src := fmt.Sprintf("const [testdexEvents, testdexProject, testdexAcorn, testdexHooks, testdexCache, testdexModules] = %s;\n", consts) +
		coverageSource + instrumentSource
	for _, f := range []struct{ name, text string }{{file, src}, {acorn, acornSource}, {hooks, instrumentHooks}} {
		if err := os.WriteFile(f.name, []byte(f.text), 0o644); err != nil {
			return "", fmt.Errorf("write the coverage recorder: %w", err)
		}
	}
	return file, nil
}

// covFileOf is the coverage file of a command's events file.
func covFileOf(events string) string { return strings.TrimSuffix(events, ".jsonl") + ".cov.jsonl" }

// nodeCoveragePreload is what node:test's children --require: the
// recorder, started in a child (NODE_TEST_CONTEXT=child*) only, cut by a
// beforeEach and an afterEach it adds to the child's root test before the
// test file loads. node:test runs a root's beforeEach hooks first and its
// afterEach hooks last for every test at any depth (suites' tests and
// subtests included; checked on Node 20), and names a test by its
// titles joined with " > " (fullName), as testdex does. A test gets what
// ran from its beforeEach to its afterEach: its hooks, its body, its
// subtests (a parent executed what its subtests did). Tests whose windows
// overlap (concurrency, a subtest inside its parent) each get what ran
// meanwhile, so a test's lines are never short of what it ran. What ran
// outside every window (loading, suite-level before and after hooks)
// goes to every test of the file at exit.
const nodeCoveragePreload = `
const testdexArg = '--require=' + __filename;
if (String(process.env.NODE_TEST_CONTEXT || '').startsWith('child')) {
  const i = process.execArgv.indexOf(testdexArg);
  if (i >= 0) process.execArgv.splice(i, 1);
  const rec = require(testdexCoverage).recorder('counters');
  const file = require('node:path').resolve(process.argv[1] || '');
  const active = new Map(); // TestContext -> lines it ran so far
  const cut = () => {
    if (active.size === 0) return rec.outside(file);
    const lines = rec.take();
    for (const b of active.values()) rec.add(b, lines);
  };
  const { beforeEach, afterEach } = require('node:test');
  beforeEach((t) => { rec.expect(file); cut(); active.set(t, new Map()); });
  afterEach((t) => {
    cut();
    const b = active.get(t);
    active.delete(t);
    if (b) rec.emitTest(file, [t.fullName], b);
  });
  process.on('exit', () => { cut(); rec.flush(); });
}
`

// vitestCoverageSetup is the setup file of Vitest's workers: the recorder,
// cut by hooks on each test file's root suite. Vitest runs a root suite's
// beforeEach in order (this one first) and its afterEach and afterAll in
// reverse (this one last, under the default sequence.hooks "stack"). A
// test that follows one of the same suite (last) in the same file starts
// without a take: between the two only Vitest ran (a suite's beforeAll
// and afterAll hooks run where the suite changes, and afterAll resets
// last at each file's end), so the test's window begins at the previous
// one's end, and a test costs one take, not two (concurrent tests,
// running, take at each start as before).
const vitestCoverageSetup = `
import { createRequire } from 'node:module';
const { beforeEach, afterEach, afterAll } = await import(testdexVitest);
const rec = createRequire(testdexCoverage)(testdexCoverage).recorder('vitest', globalThis);
const fileOf = (t) => (t.file && t.file.filepath) || '';
const titles = (t) => { const out = []; for (let p = t; p && p !== t.file; p = p.suite) out.unshift(p.name); return out; };
let file = '';
let last = null;
let running = 0;
beforeEach((ctx) => {
  file = fileOf(ctx.task);
  rec.expect(file);
  if (!last || last !== ctx.task.suite || running) rec.outside(file);
  last = null;
  running++;
});
afterEach((ctx) => { running--; rec.test(fileOf(ctx.task), titles(ctx.task)); last = running ? null : ctx.task.suite || null; });
afterAll(() => { last = null; rec.outside(file); rec.flush(); });
`

// writeVitestSetup writes Vitest's coverage setup file beside the
// recorder (the reporter finds it by that name), importing the vitest
// package the run uses.
func writeVitestSetup(coverage, pkg string) error {
	file := strings.TrimSuffix(coverage, ".cjs") + "-vitest.mjs"
	cv, _ := json.Marshal(coverage)
	index, _ := json.Marshal((&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(realDir(pkg), "dist", "index.js"))}).String())
	src := "const testdexCoverage = " + string(cv) + ";\nconst testdexVitest = " + string(index) + ";\n" + vitestCoverageSetup
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return fmt.Errorf("write the coverage setup file: %w", err)
	}
	return nil
}

// jestCoverageHook is loaded in the process running Jest's tests: the
// wrapper (in band), and, through the execArgv of jest-worker's forks, its
// children, where it removes itself from process.execArgv. It starts the
// recorder and wraps jest-circus's adapter (the runner of each test file),
// whose sendMessageToJest hears of each test's start and result as they
// happen in the test's process: what ran between a test's start and its
// result (its hooks included) is the test's; the rest, while the file
// runs, goes to each test of the file. A test that follows another with
// only Jest between (quiet) starts without a take: one take per test.
const jestCoverageHook = `
const testdexArg = '--require=' + __filename;
const testdexModule = require('node:module');
const i = process.execArgv.indexOf(testdexArg);
if (i >= 0) process.execArgv.splice(i, 1);
const rec = require(testdexCoverage).recorder('jest');
const cp = require('node:child_process');
const fork = cp.fork;
cp.fork = function (file, args, options) {
  if (typeof file === 'string' && /jest-worker[\\/]build[\\/](workers[\\/])?processChild\.js$/.test(file)) {
    if (!Array.isArray(args)) { options = args; args = []; }
    options = { ...options, execArgv: [...((options && options.execArgv) || process.execArgv), testdexArg] };
    return fork.call(this, file, args, options);
  }
  return fork.apply(this, arguments);
};
// quiet says that only Jest ran since the last test's result: no
// beforeAll or afterAll hook (the environment's handleTestEvent, which
// jest-circus calls with its events, says when one starts), no
// concurrent test (whose body runs ahead of its start) in the file. The
// next test's window then begins at that result, without a take.
let quiet = false;
let concurrent = false;
function watchHooks(environment) {
  const own = Object.prototype.hasOwnProperty.call(environment, 'handleTestEvent');
  const handle = environment.handleTestEvent;
  try {
    environment.handleTestEvent = function (event, state) {
      if (event.name === 'add_test' && event.concurrent) concurrent = true;
      if (event.name === 'hook_start' && event.hook && !/Each$/.test(event.hook.type)) quiet = false;
      if (handle) return handle.call(this, event, state);
    };
  } catch (e) {
    return null;
  }
  if (environment.handleTestEvent === handle) return null;
  return () => { if (own) environment.handleTestEvent = handle; else delete environment.handleTestEvent; };
}
const load = testdexModule._load;
testdexModule._load = function (request) {
  const m = load.apply(this, arguments);
  if (request === '@jest/transform' && rec.jestTransform) return rec.jestTransform(m);
  if (/jestAdapter(\.js)?$|jest-circus[\\/](build[\\/])?runner(\.js)?$/.test(request) && m && typeof m.default === 'function' && !m.default.testdex) {
    const adapter = m.default;
    m.default = async function (globalConfig, config, environment, runtime, testPath, send) {
      rec.outside(testPath);
      const restore = watchHooks(environment);
      const hear = (name, args) => {
        if (name === 'test-case-start') rec.expect(testPath);
        if (name === 'test-case-start' && !quiet) rec.outside(testPath);
        else if (name === 'test-case-result') rec.test(testPath, [...args[1].ancestorTitles, args[1].title]);
        quiet = name === 'test-case-result' && restore !== null && !concurrent;
        if (send) return send(name, args);
      };
      try {
        return await adapter.call(this, globalConfig, config, environment, runtime, testPath, hear);
      } finally {
        if (restore) restore();
        quiet = concurrent = false;
        rec.outside(testPath);
        rec.flush();
      }
    };
    m.default.testdex = true;
  }
  return m;
};
`

// writeJestHook writes Jest's coverage hook beside the recorder and
// returns its path.
func writeJestHook(coverage string) (string, error) {
	file := strings.TrimSuffix(coverage, ".cjs") + "-jest.cjs"
	cv, _ := json.Marshal(coverage)
	if err := os.WriteFile(file, []byte("const testdexCoverage = "+string(cv)+";"+jestCoverageHook), 0o644); err != nil {
		return "", fmt.Errorf("write the coverage hook: %w", err)
	}
	return file, nil
}

// writeNodePreload writes node:test's preload for the n-th command.
func writeNodePreload(dir, coverage string, n int) (string, error) {
	file := filepath.Join(dir, fmt.Sprintf("testdex-node-coverage-%d.cjs", n))
	cv, _ := json.Marshal(coverage)
	if err := os.WriteFile(file, []byte("const testdexCoverage = "+string(cv)+";"+nodeCoveragePreload), 0o644); err != nil {
		return "", fmt.Errorf("write the coverage preload: %w", err)
	}
	return file, nil
}

// coverage collects a command's coverage events, given at Close: each
// test's own, and what ran outside the tests, of a file or of the whole
// process, to each test the run reported as run in it. A test whose window
// ran code whose lines cannot be told (unmapped: transformed without a
// source map), or whose file's or process's shared code did, gets none:
// it records nothing rather than less than it executed.
type coverage struct {
	dir, real string // the project folder, and as the processes see it
	tests     []testKey
	seen      map[testKey]bool
	shared    map[string][]lang.CoveredFile // by scope; "" for all
	own       []lang.RunEvent               // the tests' own events, in order
	unmapped  map[testKey]bool              // tests, scopes (name "") and all ({"", ""}) that ran unmapped code
	tables    map[string]*covTable          // the counting recorder's tables, by id (runner_covtables.go)
}

type testKey struct{ scope, name string }

// saw records a test that ran.
func (c *coverage) saw(scope, name string) {
	k := testKey{scope, name}
	if c.seen == nil {
		c.seen = map[testKey]bool{}
	}
	if !c.seen[k] {
		c.seen[k] = true
		c.tests = append(c.tests, k)
	}
}

// files turns an event's coverage into the project's files, absolute
// under the project folder as testdex names it, sorted.
func (c *coverage) files(cov map[string][][2]int) []lang.CoveredFile {
	var out []lang.CoveredFile
	for file, spans := range cov {
		abs := c.inProject(file)
		if abs == "" || len(spans) == 0 {
			continue
		}
		cf := lang.CoveredFile{File: abs}
		for _, s := range spans {
			cf.Lines = append(cf.Lines, lang.Span{Start: s[0], End: s[1]})
		}
		cf.Lines = lang.MergeSpans(cf.Lines)
		out = append(out, cf)
	}
	sortCovered(out)
	return out
}

// inProject is file under the project folder, "" when it is not (or is
// under node_modules).
func (c *coverage) inProject(file string) string {
	for _, root := range []string{c.real, c.dir} {
		rel, err := filepath.Rel(root, file)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || !filepath.IsAbs(file) {
			continue
		}
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			if part == "node_modules" {
				return ""
			}
		}
		return filepath.Join(c.dir, rel)
	}
	return ""
}

// markUnmapped notes that a test (or, with no name, the tests of a scope;
// with neither, all) ran code whose lines cannot be told.
func (c *coverage) markUnmapped(scope, name string) {
	if c.unmapped == nil {
		c.unmapped = map[testKey]bool{}
	}
	c.unmapped[testKey{scope, name}] = true
}

// complete reports whether a test's coverage holds all it executed.
func (c *coverage) complete(k testKey) bool {
	return !c.unmapped[k] && !c.unmapped[testKey{k.scope, ""}] && !c.unmapped[testKey{}]
}

// flush emits the tests' own coverage, then gives the coverage run
// outside tests to the tests of its file; nothing for an incomplete test.
func (c *coverage) flush(emit func(lang.RunEvent)) {
	for _, e := range c.own {
		if c.complete(testKey{e.Scope, e.Name}) {
			emit(e)
		}
	}
	merged := map[string][]lang.CoveredFile{} // by scope, merged once for all its tests
	for _, k := range c.tests {
		if !c.complete(k) {
			continue
		}
		all, ok := merged[k.scope]
		if !ok {
			all = append(slices.Clone(c.shared[k.scope]), c.shared[""]...)
			if len(all) > 0 {
				all = mergeCovered(all)
			}
			merged[k.scope] = all
		}
		if len(all) > 0 {
			emit(lang.RunEvent{Action: lang.ActionCovered, Scope: k.scope, Name: k.name, Covered: all})
		}
	}
	c.shared, c.own, c.unmapped = nil, nil, nil
}

// mergeCovered merges the spans of the same file.
func mergeCovered(files []lang.CoveredFile) []lang.CoveredFile {
	by := map[string][]lang.Span{}
	for _, f := range files {
		by[f.File] = append(by[f.File], f.Lines...)
	}
	out := make([]lang.CoveredFile, 0, len(by))
	for f, spans := range by {
		out = append(out, lang.CoveredFile{File: f, Lines: lang.MergeSpans(spans)})
	}
	sortCovered(out)
	return out
}

func sortCovered(files []lang.CoveredFile) {
	slices.SortFunc(files, func(a, b lang.CoveredFile) int { return strings.Compare(a.File, b.File) })
}
