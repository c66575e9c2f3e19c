// The run fixture for node:test: tests that pass, fail, skip, and (opt-in
// through TESTDEX_FIXTURE_HANG, _LEAK and _LOUD) hang, leak a child
// process and print megabytes; without the variables those skip.
const assert = require('node:assert');
const { spawn } = require('node:child_process');
const { describe, it, test } = require('node:test');

describe('math', () => {
  it('adds', () => {
    assert.strictEqual(1 + 1, 2);
  });

  it('fails', () => {
    assert.strictEqual(1 + 1, 3);
  });

  it.skip('skipped', () => {});

  for (const [a, b] of [
    [1, 2],
    [2, 5],
  ]) {
    it(`double ${a} is ${b}`, () => {
      assert.strictEqual(a * 2, b);
    });
  }
});

test('top level', async (t) => {
  await t.test('sub ok', () => {});
});

// A test declared through an alias of test, which the listing does not
// see: its failure must be reported all the same.
const maybe = process.env.FIXTURE_SKIP_ALIAS ? test.skip : test;
maybe('alias fails', () => {
  assert.strictEqual('alias', 'test');
});

// The project's test command, `node --test --require ./setup.cjs`, loads
// the setup file in each test process, whose arguments are node's own.
test('sees the project\'s own command', () => {
  assert.strictEqual(globalThis.fixtureRequired, 'node --require');
  assert.deepStrictEqual(process.argv.slice(2), []);
});

test('hang', (t) => {
  if (!process.env.TESTDEX_FIXTURE_HANG) return t.skip('set TESTDEX_FIXTURE_HANG to hang');
  return new Promise(() => setInterval(() => {}, 1000));
});

test('leak', (t) => {
  if (!process.env.TESTDEX_FIXTURE_LEAK) return t.skip('set TESTDEX_FIXTURE_LEAK to leak a process');
  recordPID(spawn('sleep', ['314'], { stdio: 'ignore' })).unref();
});

test('loud', (t) => {
  if (!process.env.TESTDEX_FIXTURE_LOUD) return t.skip('set TESTDEX_FIXTURE_LOUD to print megabytes');
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
