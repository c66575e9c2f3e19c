package js_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex/index"
)

// TestImportedTables lists a project whose loops and .each tables come
// from local modules of literals (JSON, ESM and CommonJS): the titles are
// read from the modules without running them, and a change to a module
// reaches the next listing.
func TestImportedTables(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"jest": "^29.0.0"}}`)
	write("test/cases.json", `[{"name": "json a"}, {"name": "json b"}]`)
	write("test/esm.ts", "export const names = ['esm a', 'esm b'];\nconst rows = [[1, 2]];\nexport default rows;\n")
	write("test/cjs.js", "module.exports = { list: ['cjs a'] };\nexports.other = 'x';\n")
	write("test/a.test.ts", `import rows, { names } from './esm';
import * as esm from './esm';
const cases = require('./cases.json');
const { list } = require('./cjs');
import { missing } from './nowhere';
for (const c of cases) test(c.name, () => {});
names.forEach((n) => test(n, () => {}));
test.each(rows)('sum %i %i', () => {});
for (const l of list) test(l + ' ' + esm.names.length, () => {});
test(missing, () => {});
`)
	want := []string{"cjs a 2", "esm a", "esm b", "json a", "json b", "sum 1 2", "dynamic {missing}"}
	check := func() {
		t.Helper()
		ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range ix.Tests {
			n := r.Name
			if r.Dynamic {
				n = "dynamic " + n
			}
			got = append(got, n)
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("got %q\nwant %q", got, want)
		}
	}
	check()
	check() // from the cache
	write("test/cases.json", `[{"name": "json c"}]`)
	want = []string{"cjs a 2", "esm a", "esm b", "json c", "sum 1 2", "dynamic {missing}"}
	check()
}

// TestImportedNamespace lists tables made from a whole local module
// (import * as m; Object.keys/entries(m)) reached through a mapped
// specifier (Jest's moduleNameMapper, tsconfig paths): the namespace
// holds every runtime export, re-exports and functions included, types
// excluded; a module with export * has names the source does not show,
// and a package is never read.
func TestImportedNamespace(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"jest": "^29.0.0"},
 "jest": {"moduleNameMapper": {"src/(.*)": "<rootDir>/src/$1"}}}`)
	write("tsconfig.json", `{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["lib/*"]}}}`)
	write("src/matchers/index.ts", `export { fail } from './fail';
export { pass as passes, default as other } from './pass';
export type { T } from './types';
export { type U, toBe } from './to';
export * as nested from './nested';
export function helper(a: string): void;
export function helper(a: string) {}
export class K {}
export interface I {}
export type X = number;
export const count = 2;
`)
	write("lib/open.ts", "export * from './more';\nexport const known = ['k'];\n")
	write("lib/open2.ts", "export * from './more';\nexport const other = ['o'];\n")
	write("node_modules/pkg/index.js", "exports.a = 1;\n")
	write("test/a.test.ts", `import * as matchers from 'src/matchers/index';
import * as open from '@lib/open';
import { known } from '@lib/open';
import * as open2 from '@lib/open2';
import * as pkg from 'pkg';
test.each(Object.entries(matchers))('%s', () => {});
Object.keys(open).forEach((k) => test('open ' + k, () => {}));
known.forEach((k) => test('known ' + k, () => {}));
open2.other.forEach((k) => test('other ' + k, () => {}));
Object.keys(pkg).forEach((k) => test('pkg ' + k, () => {}));
`)
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		n := r.Name
		if r.Dynamic {
			n = "dynamic " + n
		}
		got = append(got, n)
	}
	sort.Strings(got)
	want := []string{"K", "count", "fail", "helper", "known k", "nested", "other", "other o", "passes", "toBe",
		"dynamic {'open ' + k}", "dynamic {'pkg ' + k}"}
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestImportedFunctionProperties lists a loop over a property of an
// exported function (cross-spawn's module.exports = run;
// module.exports.methods = [...]): the properties are read, the function
// itself stays unknown.
func TestImportedFunctionProperties(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"jest": "^29.0.0"}}`)
	write("test/util/run.js", `function run(m) { return m; }
module.exports = run;
module.exports.methods = ['spawn', 'sync'];
exports.ignored = ['old exports object'];
`)
	write("test/a.test.js", `const run = require('./util/run');
