package js

import "github.com/testdex/testdex"

// The reporters append one JSON object per line to $TESTDEX_EVENTS with
// appendFileSync, so each line is complete on disk when the call returns:
//
//	{"a": "run"|"pass"|"fail"|"skip"|"output"|"error", "file": ABS,
//	 "titles": [describe..., test], "ms": DURATION, "msg": MESSAGE,
//	 "stack": STACK, "out": OUTPUT}
//
// "error" is a failure outside any test (a file that does not load);
// "output" is console output the framework collected outside stdout.
const jsEmit = `const testdexFs = require('node:fs');
const testdexEmit = (o) => testdexFs.appendFileSync(process.env.TESTDEX_EVENTS, JSON.stringify(o) + '\n');
`

// jestReporter uses Jest's per-test hooks (onTestCaseStart, 29.6+;
// onTestCaseResult, 27+), and each file's results for the tests those did
// not report (skipped ones, older Jest), load errors and console output.
const jestReporter = jsEmit + `
const status = {passed: 'pass', failed: 'fail'};
const key = (file, r) => [file, ...r.ancestorTitles, r.title].join('\0');
class TestdexReporter {
  constructor() { this.seen = new Set(); }
  onTestCaseStart(test, t) { testdexEmit({a: 'run', file: test.path, titles: [...t.ancestorTitles, t.title]}); }
  onTestCaseResult(test, r) { this.result(test.path, r); }
  result(file, r) {
    this.seen.add(key(file, r));
    const d = (r.failureDetails || [])[0] || {};
    const msg = d.message || (r.failureMessages || [])[0];
    const stack = d.stack || (r.failureMessages || []).join('\n');
    testdexEmit({a: status[r.status] || 'skip', file, titles: [...r.ancestorTitles, r.title], ms: r.duration || 0, msg, stack});
  }
  onTestResult(test, res) {
    for (const c of res.console || []) testdexEmit({a: 'output', file: test.path, out: c.type + ': ' + c.message + '\n'});
    for (const r of res.testResults || []) if (!this.seen.has(key(test.path, r))) this.result(test.path, r);
    const e = res.testExecError;
    if (e) testdexEmit({a: 'error', file: test.path, msg: e.message, stack: e.stack});
  }
  getLastError() { return undefined; }
}
module.exports = TestdexReporter;
`

// vitestReporter uses Vitest 3's reporter API (onTestCaseReady,
// onTestCaseResult, onTestModuleEnd, onTestRunEnd).
const vitestReporter = `import testdexFs from 'node:fs';
const testdexEmit = (o) => testdexFs.appendFileSync(process.env.TESTDEX_EVENTS, JSON.stringify(o) + '\n');
const titles = (t) => { const out = []; for (let p = t; p && p.type !== 'module'; p = p.parent) out.unshift(p.name); return out; };
const status = {passed: 'pass', failed: 'fail'};
export default class TestdexReporter {
  onTestCaseReady(t) { testdexEmit({a: 'run', file: t.module.moduleId, titles: titles(t)}); }
  onTestCaseResult(t) {
    const r = t.result(), d = t.diagnostic(), e = (r.errors || [])[0] || {};
    testdexEmit({a: status[r.state] || 'skip', file: t.module.moduleId, titles: titles(t), ms: d ? d.duration : 0,
      msg: r.state === 'failed' ? e.message : r.note, stack: e.stack});
  }
  onTestModuleEnd(m) { for (const e of m.errors()) testdexEmit({a: 'error', file: m.moduleId, msg: e.message, stack: e.stack}); }
  onTestRunEnd(_, errors) { for (const e of errors || []) testdexEmit({a: 'error', msg: e.message, stack: e.stack}); }
  onUserConsoleLog(l) { testdexEmit({a: 'output', out: l.content}); }
}
`

// mochaReporter extends Mocha's Base reporter (resolved from the project)
// and reports hooks that fail under their own titles.
const mochaReporter = jsEmit + `
const path = require('node:path');
const dir = path.dirname(require.resolve('mocha/package.json', {paths: [process.cwd()]}));
const Base = require(path.join(dir, 'lib/reporters/base'));
const file = (t) => t.file || (t.parent && t.parent.file) || '';
class TestdexReporter extends Base {
  constructor(runner, options) {
    super(runner, options);
    runner.on('test', (t) => testdexEmit({a: 'run', file: file(t), titles: t.titlePath()}));
    runner.on('pass', (t) => testdexEmit({a: 'pass', file: file(t), titles: t.titlePath(), ms: t.duration || 0}));
    runner.on('pending', (t) => testdexEmit({a: 'skip', file: file(t), titles: t.titlePath()}));
    runner.on('fail', (t, err) => testdexEmit({a: 'fail', file: file(t), titles: t.titlePath(), ms: t.duration || 0,
      msg: err && err.message, stack: err && err.stack}));
  }
}
module.exports = TestdexReporter;
`

// nodeRunReporter is a node:test reporter (Node 20+). Events carry a test's
// own name and nesting only; a stack per file, kept from test:start
// (emitted in declaration order), gives the ancestors. Tests a name
// pattern filtered out are skipped by node with a fixed message; they are
// dropped here. A suite that failed through its children only has no
// message of its own. Test processes' stdout is reported as output, capped.
const nodeRunReporter = `import testdexFs from 'node:fs';
const testdexEmit = (o) => testdexFs.appendFileSync(process.env.TESTDEX_EVENTS, JSON.stringify(o) + '\n');
const filtered = 'test name does not match pattern';
export default async function* testdexReporter(source) {
  const stacks = new Map();
  let printed = 0;
  for await (const {type, data} of source) {
    const file = data.file || '';
    const stack = stacks.get(file) || [];
    stacks.set(file, stack);
    if (type === 'test:start') {
      stack.length = data.nesting;
      stack.push(data.name);
    }
    const titles = [...stack.slice(0, data.nesting), data.name];
    const d = data.details || {};
    if (type === 'test:pass' && data.skip !== filtered) {
      const skip = data.skip !== undefined || data.todo !== undefined;
      testdexEmit({a: skip ? 'skip' : 'pass', file, titles, ms: d.duration_ms || 0,
        msg: typeof data.skip === 'string' ? data.skip : undefined, suite: d.type === 'suite'});
    } else if (type === 'test:fail') {
      const e = d.error || {}, c = e.cause || e;
      const own = e.failureType !== 'subtestsFailed';
      testdexEmit({a: 'fail', file, titles, ms: d.duration_ms || 0, msg: own ? String(c.message || c) : undefined,
        stack: own ? c.stack : undefined, suite: d.type === 'suite'});
    } else if ((type === 'test:stdout' || type === 'test:stderr') && printed < 256 * 1024) {
      printed += data.message.length;
      testdexEmit({a: 'output', file, out: data.message});
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
