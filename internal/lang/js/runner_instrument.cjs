'use strict';
// The counting recorder of testdex run --coverage (JavaScript): instead
// of V8's precise coverage, whose every take walks every function the
// process compiled, each of the project's files is instrumented as it
// loads, with a counter per function set at its entry, in a Uint8Array
// per file: CommonJS through Module.prototype._compile, ES modules
// through node's module.register loader hooks, Jest's files as its
// transformers return them, Vitest's as vite-node runs them. A take reads
// the files' arrays (indexOf(1)) and clears those that ran: it costs what
// the test touched, not the process's world.
//
// This text follows runner_coverage.cjs in the recorder file and uses its
// helpers. Functions are found by acorn (vendored, testdexAcorn). Each
// function's lines are told at load, as the V8 recorder tells them at a
// take: the lines holding code in the function's range less the ranges
// of the functions inside it (V8's ranges: a declaration from its
// 'function' or 'async', a method from its name or its get, set, async
// or '*', an arrow from its parameters), through the script's source map
// if it has one. A class is a function as V8 has it: V8 counts its
// instance field initializers as one function, whose range is the
// class's (none without instance fields), so a class with instance fields
// counts at each construction (the counter is set in its first field's
// value), and the lines of a class without them go with the function
// around it; its static blocks and static fields' values count where the
// class is defined. The counter is set at the body's start, after its
// directives, and in each default value of the parameters before it runs:
// a function whose parameters threw (a default's call) still counts.
// Where a function resumes (after an await or a yield, at each turn of a
// for await), its counter is set again: V8 counts a resumption as a call,
// so a window that resumed a function holds its lines. Not counted: a
// function whose parameter destructuring throws before any default runs
// (a null where an object pattern is), and a generator's call (V8 counts
// it; its body runs at its first next()).
//
// The instrumented code keeps the file's lines (counters go inside
// lines): stack traces keep their line numbers, and their columns move
// on the lines that have a function's start.

const counterKey = Symbol.for('testdex.coverage.counters');

let acornParser = null;
let lastSrc = ''; // the source being instrumented

// parse parses a script (CommonJS, vite-node's wrapped module) or a
// module (ESM, esm === true) with acorn.
function parse(src, esm) {
  if (!acornParser) acornParser = require(testdexAcorn);
  return acornParser.parse(src, {
    ecmaVersion: 'latest', sourceType: esm === true ? 'module' : 'script', allowHashBang: true,
    allowReturnOutsideFunction: esm !== true, allowAwaitOutsideFunction: esm !== true,
  });
}

// viteBody is the block vite-node's wrapper ('use strict';async
// (...)=>{{ module }}) puts a module's code in, and the wrapper's arrow;
// null when src is not so wrapped.
function viteBody(ast) {
  const st = ast.body[ast.body.length - 1];
  const arrow = st && st.type === 'ExpressionStatement' && st.expression.type === 'ArrowFunctionExpression' ? st.expression : null;
  const inner = arrow && arrow.body.type === 'BlockStatement' && arrow.body.body[0];
  return inner && inner.type === 'BlockStatement' ? { arrow, inner } : null;
}