run.methods.forEach((m) => { describe(m, () => { it('works', () => {}) }) });
run.ignored.forEach((m) => { it(m, () => {}) });
it(String(run), () => {});
`)
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		n := r.Name
		if r.Dynamic {
			n = "dynamic " + n
		}
		got = append(got, n)
	}
	sort.Strings(got)
	want := []string{"spawn", "spawn > works", "sync", "sync > works", "dynamic {m}", "dynamic {String(run)}"}
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestImportedHelpers lists the tests that functions of a local module
// declare where a test file calls them (luxon's Helpers.withoutRTF(name,
// f) and withNow(name, dt, f)): each call is inlined as a local helper's
// is, its records on the call's line (inside a test too, as a local
// helper's); a helper reading its own module's data gives dynamic
// records (not the importer's binding of the same name), and a function
// declaring no tests is not inlined.
func TestImportedHelpers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"jest": "^29.0.0"}}`)
	write("test/helpers.js", `const prefix = compute();
exports.withoutRTF = function (name, f) {
  const fullName = `+"`With no RTF, ${name}`"+`;
  test(fullName, () => { f(); });
};
exports.withNow = (name, dt, f) => test(name, f);
exports.prefixed = function (name) { test(prefix + name, () => {}); };
exports.plain = function (x) { return x; };
`)
	write("test/esm.ts", "export function suite(n: string) {\n  describe(n, () => { it('works', () => {}); });\n}\n")
	write("test/a.test.ts", `const prefix = 'not the helper module\'s';
import { withNow } from './helpers';
import { suite as s } from './esm';
const Helpers = require('./helpers');

Helpers.withoutRTF('toRelative', () => {});
withNow('diffNow', 1, () => {});
describe('d', () => {
  Helpers.prefixed('p');
  s('inner');
});
test('t', () => { withNow('never', 1, () => {}); });
Helpers.plain(1);
const run = require('./run');
run.suite('fp');
`)
	write("test/run.js", "function run() {}\nmodule.exports = run;\nmodule.exports.suite = function (n) { describe(n, () => { it('x', () => {}) }) };\n")
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		n := r.Name + " @" + strconv.Itoa(r.Line)
		if r.Dynamic {
			n = "dynamic " + n
		}
		got = append(got, n)
	}
	sort.Strings(got)
	want := []string{"With no RTF, toRelative @6", "diffNow @7", "d @8", "dynamic d > {prefix + name} @9",
		"d > inner @10", "d > inner > works @10", "t @12", "t > never @12", "fp @15", "fp > x @15"}
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestImportedPureFunctions evaluates calls of a local module's functions
// that only return an expression of their parameters (cross-spawn's
// run.isMethodSync(method) in an if around tests): through a whole
// module's member, a named import and a function's own property; what
// such a function reads of its own module stays unknown (the test under
// the condition is kept), and a TypeScript function in a module a
// JavaScript test imports does not stop the module's helpers being
// inlined.
func TestImportedPureFunctions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"jest": "^29.0.0"}}`)
	write("test/util/run.js", `function isMethodSync(method) { return /^sync(-|$)/.test(method); }
const limit = 2;
function overLimit(n) { return n > limit; }
function run() {}
module.exports = run;
module.exports.methods = ['spawn', 'sync-force-shell'];
module.exports.isMethodSync = isMethodSync;
module.exports.overLimit = overLimit;
`)
	write("test/esm.ts", "export const isWin = (p: string) => p === 'win32';\nexport function suite(n) { it(n, () => {}); }\n")
	write("test/a.test.js", `const run = require('./util/run');
run.methods.forEach((method) => {
  describe(method, () => {
    if (run.isMethodSync(method)) { it('sync only', () => {}); } else { it('async only', () => {}); }
    if (run.overLimit(3)) it('over', () => {});
  });
});
`)
	write("test/b.test.ts", "import { isWin, suite } from './esm';\nimport * as e from './esm';\nif (isWin('linux') || e.isWin('darwin')) it('win', () => {});\nif (!isWin('linux')) it('not win', () => {});\nsuite('helper');\n")
	write("test/c.test.js", "import { isWin, suite } from './esm';\nif (isWin('linux')) it('js', () => {});\nsuite('from js');\n")
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		n := r.File + ": " + r.Name
		if r.Dynamic {
			n = "dynamic " + n
		}
		got = append(got, n)
	}
	sort.Strings(got)
	want := []string{"test/a.test.js: spawn", "test/a.test.js: spawn > async only", "test/a.test.js: spawn > over",
		"test/a.test.js: sync-force-shell", "test/a.test.js: sync-force-shell > sync only", "test/a.test.js: sync-force-shell > over",
		"test/b.test.ts: not win", "test/b.test.ts: helper", "test/c.test.js: js", "test/c.test.js: from js"}
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestImportedPureReassigned checks that a module's export assigned twice
// holds the second value, and that a function the module reassigns is
// not evaluated from its declaration.
func TestImportedPureReassigned(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"jest": "^29.0.0"}}`)
	write("u.js", `function yes() { return true; }
function no() { return false; }
function moved() { return true; }
moved = no;
exports.pick = yes;
exports.pick = no;
exports.moved = moved;
exports.names = ['a'];
exports.names = ['b'];
`)
	write("a.test.js", `const u = require('./u');
if (u.pick()) it('picked yes', () => {});
if (!u.pick()) it('picked no', () => {});
if (!u.moved()) it('moved', () => {});
u.names.forEach((n) => it(n, () => {}));
`)
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		got = append(got, r.Name)
	}
	sort.Strings(got)
	if want := "b|moved|picked no"; strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestImportedStraightFunctions lists titles computed by functions of a
