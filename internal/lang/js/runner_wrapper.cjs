'use strict';
// testdex's wrapper: runs Jest, Vitest or Mocha through its programmatic
// entry point, so that the tests see the process the project's own test
// command gives them: process.argv is [node, the framework's command,
// ...the project's own arguments], the environment is the caller's, and
// nothing of testdex is in either. testdex writes this file to the run's
// scratch folder and starts it as
//
//	node [the project's node options] testdex-run.cjs SPEC
//
// SPEC (JSON) is {fw, pkg, bin, argv, args, paths, set, coverage}: the framework and
// its package folder, the command and arguments the tests see, the
// arguments the framework gets, the files and folders to run (null: the
// project's own), and the options testdex sets (its reporter, which writes
// the results to a file it was written with, a name pattern, a timeout).
// The exit code is the framework's.
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const specText = process.argv[2];
const spec = JSON.parse(specText);
const mochaChild = process.argv[3] === '--mocha-child';
process.argv = [process.execPath, spec.bin, ...spec.argv];
// require.main is this module: it takes the command's name too, as the
// framework's bin would be the main module (code that finds its way from
// require.main.filename sees the framework's bin script).
module.filename = require('node:fs').realpathSync(spec.bin); // node resolves the main module's links
module.paths = require('node:module')._nodeModulePaths(path.dirname(module.filename));
// With coverage, the recorder (Mocha) or Jest's coverage hook starts
// before the framework loads anything, so that V8 counts the blocks of
// every file of the project (testdex run --coverage).
if (spec.coverage && spec.fw !== 'vitest') {
  const c = require(spec.coverage);
  if (c.recorder) c.recorder(spec.fw === 'mocha' ? 'counters' : undefined);
}

// jest runs jest-cli's run(argv), as jest's bin does, which sets the exit
// code (and exits itself under --forceExit).
async function jest() {
  if (process.env.NODE_ENV == null) process.env.NODE_ENV = 'test'; // as jest-cli's bin
  await require(spec.pkg).run(spec.args);
}

// vitestDrop are the options of the project's command that change only the
// output, watch, or select by git: testdex's reporter and selection
// replace them.
const vitestDrop = ['reporter', 'reporters', 'outputFile', 'watch', 'w', 'ui', 'open', 'api', 'coverage',
  'changed', 'related'];

// vitest parses the project's arguments with Vitest's own parser
// (parseCLI), replaces what testdex sets, and starts it as its CLI's run
// command does.
async function vitest() {
  const entry = require.resolve('vitest/node', { paths: [spec.pkg] });
  const { parseCLI, startVitest } = await import(pathToFileURL(entry).href);
  const { filter, options } = parseCLI(['vitest', ...spec.args]);
  for (const k of vitestDrop) delete options[k];
  if (spec.set.testNamePattern !== undefined) delete options.t;
  Object.assign(options, spec.set, { run: true, watch: false });
  let filters = filter;
  if (spec.paths) filters = spec.paths.map((p) => path.resolve(p.path) + (p.dir ? path.sep : ''));
  if (options.exclude) {
    options.cliExclude = [].concat(options.exclude);
    delete options.exclude;
  }
  if (spec.outside) options.cliExclude = [...(options.cliExclude || []), ...outsideGlobs()];
  if (filters.some((f) => f.includes(':'))) options.includeTaskLocation ??= true;
  try {
    const ctx = await startVitest('test', filters, options);
    if (!ctx.shouldKeepServer()) await ctx.exit();
  } catch (e) {
    console.error(e);
    if (process.exitCode == null) process.exitCode = 1;
    process.exit();
  }
}

// outsideGlobs are the globs excluding the symbolic links that leave the
// root (spec.outside): a folder's files, or the file.
function outsideGlobs() {
  return spec.outside.map((l) => (l.dir ? l.path + '/**' : l.path));
}

// isOutside reports whether a file lies under a link that leaves the root.
function isOutside(f) {
  const abs = path.resolve(f);
  return (spec.outside || []).some((l) => abs === path.resolve(l.path) || abs.startsWith(path.resolve(l.path) + path.sep));
}

