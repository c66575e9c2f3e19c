// The run fixture for Jest: tests that pass, fail, skip, and (opt-in
// through TESTDEX_FIXTURE_HANG, _LEAK and _LOUD) hang, leak a child
// process and print megabytes. Without the variables those pass at once.
// It also checks that the tests see the project's own process.
const { spawn } = require('child_process');

describe('math', () => {
  test('adds', () => {
    expect(1 + 1).toBe(2);
  });

  test('fails', () => {
    expect(1 + 1).toBe(3);
  });

  test.skip('skipped', () => {});

  test.each([
    [1, 2],
    [2, 5],
  ])('double %i is %i', (a, b) => {
    expect(a * 2).toBe(b);
  });
});

test('top level', () => {});

// A test declared through an alias of test, which the listing does not
// see: its failure must be reported all the same.
const maybe = process.env.FIXTURE_SKIP_ALIAS ? test.skip : test;
maybe('alias fails', () => {
  expect('alias').toBe('test');
});

// A suite that parses its process's arguments (a CLI testing itself) sees
// those of the project's own test command, `jest`: none (Jest runs a lone
// file in band, in its own process).
test('argv is the project\'s own', () => {
  expect(process.argv.slice(2)).toEqual([]);
});

test('hang', () => {
  if (!process.env.TESTDEX_FIXTURE_HANG) return undefined;
  return new Promise(() => {});
}, 3600000);

test('leak', () => {
  if (!process.env.TESTDEX_FIXTURE_LEAK) return;
  recordPID(spawn('sleep', ['311'], { stdio: 'ignore' })).unref();
});

test('loud', () => {
  if (!process.env.TESTDEX_FIXTURE_LOUD) return;
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
