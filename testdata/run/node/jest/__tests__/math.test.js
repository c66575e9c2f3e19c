// The run fixture for Jest: tests that pass, fail, skip, and (opt-in
// through TESTDEX_FIXTURE_HANG, _LEAK and _LOUD) hang, leak a child
// process and print megabytes. Without the variables those pass at once.
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

test('hang', () => {
  if (!process.env.TESTDEX_FIXTURE_HANG) return undefined;
  return new Promise(() => {});
}, 3600000);

test('leak', () => {
  if (!process.env.TESTDEX_FIXTURE_LEAK) return;
  spawn('sleep', ['311'], { stdio: 'ignore' }).unref();
});

test('loud', () => {
  if (!process.env.TESTDEX_FIXTURE_LOUD) return;
  const line = 'x'.repeat(1023) + '\n';
  for (let i = 0; i < 2048; i++) process.stdout.write(line);
});
