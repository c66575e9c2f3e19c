'use strict';
// scripts/covtake_js.cjs measures what V8's precise coverage costs in a
// Mocha project's own process, apart from testdex: the CPU time of the
// run (user + system, all of the process's threads) with coverage off,
// on without takes, and on with a take at each test's start, in count
// mode (detailed: false) or block mode (detailed: true), and the CPU of
// the takes alone. docs/coverage.md's JavaScript figures came from it:
//
//   for v in none count block count-take block-take; do
//     node scripts/covtake_js.cjs DIR $v test/support/env; done
//
// DIR is the project (its spec files are DIR/test/*.js, Mocha is DIR's);
// further arguments are files to require first, relative to DIR.
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const [dir, variant = 'none', ...requires] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/covtake_js.cjs DIR none|count|block|count-take|block-take [REQUIRE...]');
  process.exit(3);
}
const session = new inspector.Session();
session.connect();
function post(method, params) {
  let out, err;
  session.post(method, params || {}, (e, r) => { err = e; out = r; });
  if (err) throw err;
  return out;
}
if (variant !== 'none') {
  post('Profiler.enable');
  post('Profiler.startPreciseCoverage', { callCount: true, detailed: variant.startsWith('block') });
}
const takes = variant.endsWith('-take');
process.chdir(dir);
const Mocha = require(path.join(path.resolve(dir), 'node_modules', 'mocha'));
for (const r of requires) require(path.resolve(r));
const mocha = new Mocha({ reporter: function () {} });
for (const f of fs.readdirSync('test').filter((f) => f.endsWith('.js'))) mocha.addFile(path.join('test', f));
let n = 0, cpu = 0;
const take = () => {
  if (!takes) return;
  const c = process.cpuUsage();
  post('Profiler.takePreciseCoverage');
  const d = process.cpuUsage(c);
  cpu += d.user + d.system;
  n++;
};
mocha.run((failures) => {
  const c = process.cpuUsage();
  console.log(JSON.stringify({ variant, failures, cpuS: (c.user + c.system) / 1e6, takes: n, takesCpuS: cpu / 1e6, perTakeMs: n ? cpu / n / 1e3 : 0 }));
}).on('test', take);
