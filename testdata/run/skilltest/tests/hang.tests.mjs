// Hangs for five minutes when TESTDEX_FIXTURE_HANG is set (the run's
// timeout must kill it); passes at once otherwise.
export default async function () {
  if (process.env.TESTDEX_FIXTURE_HANG) {
    await new Promise((resolve) => setTimeout(resolve, 300_000));
  }
  return { passed: 1, failed: 0, errors: [] };
}
