package js

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/testdex/testdex"
)

// The reporters write one JSON object per line to the command's events
// file, each line complete on disk when a test ends (appendFileSync; for
// node:test, node writes what the reporter yields to the file named by
// --test-reporter-destination):
//
//	{"a": "run"|"pass"|"fail"|"skip"|"output"|"error", "file": ABS,
//	 "titles": [describe..., test], "ms": DURATION, "msg": MESSAGE,
//	 "stack": STACK, "out": OUTPUT, "suite": true for a suite's own result}
//
// "error" is a failure outside any test: of a file (it does not load),
// which the parser reports as that file's suite failing, or of the whole
// run. "output" is console output the framework collected outside stdout.
// Each reporter file is written for one command with the events file's
// path in it (testdexEvents), so that nothing reaches the tests' process
// through its environment or arguments.
const jsEmit = `const testdexFs = require('node:fs');
const testdexEmit = (o) => testdexFs.appendFileSync(testdexEvents, JSON.stringify(o) + '\n');
`

// jestReporter uses Jest's per-test hooks (onTestCaseStart, 29.6+;
// onTestCaseResult, 27+), and each file's results for the tests those did
// not report (skipped ones, older Jest), load errors and console output.
// Reported results are counted per full title, not merely remembered:
// tests sharing a title are each reported once. Titles are strings as
// jest-jasmine2 names a test of another type (String(title)): it([2010,
// 6]) is 2010,6, as the listing names it.
const jestReporter = jsEmit + `
const status = {passed: 'pass', failed: 'fail'};
const key = (file, r) => [file, ...r.ancestorTitles, r.title].join('\0');
class TestdexReporter {
  constructor() { this.seen = new Map(); }
  onTestCaseStart(test, t) { testdexEmit({a: 'run', file: test.path, titles: [...t.ancestorTitles, t.title].map(String)}); }
  onTestCaseResult(test, r) { this.seen.set(key(test.path, r), (this.seen.get(key(test.path, r)) || 0) + 1); this.result(test.path, r); }
  result(file, r) {
    const d = (r.failureDetails || [])[0] || {};
    const msg = d.message || (r.failureMessages || [])[0];
    const stack = d.stack || (r.failureMessages || []).join('\n');
    testdexEmit({a: status[r.status] || 'skip', file, titles: [...r.ancestorTitles, r.title].map(String), ms: r.duration || 0, msg, stack});
  }
  onTestResult(test, res) {
    for (const c of res.console || []) testdexEmit({a: 'output', file: test.path, out: c.type + ': ' + c.message + '\n'});
    for (const r of res.testResults || []) { // each copy of a shared full title is a result of its own
      const k = key(test.path, r), n = this.seen.get(k) || 0;
      if (n > 0) this.seen.set(k, n - 1); else this.result(test.path, r);
    }
    const e = res.testExecError;
    if (e) testdexEmit({a: 'error', file: test.path, msg: e.message, stack: e.stack});
  }
  getLastError() { return undefined; }
}
module.exports = TestdexReporter;
`

// vitestReporter uses Vitest 3's reporter API (onTestCaseReady,
// onTestCaseResult, onTestSuiteResult, onTestModuleEnd, onTestRunEnd). A
// suite reports a result only when it failed with errors of its own (a
// failing beforeAll). Vitest readies skipped tests too, those a name
// pattern leaves out included: they are not said to run.
const vitestReporter = `import testdexFs from 'node:fs';
const testdexCoverageSetup = testdexCoverage && testdexCoverage.replace(/\.cjs$/, '-vitest.mjs');
const testdexEmit = (o) => testdexFs.appendFileSync(testdexEvents, JSON.stringify(o) + '\n');
const titles = (t) => { const out = []; for (let p = t; p && p.type !== 'module'; p = p.parent) out.unshift(p.name); return out; };
const status = {passed: 'pass', failed: 'fail'};
export default class TestdexReporter {
  // onInit puts the coverage setup file first in every project's setup
  // files, which Vitest reads when it sends a worker its config.
  onInit(vitest) {
    if (!testdexCoverage) return;
    for (const p of vitest.projects || [vitest.getRootProject()]) {
      const c = p.config;
      c.setupFiles = [testdexCoverageSetup, ...(c.setupFiles || []).filter((f) => f !== testdexCoverageSetup)];
    }
  }
  onTestCaseReady(t) { if (t.options.mode !== 'skip' && t.options.mode !== 'todo') testdexEmit({a: 'run', file: t.module.moduleId, titles: titles(t)}); }
  onTestCaseResult(t) {
    const r = t.result(), d = t.diagnostic(), e = (r.errors || [])[0] || {};
    testdexEmit({a: status[r.state] || 'skip', file: t.module.moduleId, titles: titles(t), ms: d ? d.duration : 0,
      msg: r.state === 'failed' ? e.message : r.note, stack: e.stack});
  }
  onTestSuiteResult(s) {
    const e = (s.errors() || [])[0];
    if (e) testdexEmit({a: 'fail', file: s.module.moduleId, titles: titles(s), msg: e.message, stack: e.stack, suite: true});
  }
  onTestModuleEnd(m) { for (const e of m.errors()) testdexEmit({a: 'error', file: m.moduleId, msg: e.message, stack: e.stack}); }
  onTestRunEnd(_, errors) { for (const e of errors || []) testdexEmit({a: 'error', msg: e.message, stack: e.stack}); }
  onUserConsoleLog(l) { testdexEmit({a: 'output', out: l.content}); }
}
`

