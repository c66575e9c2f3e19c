'use strict';
// testdex's coverage recorder (testdex run --coverage): V8's precise block
// coverage of the process it is loaded in, taken between tests and written
// to the command's events file as lines of the project's files. testdex
// writes it to the run's scratch folder with two constants before this
// text, testdexEvents (the events file) and testdexProject (the project's
// real folder), and loads it in the process that runs the tests: the
// wrapper (Mocha, Jest in band), a node:test child (--require), a Vitest
// worker (through a setup file). One recorder per process, whichever
// copy of this module loads first (process[key]).
//
// It talks to V8 through node:inspector on the process's own thread, where
// every command answers before post returns: Profiler.startPreciseCoverage
// with call counts per function (detailed: false), then
// Profiler.takePreciseCoverage, which returns what ran since the previous
// take (the functions that ran and the uncalled functions inside them) and
// resets the counts. Function counts, not blocks: a function that ran
// counts whole but for the functions inside it that did not, so a test
// holds the lines of the branches it did not take too (more lines, never
// fewer). Blocks cost a third more to run and twice as much per take, and
// lose the calls of a function inlined into optimized code (V8 counts
// those in count mode, not in block mode). A take costs what V8's walk of
// every function the process compiled costs (node's own, the runner's,
// the dependencies'), whatever ran, so the runners' hooks take once per
// test. The source V8
// ran (Debugger.getScriptSource: the file, or a runner's transformed code
// with its wrapper) turns byte ranges into lines; an inline or adjacent
// source map (TypeScript, Babel, Vite) maps them to the original file.
//
// Events: {a: 'cov', file, titles, cov} is one test's coverage; without
// titles, the coverage of code run outside the tests of a file (its
// loading, its beforeAll and afterAll hooks), which the parser gives every
// test of the file; without file, that of the whole process. cov maps an
// absolute file to its executed line spans [[start, end], ...], 1-based.
// The counting recorder (runner_instrument.cjs) says fns instead of cov:
// {table: [k...]}, the functions k entered of the files whose line
// tables a {a: 'covtab', id, t} event gave before (t: {f: files, k: per
// function [file index, count, line...]..., u: a file whose lines cannot
// be told}); testdex turns them into lines, once per distinct set.
// Events are written in batches (at each flush, at exit, and when many
// wait), as one append each.
// {a: 'covnote', msg} says why coverage is missing or partial;
// {a: 'covnote', nomap: file}, that a file of the project ran as code
// transformed without a source map, whose lines cannot be told: a cov
// event whose window ran such code says unmapped: true, and the parser
// records nothing for its tests.
const fs = require('node:fs');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

const key = Symbol.for('testdex.coverage');

// unmapped stands for a script of the project whose lines cannot be told
// (transformed without a source map): what ran of it is dropped, and the
// take that ran it is marked unmapped, so that no test claims to have
// executed all it did when it did not.
const unmapped = { unmapped: true };

function post(session, method, params) {
  let out, err;
  session.post(method, params || {}, (e, r) => { err = e; out = r; });
  if (err) throw err;
  return out;
}

// Recorder holds the buckets of what ran and cuts them with its
// subclass's take: V8Recorder's (V8's precise coverage) or Counters'
// (runner_instrument.cjs).
class Recorder {
  constructor() {
    this.files = new Map(); // test file -> coverage run outside its tests
    this.process = new Map(); // coverage run outside any file's tests
  }

  // add adds lines taken to a bucket.
  add(bucket, lines) {
    if (lines.unmapped) bucket.unmapped = true;
    for (const [file, set] of lines) {
      const have = bucket.get(file);
      if (have) for (const l of set) have.add(l);
      else bucket.set(file, set);
    }
  }

  // outside adds what ran since the previous take to a test file's
  // bucket (the process's when file is empty).
  outside(file) {
    const lines = this.take();
    if (!file) return this.add(this.process, lines);
    if (!this.files.has(file)) this.files.set(file, new Map());
    this.add(this.files.get(file), lines);
  }

