// The run fixture for Mocha: tests that pass, fail, skip, and (opt-in
// through TESTDEX_FIXTURE_HANG, _LEAK and _LOUD) hang, leak a child
// process and print megabytes; without the variables those skip.
const assert = require('node:assert');
const { spawn } = require('node:child_process');

describe('math', function () {
  it('adds', function () {
    assert.strictEqual(1 + 1, 2);
  });

  it('fails', function () {
    assert.strictEqual(1 + 1, 3);
  });

  it.skip('skipped', function () {});

  [
    [1, 2],
    [2, 5],
  ].forEach(([a, b]) => {
    it(`double ${a} is ${b}`, function () {
      assert.strictEqual(a * 2, b);
    });
  });
});

it('top level', function () {});

// A test declared through an alias of it, which the listing does not see:
// its failure must be reported all the same.
const maybe = process.env.FIXTURE_SKIP_ALIAS ? it.skip : it;
maybe('alias fails', function () {
  assert.strictEqual('alias', 'test');
});

// The project's test command, `mocha --require test/support/env.js
// --check-leaks`, loads the support file, and its arguments are what the
// tests see.
it('sees the project\'s own command', function () {
  assert.strictEqual(globalThis.fixtureRequired, 'mocha --require');
  assert.deepStrictEqual(process.argv.slice(2), ['--require', 'test/support/env.js', '--check-leaks']);
});

it('hang', function () {
  if (!process.env.TESTDEX_FIXTURE_HANG) this.skip();
  this.timeout(0);
  return new Promise(() => {});
});

it('leak', function () {
  if (!process.env.TESTDEX_FIXTURE_LEAK) this.skip();
  recordPID(spawn('sleep', ['313'], { stdio: 'ignore' })).unref();
});

it('loud', function () {
  if (!process.env.TESTDEX_FIXTURE_LOUD) this.skip();
  const line = 'x'.repeat(1023) + '\n';
  for (let i = 0; i < 2048; i++) process.stdout.write(line);
});

// recordPID appends proc's PID to the file TESTDEX_FIXTURE_PIDS names, when
// it is set, so that the test driving this fixture can check by PID that
// testdex left none of its processes running; the process running this file
// records itself as the file loads.
function recordPID(proc) {
  const file = process.env.TESTDEX_FIXTURE_PIDS;
  if (file) {
    const fs = process.getBuiltinModule ? process.getBuiltinModule('node:fs') : require('node:fs');
    fs.appendFileSync(file, proc.pid + '\n');
  }
  return proc;
}
recordPID(process);
