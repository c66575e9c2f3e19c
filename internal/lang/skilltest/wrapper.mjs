// testdex's skill-test wrapper: node wrapper.mjs MODULE
//
// It imports MODULE, calls its default (or runTests) function and writes
// the outcome as JSON to the file named by TESTDEX_SKILLTEST_RESULT:
//   {passed, failed, errors: [string], returned, error, stack, elapsedMs}
// The file is written once (to a temporary name, then renamed), only by
// this wrapper, so nothing the module prints can be mistaken for a result;
// a missing file means the process was killed or crashed natively.
// The module's stderr writes go to stdout, so its output stays in order
// and attributed to it; the wrapper exits once stdout has drained, so
// nothing printed is lost (the core caps what it reports, keeping the
// head and the tail).
import { renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const resultPath = process.env.TESTDEX_SKILLTEST_RESULT;
const started = performance.now();
let written = false;
const realExit = process.exit;
let exitedWith; // set when the module calls process.exit

function report(doc) {
  if (written) return;
  written = true;
  doc.elapsedMs = performance.now() - started;
  writeFileSync(resultPath + '.tmp', JSON.stringify(doc));
  renameSync(resultPath + '.tmp', resultPath);
}

// finish writes the result, then exits once stdout has drained: writes to
// a pipe are asynchronous, and exiting at once would drop whatever the
// module printed past the pipe's buffer (64 KB on Linux).
function finish(doc) {
  report(doc);
  const code = doc.error || doc.failed > 0 || doc.errors?.length > 0 ? 1 : 0;
  process.stdout.write('', () => realExit.call(process, code));
}

function text(e) {
  if (typeof e === 'string') return e;
  if (e instanceof Error) return e.message;
  try { return JSON.stringify(e) ?? String(e); } catch { return String(e); }
}

function failure(prefix, e) {
  return { error: prefix + text(e), stack: e instanceof Error ? e.stack : undefined };
}

function pick(mod) {
  for (const f of [mod.default, mod.runTests, mod.default?.default, mod.default?.runTests]) {
    if (typeof f === 'function') return f;
  }
  return null;
}

function counts(result) {
  if (result === null || typeof result !== 'object') {
    return { passed: 0, failed: 0, errors: [], returned: result === null ? 'null' : typeof result };
  }
  const errors = Array.isArray(result.errors) ? result.errors.map(text) : [];
  return { passed: Number(result.passed) || 0, failed: Number(result.failed) || 0, errors };
}

process.stderr.write = process.stdout.write.bind(process.stdout);
process.on('uncaughtException', (e) => finish(failure('uncaught exception: ', e)));
process.on('unhandledRejection', (e) => finish(failure('unhandled rejection: ', e)));
process.exit = (code) => {
  exitedWith = code ?? process.exitCode ?? 0;
  return realExit.call(process, code);
};
// An exit without a result is the module calling process.exit, or node
// running out of work while the test function's promise is pending.
process.on('exit', () => report({
  error: exitedWith === undefined
    ? 'the test function never settled: its promise was pending when node ran out of work'
    : `the module ended the process (exit code ${exitedWith}) before its test function settled`,
}));

try {
  const mod = await import(pathToFileURL(process.argv[2]).href);
  const fn = pick(mod);
  if (fn) {
    finish(counts(await fn()));
  } else {
    finish({ error: 'the module exports neither a default function nor runTests (export one returning {passed, failed, errors})' });
  }
} catch (e) {
  finish(failure('', e));
}