// instrument is instrumentCode through the cache folder (testdexCache,
// when there is one): the instrumented code of a file's source is kept
// under the hash of the project folder, the file's path, its kind and its
// source, so that a later run neither loads acorn nor parses what did not
// change (express's 141 files: 0.9 s of a cold parser).
function instrument(src, file, esm) {
  if (!testdexCache || !instrumentable(file)) return instrumentCode(src, file, esm);
  const hash = require('node:crypto').createHash('sha1')
    .update(`${testdexProject}\0${file}\0${esm}\0`).update(src).digest('hex');
  const entry = path.join(testdexCache, hash + '.js');
  try {
    return { code: fs.readFileSync(entry, 'utf8') };
  } catch (e) {
    // not cached yet
  }
  const out = instrumentCode(src, file, esm);
  if (out && out.code) {
    const tmp = `${entry}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(testdexCache, { recursive: true });
      fs.writeFileSync(tmp, out.code);
      fs.renameSync(tmp, entry);
    } catch (e) {
      try { fs.unlinkSync(tmp); } catch (e2) { /* gone */ }
    }
  }
  return out;
}

// instrumentCode returns the code to run for a file: null when it is not
// the project's (nor maps to it), {broken} when it cannot be parsed, else
// {code}: its source with counters. esm is true for an ES module, 'vite'
// for vite-node's wrapped module (whose wrapper is its top level).
function instrumentCode(src, file, esm) {
  const own = instrumentable(file);
  if (!own) return null;
  const map = sourceMap(src, own);
  if (!map && !inProject(own)) return null;
  let ast;
  lastSrc = src;
  try {
    ast = parse(src, esm);
  } catch (e) {
    return { broken: `${own}: ${e.message}` };
  }
  const vite = esm === 'vite' ? viteBody(ast) : null;
  if (esm === 'vite' && !vite) return { broken: `${own}: not in vite-node's module wrapper` };
  const fns = [{ start: 0, end: src.length, node: vite && vite.arrow, resumes: [] }];
  walk(ast, null, fns, fns[0]);
  fns.sort((a, b) => a.start - b.start || b.end - a.end);
  const s = { file: own, src, lines: lineStarts(src), map };
  const table = { f: [], k: [] };
  if (!map && !sameLines(src, own)) table.u = own; // its lines cannot be told: never guessed
  else tableLines(s, fns, table);
  const edits = [];
  for (let k = 0; k < fns.length; k++) {
    if (k > 0) counterEdits(fns[k].node, k, edits);
    for (const r of fns[k].resumes) resumeEdits(r, k, edits);
  }
  const at = vite ? vite.inner.start + 1 : prefixAt(ast, src);
  return { code: applyEdits(src, at, prelude(table, fns.length, own), edits) };
}

// instrumentable is the file a script's lines are read from, when it may
// be the project's: '' for a dependency's, and for testdex's own files.
function instrumentable(file) {
  const own = ownFile(file);
  return own.startsWith(path.dirname(testdexAcorn) + path.sep) ? '' : own;
}

// walk collects the functions under node in source order, with their
// ranges as V8 gives them, and the points where each resumes (an await,
// a yield, a for await's body) in cur's resumes.
function walk(node, parent, fns, cur) {
  if (node === fns[0].node) {
    // the top level's own node (vite-node's wrapper): not a function of its own
  } else if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression') {
    cur = { start: rangeStart(node, parent), end: node.end, node, resumes: [] };
    fns.push(cur);
  } else if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
    const field = node.body.body.find((m) => m.type === 'PropertyDefinition' && !m.static);
    if (field) fns.push({ start: node.start, end: node.end, node: field, resumes: [] });
  } else if (node.type === 'StaticBlock' || (node.type === 'PropertyDefinition' && node.static && node.value)) {
    fns.push({ start: node.start, end: node.end, node, resumes: [] });
  } else if (node.type === 'AwaitExpression' || node.type === 'YieldExpression' || (node.type === 'ForOfStatement' && node.await)) {
    cur.resumes.push(node);
  }
  for (const key in node) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    const v = node[key];
    if (Array.isArray(v)) {
      for (const c of v) if (c && typeof c.type === 'string') walk(c, node, fns, cur);
    } else if (v && typeof v.type === 'string') walk(v, node, fns, cur);
  }
}

// rangeStart is where V8's range of a function starts, or later (a later
// start only gives its first line to the function around it as well).
function rangeStart(fn, parent) {
  const method = parent && parent.value === fn &&
    (parent.type === 'MethodDefinition' || (parent.type === 'Property' && (parent.method || parent.kind !== 'init')));
  if (!method) return fn.start;
  return parent.static || parent.computed ? parent.key.start : parent.start;
}