// mochaReporter extends Mocha's Base reporter (from the package the run
// uses, testdexPkg) and reports hooks that fail under their own titles, as
// Mocha counts them.
const mochaReporter = jsEmit + `
const path = require('node:path');
const Base = require(path.join(testdexPkg, 'lib/reporters/base'));
const file = (t) => t.file || (t.parent && t.parent.file) || '';
class TestdexReporter extends Base {
  constructor(runner, options) {
    super(runner, options);
    runner.on('test', (t) => testdexEmit({a: 'run', file: file(t), titles: t.titlePath()}));
    runner.on('pass', (t) => testdexEmit({a: 'pass', file: file(t), titles: t.titlePath(), ms: t.duration || 0}));
    runner.on('pending', (t) => testdexEmit({a: 'skip', file: file(t), titles: t.titlePath()}));
    runner.on('fail', (t, err) => testdexEmit({a: 'fail', file: file(t), titles: t.titlePath(), ms: t.duration || 0,
      msg: err && err.message, stack: err && err.stack}));
    if (testdexCoverage) cover(runner, require(testdexCoverage).recorder('counters'));
  }
}

// cover cuts the coverage where what runs changes owner: a test's first
// beforeEach hook or its start begins its window, which holds its hooks
// and its body; a beforeAll or afterAll hook begins its file's; the run's
// end closes the last. Between its events Mocha runs its own code and
// what the last hook or test left running (a setImmediate, a stream's
// events), which is that one's, so a window stays open across the events
// that start no hook or test (hook end, test end, suite, suite end), and a
// test costs one take, not one per event: V8's take walks every function
// the process compiled, whatever ran. Loading and root hooks go to the run.
// Under --parallel the tests run in workers: it only says so.
function cover(runner, rec) {
  if (runner.isParallelMode && runner.isParallelMode()) {
    return rec.note("Mocha's --parallel runs the tests in worker processes, where testdex's recorder is not: run them without --parallel to record their coverage");
  }
  let cur = {file: ''};
  const at = (next) => {
    if (next && (next.test ? next.test === cur.test : !cur.test && next.file === cur.file)) return;
    if (cur.test) rec.test(cur.file, cur.test.titlePath());
    else rec.outside(cur.file);
    cur = next;
  };
  const each = (h) => /^"(before|after) each" hook/.test(h.title) && h.ctx && h.ctx.currentTest;
  runner.on('hook', (h) => at(each(h) ? {file: file(h.ctx.currentTest), test: h.ctx.currentTest} : {file: file(h)}));
  runner.on('test', (t) => { rec.expect(file(t)); at({file: file(t), test: t}); });
  runner.once('end', () => { at(null); rec.flush(); });
}
module.exports = TestdexReporter;
`

