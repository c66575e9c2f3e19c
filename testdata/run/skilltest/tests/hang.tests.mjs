// Hangs for five minutes when TESTDEX_FIXTURE_HANG is set (the run's
// timeout must kill it); passes at once otherwise.
export default async function () {
  if (process.env.TESTDEX_FIXTURE_HANG) {
    await new Promise((resolve) => setTimeout(resolve, 300_000));
  }
  return { passed: 1, failed: 0, errors: [] };
}

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