// tableLines sets table.k[k] to the lines of function k that hold code
// outside the functions inside it: [file index, count, line...]...
function tableLines(s, fns, table) {
  const files = new Map();
  const stack = [];
  const own = fns.map(() => []);
  let pos = 0;
  const cut = (end) => {
    if (end > pos) own[stack[stack.length - 1]].push([pos, end]);
    if (end > pos) pos = end;
  };
  for (let k = 0; k < fns.length; k++) {
    while (stack.length && fns[stack[stack.length - 1]].end <= fns[k].start) {
      cut(fns[stack[stack.length - 1]].end);
      stack.pop();
    }
    if (stack.length) cut(fns[k].start);
    pos = Math.max(pos, fns[k].start);
    stack.push(k);
  }
  while (stack.length) {
    cut(fns[stack[stack.length - 1]].end);
    stack.pop();
  }
  for (let k = 0; k < fns.length; k++) {
    const out = new Map();
    if (own[k].length) {
      if (s.map) addMapped(out, s, own[k]);
      else addPlain(out, s, own[k]);
    }
    const row = [];
    for (const [file, set] of out) {
      if (!files.has(file)) files.set(file, files.size);
      row.push(files.get(file), set.size, ...set);
    }
    table.k.push(row);
  }
  table.f = [...files.keys()];
}

// counterEdits adds the insertions that set counter k at a function's
// entry: after its body's directives (an arrow's expression body becomes
// (counter, body)), and before each default value of its parameters.
function counterEdits(fn, k, edits) {
  const c = `(__tdxc||__tdxi())[${k}]=1`;
  if (fn.type === 'PropertyDefinition') return fieldEdits(fn, c, edits);
  if (fn.type === 'StaticBlock') return edits.push([fn.start + lastSrc.slice(fn.start).indexOf('{') + 1, 1, `;${c};`]);
  for (const p of fn.params) defaults(p, c, edits);
  if (fn.body.type !== 'BlockStatement') {
    edits.push([fn.body.start, 1, `(${c},`], [fn.body.end, 0, ')']);
    return;
  }
  let at = fn.body.start + 1;
  for (const st of fn.body.body) {
    if (st.directive === undefined) break;
    at = st.end;
  }
  edits.push([at, 1, `;${c};`]);
}

// resumeEdits sets counter k again where a function resumes, as V8
// counts a resumption as a call: after an await or a yield (wrapped in
// __tdxr(k, ...), which returns its value), at each body of a for await.
function resumeEdits(r, k, edits) {
  if (r.type !== 'ForOfStatement') {
    edits.push([r.start, 1, `__tdxr(${k},`], [r.end, 0, ')']);
  } else if (r.body.type === 'BlockStatement') {
    edits.push([r.body.start + 1, 1, `;(__tdxc||__tdxi())[${k}]=1;`]);
  } else {
    edits.push([r.body.start, 1, `{(__tdxc||__tdxi())[${k}]=1;`], [r.body.end, 0, '}']);
  }
}

// fieldEdits sets a class's counter in its first instance field's value,
// which runs at each construction before the others.
function fieldEdits(field, c, edits) {
  if (field.value) {
    edits.push([field.value.start, 1, `(${c},`], [field.value.end, 0, ')']);
    return;
  }
  const at = field.computed ? field.key.end + 1 + lastSrc.slice(field.key.end).indexOf(']') : field.key.end;
  edits.push([at, 1, `=(${c},void 0)`]);
}

// defaults wraps the default values in a parameter's pattern.
function defaults(p, c, edits) {
  if (!p) return;
  switch (p.type) {
    case 'AssignmentPattern':
      edits.push([p.right.start, 1, `(${c},`], [p.right.end, 0, ')']);
      defaults(p.left, c, edits);
      break;
    case 'ObjectPattern':
      for (const q of p.properties) defaults(q.type === 'RestElement' ? q.argument : q.value, c, edits);
      break;
    case 'ArrayPattern':
      for (const q of p.elements) defaults(q, c, edits);
      break;
    case 'RestElement':
      defaults(p.argument, c, edits);
      break;
  }
}