  // expect checks that a test file's code is recorded (see Counters).
  expect() {}

  // note says why coverage is missing or partial (see lang.ActionCovered).
  note(msg) { emit({ a: 'covnote', msg }); }

  // test writes what ran since the previous take as one test's coverage.
  test(file, titles) { this.emitTest(file, titles, this.take()); }

  // emitTest writes a bucket as one test's coverage.
  emitTest(file, titles, bucket) { emit({ a: 'cov', file, titles, ...this.lines(bucket), unmapped: bucket.unmapped }); }

  // lines is a bucket as an event's lines: {cov} (V8Recorder's buckets
  // hold files' lines; Counters says fns).
  lines(bucket) { return { cov: spans(bucket) }; }

  // flush writes the buckets of code run outside the tests, and every
  // event not written yet.
  flush() {
    for (const [file, b] of this.files) if (b.size || b.unmapped) emit({ a: 'cov', file, ...this.lines(b), unmapped: b.unmapped });
    if (this.process.size || this.process.unmapped) emit({ a: 'cov', ...this.lines(this.process), unmapped: this.process.unmapped });
    this.files.clear();
    this.process = new Map();
    drain();
  }
}

// V8Recorder takes V8's precise coverage (Jest's and Vitest's processes,
// which run the project's code through their own module systems).
class V8Recorder extends Recorder {
  constructor() {
    super();
    this.session = new (require('node:inspector').Session)();
    this.session.connect();
    post(this.session, 'Profiler.enable');
    post(this.session, 'Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    post(this.session, 'Debugger.enable');
    this.scripts = new Map(); // scriptId -> script info, or null when not the project's
  }

  // take returns what ran since the previous take: file -> Set of lines.
  take() {
    const out = new Map();
    const { result } = post(this.session, 'Profiler.takePreciseCoverage');
    for (const sc of result) {
      if (!sc.functions.some((f) => f.ranges[0].count > 0)) continue;
      const s = this.script(sc);
      if (s === unmapped) out.unmapped = true;
      else if (s) addLines(out, s, sc.functions);
    }
    return out;
  }

  // script reads a script's source and source map once.
  script(sc) {
    if (this.scripts.has(sc.scriptId)) return this.scripts.get(sc.scriptId);
    let s = null;
    const file = ownFile(fileOf(sc.url));
    if (file) {
      try {
        const src = post(this.session, 'Debugger.getScriptSource', { scriptId: sc.scriptId }).scriptSource;
        s = { file, src, lines: lineStarts(src), map: sourceMap(src, file) };
        if (!s.map && !inProject(file)) s = null;
        else if (!s.map && !sameLines(src, file)) {
          emit({ a: 'covnote', nomap: file }); // its lines cannot be told: never guessed
          s = unmapped;
        }
      } catch (e) {
        s = null;
      }
    }
    this.scripts.set(sc.scriptId, s);
    return s;
  }
}

// emit writes an event (an object, or its JSON text) to the events file:
// at the next drain, which comes at each flush, at exit, and when 1 MB
// waits.
let pending = [];
let pendingSize = 0;
let exiting = false; // the exit's drain ran: later events are written at once
function emit(o) {
  const line = typeof o === 'string' ? o : JSON.stringify(o);
  if (exiting) return fs.appendFileSync(testdexEvents, line + '\n');
  if (!emit.hooked) {
    emit.hooked = true;
    process.on('exit', () => { exiting = true; drain(); });
  }
  pending.push(line);
  pendingSize += line.length;
  if (pendingSize > 1 << 20) drain();
}

// drain writes the events waiting, in one append.
function drain() {
  if (!pending.length) return;
  const text = pending.join('\n') + '\n';
  pending = [];
  pendingSize = 0;
  fs.appendFileSync(testdexEvents, text);
}

// inProject reports whether file is the project's: under its folder and
// under no node_modules folder inside it (the folder itself may be under
// one).
function inProject(file) {
  return file.startsWith(testdexProject + path.sep) && !underModules(file.slice(testdexProject.length));
}

function underModules(file) { return file.includes(`${path.sep}node_modules${path.sep}`); }

// ownFile is the file a script's source is read from: file, or its real
// path when a node_modules entry links to the project (a workspace's
// package under --preserve-symlinks); '' for a dependency's file.
function ownFile(file) {
  if (!file || inProject(file) || !underModules(file)) return file;
  try {
    const real = fs.realpathSync(file);
    return inProject(real) ? real : '';
  } catch (e) {
    return '';
  }
}

// fileOf is a script's file: its file: URL or absolute path; '' for
// node's own modules, eval'd code and the like.
function fileOf(url) {
  if (url.startsWith('file:')) {
    try {
      return fileURLToPath(url.replace(/[?#].*$/, ''));
    } catch (e) {
      return '';
    }
  }
  return path.isAbsolute(url) ? url : '';
}

// sameLines reports whether the source V8 ran keeps the lines of the
// file on disk where they are: the file itself, behind a runner's wrapper
// on its first line (Jest's, vite-node's), or changed within its lines
// only (types blanked out). Code a transformer rewrote without a source
// map has no way back to the file's lines: its lines are not recorded.
function sameLines(src, file) {
  let disk;
  try {
    disk = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return false;
  }
  if (disk.charCodeAt(0) === 0xfeff) disk = disk.slice(1); // node drops the BOM
  const w = wrappers.map((re) => re.exec(src)).find(Boolean);
  const body = w ? src.slice(w[0].length) : src;
  if (body.length < disk.length) return false;
  for (let i = 0; i < disk.length; i++) {
    if ((disk.charCodeAt(i) === 10) !== (body.charCodeAt(i) === 10)) return false;
  }
  return true;
}

function lineStarts(src) {
  const out = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

// lineAt is the 0-based line of offset off.
function lineAt(starts, off) {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= off) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// executedSegments turns V8's ranges (nested, of the functions that ran
// and the uncalled ones inside them; blocks too in block mode) into the
// offsets [start, end) whose innermost range ran: an uncalled function (or
// a block not taken) inside a function that ran is cut out of it.
function executedSegments(functions) {
  const ranges = [];
  for (const f of functions) for (const r of f.ranges) ranges.push(r);
  ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  const segs = [];
  const stack = [];
  let pos = 0;
  const out = (end, count) => {
    if (end > pos && count > 0) {
      const last = segs[segs.length - 1];
      if (last && last[1] === pos) last[1] = end;
      else segs.push([pos, end]);
    }
    if (end > pos) pos = end;
  };
  for (const r of ranges) {
    while (stack.length && stack[stack.length - 1].endOffset <= r.startOffset) {
      const top = stack.pop();
      out(top.endOffset, top.count);
    }
    if (stack.length) out(r.startOffset, stack[stack.length - 1].count);
    pos = Math.max(pos, r.startOffset);
    const end = stack.length ? Math.min(r.endOffset, stack[stack.length - 1].endOffset) : r.endOffset;
    stack.push({ endOffset: end, count: r.count });
  }
  while (stack.length) {
    const top = stack.pop();
    out(top.endOffset, top.count);
  }
  return segs;
}

// addLines adds the lines of a script that ran to out: the lines with
// code (not only white space) in an executed segment, or, through the
// script's source map, the original lines whose mappings start in one.
function addLines(out, s, functions) {
  const segs = executedSegments(functions);
  if (!segs.length) return;
  if (s.map) return addMapped(out, s, segs);
  addPlain(out, s, segs);
}

function addMapped(out, s, segs) {
  const { lines, sources, prefix } = s.map;
  for (const [a, b] of segs) {
    for (let l = lineAt(s.lines, a); l < lines.length && l < s.lines.length && s.lines[l] < b; l++) {
      const base = s.lines[l] + (l === 0 ? prefix : 0);
      for (const m of lines[l]) {
        const off = base + m[0];
        if (off < a || off >= b) continue;
        const file = sources[m[1]];
        if (!file) continue;
        let set = out.get(file);
        if (!set) out.set(file, (set = new Set()));
        set.add(m[2] + 1);
      }
    }
  }
}

// wrappers are the code runners put before a module's transformed code on
// its first line, which its source map does not count: Jest's and
// vite-node's (Vitest's).
const wrappers = [/^\(\{"Object\.<anonymous>":function\([^)]*\)\{/, /^'use strict';async \([^)]*\)=>\{\{/];

// sourceMap reads a script's source map (the last sourceMappingURL: a data
// URL or a file beside the script) as {prefix, sources (absolute, the
// project's or null), lines: [[column, source, line], ...] per generated
// line}; null when it has none or maps nothing of the project.
function sourceMap(src, file) {
  // The last comment, followed by nothing but a runner's closing wrapper.
  const m = [...src.slice(-4e6).matchAll(/\/\/[#@] sourceMappingURL=([^\s'"]+)/g)].pop();
  if (!m) return null;
  let raw;
  try {
    const u = m[1];
    const d = /^data:application\/json[^,]*?(;base64)?,(.*)$/.exec(u);
    if (d) raw = d[1] ? Buffer.from(d[2], 'base64').toString() : decodeURIComponent(d[2]);
    else if (!/^[a-z]+:/i.test(u)) raw = fs.readFileSync(path.resolve(path.dirname(file), u), 'utf8');
    else return null;
    raw = JSON.parse(raw);
  } catch (e) {
    return null;
  }
  if (raw.sections || typeof raw.mappings !== 'string') return null;
  const root = raw.sourceRoot || '';
  const sources = (raw.sources || []).map((x) => {
    if (x == null) return null;
    let f = x.startsWith('file:') ? fileOf(x) : path.resolve(path.dirname(file), root, x);
    if (path.isAbsolute(x) && !x.startsWith('file:')) f = path.resolve(x);
    return inProject(f) ? f : null;
  });
  if (!sources.some(Boolean)) return null;
  const w = wrappers.map((re) => re.exec(src)).find(Boolean);
  return { prefix: w ? w[0].length : 0, sources, lines: decodeMappings(raw.mappings) };
}

const b64 = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));

// decodeMappings decodes a source map's VLQ mappings into, per generated
// line, [column, source, original line] (0-based) for the segments that
// have a source.
function decodeMappings(mappings) {
  const lines = [];
  let src = 0, oline = 0, ocol = 0;
  for (const text of mappings.split(';')) {
    const line = [];
    let col = 0;
    for (const seg of text.split(',')) {
      if (!seg) continue;
      const v = [];
      let value = 0, shift = 0;
      for (const c of seg) {
        const d = b64.get(c);
        if (d === undefined) break;
        value += (d & 31) << shift;
        if (d & 32) {
          shift += 5;
        } else {
          v.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      col += v[0] || 0;
      if (v.length >= 4) {
        src += v[1];
        oline += v[2];
        ocol += v[3];
        line.push([col, src, oline]);
      }
    }
    lines.push(line);
  }
  return lines;
}

// spans renders file -> Set of lines as file -> merged [start, end] spans.
function spans(lines) {
  const out = {};
  for (const [file, set] of lines) {
    const sorted = [...set].sort((a, b) => a - b);
    const sp = [];
    for (const l of sorted) {
      const last = sp[sp.length - 1];
      if (last && l <= last[1] + 1) last[1] = l;
      else sp.push([l, l]);
    }
    if (sp.length) out[file] = sp;
  }
  return out;
}