// local module whose bodies run straight to a value (pathe's
// normalizeWindowsPath: a default parameter, an if-return guard, then a
// chain of replaces, the last with a module's const regular expression
// and a replacement function), called in titles and in computed keys of
// a table, and passed on as a value too; in a file whose own syntax
// tree-sitter refuses (String.raw with \u not followed by hex digits,
// which node takes). A const the function declares again is its own; one
// that is no literal stays unknown.
func TestImportedStraightFunctions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"vitest": "^3.2.0"}}`)
	write("src/internal.ts", `const _DRIVE_RE = /^[A-Za-z]:\//;
const SUFFIX = "!";
const LIST = ["x"];
export function normalize(input = "") {
  if (!input) {
    return input;
  }
  return input
    .replace(/\\/g, "/")
    .replace(_DRIVE_RE, (r) => r.toUpperCase());
}
export function shout(s: string) { return s + SUFFIX; }
export function shadowed(s: string) { const SUFFIX = "?"; return s + SUFFIX; }
export function listed(s: string) { return s + LIST.length; }
`)
	write("test/a.spec.ts", `import { it } from "vitest";
import { normalize, shout, shadowed, listed } from "../src/internal";
function run(name: string, fn: unknown, table: Record<string, string>) {
  for (const [k, v] of Object.entries(table)) it(name + " " + k + " " + v, () => {});
}
run("normalize", normalize, {
  [normalize(String.raw`+"`"+`c:\temp`+"`"+`)]: "C:/temp",
  [normalize("")]: "",
});
it(shout("a"), () => {});
it(shadowed("b"), () => {});
it(listed("c"), () => {});
it(String.raw`+"`"+`.\undefined`+"`"+`, () => {});
`)
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		n := r.Name
		if r.Dynamic {
			n = "dynamic " + n
		}
		got = append(got, n)
	}
	sort.Strings(got)
	want := []string{"normalize C:/temp C:/temp", "normalize  ", "a!", "b?", "dynamic {listed(\"c\")}", `.\undefined`}
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestImportedHelperUnread checks that a JavaScript test file's call of an
// imported TypeScript function declaring tests, whose source cannot be
// read into the file, is one dynamic record with a warning, not a silence.
func TestImportedHelperUnread(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"jest": "^29.0.0"}}`)
	write("h.ts", "export function suite(n: string) { it(n, () => {}); }\n")
	write("a.test.js", "import { suite } from './h';\nimport * as h from './h';\nsuite('x');\ndescribe('d', () => { h.suite('y'); });\n")
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		n := r.Name + " @" + strconv.Itoa(r.Line)
		if r.Dynamic {
			n = "dynamic " + n
		}
		got = append(got, n)
	}
	sort.Strings(got)
	if want := "d @4|dynamic d > {h.suite('y')} @4|dynamic {suite('x')} @3"; strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", got, want)
	}
	warned := 0
	for _, p := range ix.Problems {
		if strings.Contains(p.Message, "cannot be listed: its source cannot be read") {
			warned++
		}
	}
	if warned != 2 {
		t.Errorf("%d warnings, want 2: %v", warned, ix.Problems)
	}
}

// TestInlineRequire lists titles from require('./x.json') and
// require('./m') written where their values are read (hmac-drbg's
// require('./fixtures/hmac-drbg-nist.json').forEach(...)); a package's
// stays unknown, and a require the file declares itself is its own.
func TestInlineRequire(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "p", "devDependencies": {"mocha": "^10.0.0"}}`)
	write("test/fixtures/v.json", `[{"name": "0"}, {"name": "1", "add": true}]`)
	write("lib/m.js", "exports.names = ['x'];\n")
	write("node_modules/pkg/index.js", "exports.names = ['p'];\n")
	write("test/a-test.js", `describe('v', function () {
  require('./fixtures/v.json').forEach(function (opt) {
    it('at ' + opt.name + (opt.add ? ' with data' : ''), function () {});
  });
  require('../lib/m').names.forEach((n) => it('m ' + n, () => {}));
  require('pkg').names.forEach((n) => it('pkg ' + n, () => {}));
});
`)
	write("test/b-test.js", `function require(p) { return [{ name: p }]; }
require('./fixtures/v.json').forEach((o) => it('own ' + o.name, () => {}));
`)
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		n := r.Name
		if r.Dynamic {
			n = "dynamic " + n
		}
		got = append(got, n)
	}
	sort.Strings(got)
	want := []string{"v", "v > at 0", "v > at 1 with data", "v > m x", "dynamic v > {'pkg ' + n}", "own ./fixtures/v.json"}
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