// prefixAt is where the prelude goes: after the program's directives
// (a 'use strict' must stay first), or after a hashbang line.
function prefixAt(ast, src) {
  let at = 0;
  if (src.startsWith('#!')) {
    const nl = src.indexOf('\n');
    at = nl < 0 ? src.length : nl + 1;
  }
  for (const st of ast.body) {
    if (st.directive === undefined) break;
    at = st.end;
  }
  return at;
}

// prelude declares the file's counters: __tdxi, a hoisted function (a
// function of an ESM module can run before its module's body, through a
// cycle of imports), registers the file with the recorder on first use.
// The top level (0) counts at once. Registering names the file, which
// the recorder's expect checks.
function prelude(table, n, file) {
  const t = JSON.stringify(JSON.stringify(table));
  return `;var __tdxc;function __tdxi(){var r=globalThis[Symbol.for('testdex.coverage.counters')];` +
    `return __tdxc=r?r(${t},${n},${JSON.stringify(file)}):new Uint8Array(${n})}function __tdxr(k,v){(__tdxc||__tdxi())[k]=1;return v}` +
    `(__tdxc||__tdxi())[0]=1;`;
}

// applyEdits inserts the prelude and the edits ([offset, order, text];
// at one offset, closings before openings).
function applyEdits(src, at, pre, edits) {
  edits.push([at, 2, pre]);
  edits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let out = '', pos = 0;
  for (const [off, , text] of edits) {
    out += src.slice(pos, off) + text;
    pos = off;
  }
  return out + src.slice(pos);
}

// addPlain adds the lines with code (not only white space) of segments
// [start, end) of a script without a source map.
function addPlain(out, s, segs) {
  let set = out.get(s.file);
  if (!set) out.set(s.file, (set = new Set()));
  for (const [a, b] of segs) {
    for (let l = lineAt(s.lines, a); l < s.lines.length && s.lines[l] < b; l++) {
      const from = Math.max(a, s.lines[l]);
      const to = Math.min(b, l + 1 < s.lines.length ? s.lines[l + 1] : s.src.length);
      if (/\S/.test(s.src.slice(from, to))) set.add(l + 1);
    }
  }
  if (!set.size) out.delete(s.file);
}

// tableScope makes the tables' ids unique in the events file, which the
// processes of a run, and the threads of a process, append to: a process
// that reuses an ended one's pid writes each table before using it.
let tableScope = '';

// Counters is the counting recorder (see Recorder for the buckets).
class Counters extends Recorder {
  constructor() {
    super();
    this.counted = []; // {c: Uint8Array, table (JSON text), id (once written)}
    this.tables = 0;
    this.broken = '';
    const byTable = new Map(); // one array per file, however many module instances run it
    this.seen = new Set(); // the files whose counters run
    const reg = (table, n, file) => {
      this.seen.add(file);
      let f = byTable.get(table);
      if (!f) {
        f = { c: new Uint8Array(n), table };
        byTable.set(table, f);
        this.counted.push(f);
      }
      return f.c;
    };
    this.reg = reg;
    this.memo = new Map(); // transformed code -> its instrumented code (Jest)
    Object.defineProperty(globalThis, counterKey, { value: reg });
    const broken = (why) => this.markBroken(why);
    Object.defineProperty(reg, 'broken', { value: broken });
    this.hookRequire();
    this.hookImport();
    for (const file of Object.keys(require.cache)) {
      if (inProject(instrumentable(file))) this.markBroken(`${file} loaded before the recorder`);
    }
  }

  // hookRequire instruments the project's CommonJS files as they compile
  // (after any transform registered through require.extensions: ts-node's,
  // Babel's, pirates').
  hookRequire() {
    const Module = require('node:module');
    const compile = Module.prototype._compile;
    const rec = this;
    Module.prototype._compile = function (content, filename) {
      if (typeof content === 'string' && typeof filename === 'string') {
        const out = instrument(content, filename, false);
        if (out && out.broken) rec.markBroken(out.broken);
        else if (out) content = out.code;
      }
      return compile.call(this, content, filename);
    };
  }