// mochaDrop are the options of the project's command that change only the
// output or watch; mochaGrep and mochaTimeout those that testdex's own
// replace when it sets one.
const mochaDrop = ['reporter', 'R', 'reporter-option', 'reporter-options', 'O', 'watch', 'w', 'watch-files', 'watch-ignore'];
const mochaGrep = ['grep', 'g', 'fgrep', 'f', 'invert', 'i'];
const mochaTimeout = ['timeout', 't', 'timeouts'];

// mocha loads the project's options with Mocha's own loader (its command
// line, .mocharc.*, package.json), replaces what testdex sets, and runs
// lib/cli's main as Mocha's bin does, in a child node when the options
// hold node flags (as the bin does too).
async function mocha() {
  const cli = require(path.join(spec.pkg, 'lib/cli/cli.js'));
  const flags = require(path.join(spec.pkg, 'lib/cli/node-flags.js'));
  const opts = cli.loadOptions(spec.args);
  for (const k of mochaDrop) delete opts[k];
  if (spec.set.grep !== undefined) for (const k of mochaGrep) delete opts[k];
  if (spec.set.timeout !== undefined) for (const k of mochaTimeout) delete opts[k];
  Object.assign(opts, spec.set);
  if (spec.outside) opts.ignore = [...[].concat(opts.ignore || []), ...outsideGlobs()];
  if (spec.paths) opts._ = mochaSpec(cli, opts, spec.paths).filter((f) => !isOutside(f));
  const nodeKeys = Object.keys(opts).filter((k) => k !== '_' && flags.isNodeFlag(k));
  if (!mochaChild && (nodeKeys.length || opts['node-option'])) return mochaInChild(flags, opts, nodeKeys);
  for (const k of nodeKeys) delete opts[k];
  delete opts['node-option'];
  if (/mochaArgs/.test(String(cli.main))) return cli.main([], opts); // Mocha 9+ takes the loaded options
  // Older Mocha's bin hands main its options as arguments again.
  const unparse = require(require.resolve('yargs-unparser', { paths: [spec.pkg] }));
  const { aliases } = require(path.join(spec.pkg, 'lib/cli/run-option-metadata.js'));
  cli.main(unparse(opts, { alias: aliases }));
}

// mochaSpec is what Mocha runs for the selected paths: a file as is; a
// folder as the files of the project's own spec under it (Mocha reads a
// folder argument without its subfolders), or the folder when it has none.
function mochaSpec(cli, opts, paths) {
  const lookupFiles = cli.lookupFiles || require(path.join(spec.pkg, 'lib/cli/lookup-files.js'));
  const out = [];
  const specs = opts._ && opts._.length ? opts._ : ['./test'];
  for (const p of paths) {
    if (!p.dir) {
      out.push(p.path);
      continue;
    }
    const root = path.resolve(p.path) + path.sep;
    const found = [];
    for (const s of specs) {
      try {
        for (const f of [].concat(lookupFiles(s, opts.extension || [], opts.recursive))) {
          if (path.resolve(f).startsWith(root)) found.push(path.resolve(f));
        }
      } catch (e) {
        // a spec that matches nothing: Mocha says so when it is the only one
      }
    }
    out.push(...(found.length ? found : [p.path]));
  }
  return [...new Set(out)];
}

// mochaInChild runs this wrapper again under node with the options' node
// flags, as Mocha's bin runs lib/cli/cli.js, and passes its exit on.
function mochaInChild(flags, opts, nodeKeys) {
  const { spawn } = require('node:child_process');
  const nodeArgs = {};
  for (const k of nodeKeys) nodeArgs[k.replace(/^v8-(?!options$)/, '')] = opts[k];
  const nodeArgv = opts['node-option'] ? opts['node-option'].map((v) => '--' + v) : flags.unparseNodeFlags(nodeArgs);
  const child = spawn(process.execPath, [...nodeArgv, __filename, specText, '--mocha-child'], { stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code;
  });
}

const run = { jest, vitest, mocha }[spec.fw];
run().catch((e) => {
  console.error((e && e.stack) || e);
  process.exitCode = 1;
});
