// Blocks the event loop for five minutes when TESTDEX_FIXTURE_BUSY is set
// (no timer inside the process can fire: the per-test limit must be
// enforced from outside); passes at once otherwise.
export default function () {
  if (process.env.TESTDEX_FIXTURE_BUSY) {
    const end = Date.now() + 300_000;
    while (Date.now() < end) { /* busy */ }
  }
  return { passed: 1, failed: 0, errors: [] };
}

// recordPID appends this process's PID to the file TESTDEX_FIXTURE_PIDS
// names, when it is set (see hang.tests.mjs).
if (process.env.TESTDEX_FIXTURE_PIDS) {
  const fs = process.getBuiltinModule('node:fs');
  fs.appendFileSync(process.env.TESTDEX_FIXTURE_PIDS, process.pid + '\n');
}