  // hookImport registers the loader hooks (testdexHooks) that instrument
  // the project's ES modules, unless none of its files can run as one
  // (testdexModules, from testdex's look at the project): the hooks'
  // thread costs a process more CPU than the rest of the recorder.
  hookImport() {
    const Module = require('node:module');
    if (typeof Module.register !== 'function' || !needHooks()) return;
    Module.register(require('node:url').pathToFileURL(testdexHooks).href, { data: { recorder: __filename } });
  }

  // hookContexts gives the recorder's registry to the vm contexts Jest
  // runs modules in (Jest 29 runs a vm.Script in it, Jest 30 compiles a
  // function with it as parsingContext), before their code runs.
  hookContexts() {
    const vm = require('node:vm');
    const reg = this.reg;
    const put = (ctx) => {
      if (!ctx || typeof ctx !== 'object' || Object.prototype.hasOwnProperty.call(ctx, counterKey)) return;
      try {
        Object.defineProperty(ctx, counterKey, { value: reg });
      } catch (e) {
        this.markBroken(`a vm context refused the counters (${e.message})`);
      }
    };
    const run = vm.Script.prototype.runInContext;
    vm.Script.prototype.runInContext = function (ctx) { put(ctx); return run.apply(this, arguments); };
    const compile = vm.compileFunction;
    vm.compileFunction = function (code, params, o) { put(o && o.parsingContext); return compile.apply(this, arguments); };
  }

  // jestTransform returns @jest/transform's exports with
  // createScriptTransformer wrapped: what each transformer returns for a
  // file of the project runs instrumented (an ES module, which Jest links
  // in a vm module, is not: it marks the takes incomplete).
  jestTransform(m) {
    if (!m || typeof m.createScriptTransformer !== 'function') return m;
    const create = m.createScriptTransformer;
    const rec = this;
    const wrapped = async function () {
      const t = await create.apply(this, arguments);
      for (const name of ['transform', 'transformAsync']) {
        const orig = t[name];
        if (typeof orig !== 'function') continue;
        t[name] = function (filename, options) {
          const r = orig.apply(this, arguments);
          return r && typeof r.then === 'function' ? r.then((v) => rec.jestResult(v, filename, options)) : rec.jestResult(r, filename, options);
        };
      }
      return t;
    };
    return new Proxy(m, { get: (target, p) => (p === 'createScriptTransformer' ? wrapped : target[p]) });
  }

  // jestResult instruments a transformer's result (once per code).
  jestResult(r, filename, options) {
    if (!r || typeof r.code !== 'string' || typeof filename !== 'string') return r;
    let out = this.memo.get(r.code);
    if (out === undefined) {
      const esm = !!(options && options.supportsStaticESM);
      out = esm ? (inProject(instrumentable(filename)) ? { broken: `${filename}: Jest runs it as an ES module` } : null) : instrument(r.code, filename, false);
      this.memo.set(r.code, out);
    }
    if (out && out.broken) this.markBroken(out.broken);
    return out && !out.broken ? { ...r, code: out.code } : r;
  }

  // expect checks that a test file runs with counters (its top level
  // registered them): a module system that bypassed the recorder's hooks
  // would run the project's code uncounted, and the takes are then marked
  // incomplete rather than short.
  expect(file) {
    if (!file || this.broken || this.seen.has(file)) return;
    let real = file;
    try {
      real = fs.realpathSync(file);
    } catch (e) {
      // judged by its name
    }
    if (this.seen.has(real) || !inProject(instrumentable(real))) return;
    this.markBroken(`${file} ran without counters`);
  }

  // hookVitest instruments the modules vite-node runs in this realm
  // (vm.runInThisContext of its wrapped, transformed code with an inline
  // source map; Vitest's vm pools run them elsewhere and keep V8's takes).
  hookVitest() {
    const vm = require('node:vm');
    const run = vm.runInThisContext;
    const rec = this;
    vm.runInThisContext = function (code, o) {
      const file = o && typeof o === 'object' ? o.filename : undefined;
      if (typeof code === 'string' && typeof file === 'string') {
        let out = rec.memo.get(code);
        if (out === undefined) rec.memo.set(code, (out = instrument(code, file, 'vite')));
        if (out && out.broken) rec.markBroken(out.broken);
        else if (out) arguments[0] = out.code;
      }
      return run.apply(this, arguments);
    };
  }