// nodeRunReporter is a node:test reporter (Node 20+), whose lines node
// writes to --test-reporter-destination. Events carry a test's own name
// and nesting only; a stack per file, kept from test:start (emitted in
// declaration order), gives the ancestors (test:dequeue, emitted as tests
// start, those of a running test). A test is "run" once it has been
// running for runDelay ms after test:dequeue: node 20 dequeues the
// tests a name pattern filters out too, and skips them at once ("test name
// does not match pattern"), which must not read as started. A file that
// fails outside its tests is reported by node as a failed test named by
// its path, here made project-relative, with the end of the file's
// stderr (node's own message is "test failed"). Test processes' output
// is reported as output, capped.
const nodeRunReporter = `import testdexPath from 'node:path';
const runDelay = 100;
export default async function* testdexReporter(source) {
  const stacks = new Map(), running = new Map(), pending = new Map(), stderr = new Map();
  const it = source[Symbol.asyncIterator]();
  let printed = 0, next = it.next();
  const line = (o) => JSON.stringify(o) + '\n';
  for (;;) {
    const due = Math.min(...[...pending.values()].map((p) => p.at));
    let timer;
    const r = due === Infinity ? await next
      : await Promise.race([next, new Promise((ok) => { timer = setTimeout(ok, Math.max(0, due - Date.now())); })]);
    clearTimeout(timer);
    if (r === undefined) { // a test has been running for runDelay
      for (const [k, p] of pending) if (p.at <= Date.now()) { pending.delete(k); yield p.line; }
      continue;
    }
    if (r.done) break;
    next = it.next();
    const {type, data} = r.value;
    const file = data.file || '';
    const stack = stacks.get(file) || [];
    stacks.set(file, stack);
    const whole = data.nesting === 0 && data.file !== undefined && data.name === data.file;
    const key = file + '\0' + data.nesting + '\0' + data.name;
    if (type === 'test:dequeue' && !whole) {
      const run = running.get(file) || [];
      running.set(file, run);
      run.length = data.nesting;
      run.push(data.name);
      pending.set(key, {at: Date.now() + runDelay, line: line({a: 'run', file, titles: [...run]})});
    } else if (type === 'test:complete') {
      pending.delete(key);
    } else if (type === 'test:start') {
      stack.length = data.nesting;
      stack.push(data.name);
    }
    const titles = whole ? [testdexPath.relative(process.cwd(), data.file)] : [...stack.slice(0, data.nesting), data.name];
    const d = data.details || {}, suite = d.type === 'suite' || undefined;
    if (type === 'test:pass' && !whole) {
      const skip = data.skip !== undefined || data.todo !== undefined;
      const note = typeof data.skip === 'string' ? data.skip : typeof data.todo === 'string' ? data.todo : undefined;
      yield line({a: skip ? 'skip' : 'pass', file, titles, ms: d.duration_ms || 0, msg: note, suite});
    } else if (type === 'test:fail') {
      const e = d.error || {}, c = e.cause || e;
      const own = e.failureType !== 'subtestsFailed';
      let msg = own ? String(c.message || c) : undefined;
      if (whole && stderr.get(file)) msg += '\n' + stderr.get(file); // node says "test failed": its stderr says why
      yield line({a: 'fail', file, titles, ms: d.duration_ms || 0, msg, stack: own ? c.stack : undefined, suite});
    } else if (type === 'test:stdout' || type === 'test:stderr') {
      if (type === 'test:stderr') stderr.set(file, ((stderr.get(file) || '') + data.message).slice(-4096));
      if (printed < 256 * 1024) {
        printed += data.message.length;
        yield line({a: 'output', file, out: data.message});
      }
    }
  }
}
`

// reporterSource and reporterExt are each framework's reporter module
// and the file suffix that makes the framework load it as intended.
var (
	reporterSource = map[testdex.Framework]string{testdex.Jest: jestReporter, testdex.Vitest: vitestReporter,
		testdex.Mocha: mochaReporter, testdex.NodeTest: nodeRunReporter}
	reporterExt = map[testdex.Framework]string{testdex.Jest: ".cjs", testdex.Vitest: ".mjs",
		testdex.Mocha: ".cjs", testdex.NodeTest: ".mjs"}
)

// writeReporter writes fw's reporter for the n-th command to dir, with
// the events file, the framework's package folder and the coverage
// recorder ("" without coverage; see runner_coverage.go) in it, and
// returns its path.
func writeReporter(fw testdex.Framework, dir string, n int, events, pkg, coverage string) (string, error) {
	file := filepath.Join(dir, fmt.Sprintf("testdex-%s-reporter-%d%s", fw, n, reporterExt[fw]))
	ev, _ := json.Marshal(events)
	pk, _ := json.Marshal(pkg)
	cv := []byte("null")
	if coverage != "" {
		cv, _ = json.Marshal(coverage)
	}
	src := fmt.Sprintf("const testdexEvents = %s;\nconst testdexPkg = %s;\nconst testdexCoverage = %s;\n", ev, pk, cv) +
		reporterSource[fw]
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return "", fmt.Errorf("write the %s reporter: %w", fw, err)
	}
	return file, nil
}