  // markBroken notes a file of the project that runs without counters:
  // from now on no take is complete.
  markBroken(why) {
    if (!this.broken) this.note(`a file of the project could not be instrumented for coverage, so the tests that ran after it loaded record nothing (TESTDEX_JS_COVERAGE=v8 records with V8's coverage instead): ${why}`);
    this.broken = why;
  }

  // take returns the functions entered since the previous take (a Set
  // of their indices per file's entry in counted), and clears their
  // counters.
  take() {
    const out = new Map();
    if (this.broken) out.unmapped = true;
    for (const f of this.counted) {
      const c = f.c;
      let k = c.indexOf(1);
      if (k < 0) continue;
      const set = new Set();
      for (; k >= 0; k = c.indexOf(1, k + 1)) set.add(k);
      out.set(f, set);
      c.fill(0);
    }
    return out;
  }

  // lines is a bucket as an event's fns, each file's table written
  // before its first use (its lines and whether they can be told are
  // testdex's to read).
  lines(bucket) {
    const fns = {};
    for (const [f, set] of bucket) {
      if (f.id === undefined) {
        if (!tableScope) tableScope = `${process.pid}.${require('node:worker_threads').threadId}`;
        f.id = `${tableScope}.${this.tables++}`;
        emit(`{"a":"covtab","id":"${f.id}","t":${f.table}}`);
      }
      fns[f.id] = [...set];
    }
    return { fns };
  }
}

// needHooks reports whether ES modules of the project may run: unless
// testdex found none ('no'), or found TypeScript ones only ('ts') and node
// does not run TypeScript itself; and whatever it found when node's
// options make files without a type ES modules.
function needHooks() {
  const args = [...process.execArgv, ...String(process.env.NODE_OPTIONS || '').split(/\s+/)];
  if (args.some((a) => /default-type/.test(a))) return true;
  if (testdexModules === 'no') return false;
  if (testdexModules !== 'ts') return true;
  return !!(process.features && process.features.typescript) || args.some((a) => /-types\b/.test(a));
}

// wantCounters reports whether a process asking for counters gets them:
// not under TESTDEX_JS_COVERAGE=v8, nor where another loader transforms
// ES modules (--import, --loader: its hooks, registered after testdex's,
// would run first and hand them TypeScript or the like), nor without
// node's module.register (Node before 20.6: ES modules would run
// uncounted), nor for Jest's ES modules (--experimental-vm-modules: Jest
// links them in vm modules, which are not instrumented).
function wantCounters(mode) {
  if (process.env.TESTDEX_JS_COVERAGE === 'v8') return false;
  if (typeof require('node:module').register !== 'function') return false;
  const args = [...process.execArgv, ...String(process.env.NODE_OPTIONS || '').split(/\s+/)];
  if (mode === 'jest' && args.some((a) => /^--experimental-vm-modules\b/.test(a))) return false;
  return !args.some((a) => /^--(import|loader|experimental-loader)\b/.test(a));
}

// recorder returns the process's recorder, started on first use: the
// counting one when mode is 'counters', 'jest' or 'vitest' (whose setup
// file runs in this realm: realm is its globalThis), and wantCounters;
// else V8's. Under 'jest', Jest's vm contexts see its counters; under
// 'vitest', vite-node's modules are instrumented.
function recorder(mode, realm) {
  if (!process[key]) {
    const counts = (mode === 'counters' || mode === 'jest' || (mode === 'vitest' && realm === globalThis)) && wantCounters(mode);
    const rec = counts ? new Counters() : new V8Recorder();
    if (mode === 'jest' && rec.hookContexts) rec.hookContexts();
    if (mode === 'vitest' && rec.hookVitest) rec.hookVitest();
    Object.defineProperty(process, key, { value: rec });
  }
  return process[key];
}

module.exports = { recorder, executedSegments, decodeMappings, instrument };
