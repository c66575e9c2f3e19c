package js

import (
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// TestLiteralLoops checks the expansion of loops, array callbacks,
// helpers and aliases over literal data into one record per iteration.
func TestLiteralLoops(t *testing.T) {
	for _, c := range []struct {
		fw   testdex.Framework
		src  string
		want []string
	}{
		{testdex.Jest, "const cases = [{name: 'a', n: 1}, {name: 'b', n: 2.5}];\nfor (const c of cases) { it(`parses ${c.name} ${c.n}`, () => {}) }",
			[]string{"parses a 1", "parses b 2.5"}},
		{testdex.Jest, "for (const [k, v] of Object.entries({x: 1, 2: 'y', 1: 'z'})) test(k + '=' + v, () => {})",
			[]string{"1=z", "2=y", "x=1"}},
		{testdex.Vitest, "const o = {a: 1, b: 2}; for (const k in o) { describe(k, () => { it('w', () => {}) }) }",
			[]string{"a", "b", "a > w", "b > w"}},
		{testdex.Mocha, "var T = [{d: 'one'}, {d: 'two'}];\ndescribe('s', function () { for (var i = 0; i < T.length; i++) { it(T[i].d + ' #' + i, function () {}) } })",
			[]string{"s", "s > one #0", "s > two #1"}},
		{testdex.Jest, "['x', 'y'].forEach((s, i) => { test(`${s.toUpperCase()} ${i}`, () => {}) })",
			[]string{"X 0", "Y 1"}},
		{testdex.Jest, "const L = [[1, 2], [3]]; L.map(a => it(String(a) + '|' + a.join('-') + '|' + JSON.stringify(a), () => {}))",
			[]string{"1,2|1-2|[1,2]", "3|3|[3]"}},
		{testdex.Jest, "Object.keys({b: 1, a: 2}).forEach(function (k) { it(`${k} ${{}}`, () => {}) })",
			[]string{"b [object Object]", "a [object Object]"}},
		{testdex.Jest, "for (const c of cases) { it(`parses ${c.name}`, () => {}) }",
			[]string{"dynamic parses {c.name}"}},
		{testdex.Jest, "for (const c of ['a', 'b']) { if (c) continue; it(c, () => {}) }",
			nil /* both skipped by the guard */},
		{testdex.Jest, "let i = 0; while (i++ < 2) { it('w' + i, () => {}) }",
			[]string{"dynamic {'w' + i}"}},
		{testdex.Jest, "function suite(name, n) { describe(name, () => { it(`works ${n}`, () => {}) }) }\nsuite('a', 1); suite('b', 2)",
			[]string{"a", "a > works 1", "b", "b > works 2"}},
		{testdex.Mocha, "describe('outer', function () {\n function gen(t) { it(t.description, function () {}) }\n var C = [{description: 'p'}, {description: 'q'}];\n for (var i = 0; i < C.length; i++) { gen(C[i]) }\n})",
			[]string{"outer", "outer > p", "outer > q"}},
		{testdex.Jest, "function suite(name) { it(name, () => {}) }\nexport { suite }\nsuite('a')",
			[]string{"dynamic {name}"}},
		{testdex.Jest, "function suite(name) { it(name, () => {}) }\nsuite(process.env.X)",
			[]string{"dynamic {name}"}},
		{testdex.Jest, "const t = cond ? test.skip : test; t('a', () => {}); const it2 = it; it2('b', () => {})",
			[]string{"a", "b"}},
		{testdex.Mocha, "(typeof window !== 'undefined' ? describe : describe.skip)('Browser', () => { it('x', () => {}) })",
			[]string{"Browser", "Browser > x"}},
		{testdex.Jest, "const t = test.skip; t('a', () => {})",
			[]string{"skip a"}},
		{testdex.Jest, "const n = 2; test(`a ${n * 2} ${n > 1} ${n << 1}`, () => {})",
			[]string{"dynamic a {n * 2} {n > 1} {n << 1}"}},
		{testdex.Jest, "const n = 2; test(`a ${n * 2} ${n > 1} ${'10' < '9'} ${'10' < 9} ${n <= null}`, () => {})",
			[]string{"dynamic a {n * 2} {n > 1} {'10' < '9'} {'10' < 9} {n <= null}"}},
		{testdex.Jest, "const n = 2; test(`a ${n * 2} ${n > 1} ${'10' < '9'} ${'10' < 9} ${n >= 2}`, () => {})",
			[]string{"a 4 true true false true"}},
		{testdex.Jest, "const n = 2; test(`a ${n * 2} ${n % 3} ${n / 0} ${2 ** 0.5}`, () => {})",
			[]string{"a 4 2 Infinity 1.4142135623730951"}},
		{testdex.Jest, "const o = {a: ''}; test(`${o.a || 'x'} ${o.b ?? 'y'} ${o.a && 'z'} ${o.a === '' ? 'e' : 'f'}`, () => {})",
			[]string{"x y  e"}},
		{testdex.Jest, "const t = [{n: 'a'}]; for (var i = 0; i < t.length; i++) { (function (c, k) { it(c.n + k, () => {}) })(t[i], i) }",
			[]string{"a0"}},
		{testdex.Jest, "const L = ['a']; L.push('b'); L.forEach(x => it(x, () => {}))",
			[]string{"a", "b"}},
		{testdex.Jest, "let L = ['a']; L.push('b'); L.forEach(x => it(x, () => {})); L.push('c')",
			[]string{"a", "b"}},
		{testdex.Jest, "let L = ['a']; L.forEach(x => { L.push('b'); it(x, () => {}) })",
			[]string{"dynamic {x}"}},
		{testdex.Jest, "var L = ['a', 'b']; L.forEach(x => it(x, () => {}))",
			[]string{"a", "b"}},
		{testdex.Jest, "test(`${1e21} ${0.1 + 0.2} ${-0} ${[1, [2, null]]} ${null} ${undefined} ${true}`, () => {})",
			[]string{"1e+21 0.30000000000000004 0 1,2, null undefined true"}},
		{testdex.Jest, "const o = {toString() { return 'x' }}; test(`${o}`, () => {})",
			[]string{"dynamic {o}"}},
		// Guards skip elements (the names node's own run of the same code gives).
		{testdex.Jest, "const path = require('path');\n['a.js', 'b.txt', 'c.js', '.js'].forEach(function (f) { if (path.extname(f) !== '.js') return; it(path.basename(f, '.js'), () => {}) });\nfor (const f of ['x/a.test.js', 'b', 'c.d.e']) { if (f === 'b') { continue; } it(path.basename(f) + ' ' + path.extname(f), () => {}) }",
			[]string{"a", "c", "a.test.js .js", "c.d.e .e"}},
		{testdex.Jest, "const path = require('path');\n['a.js', 'b.txt'].forEach((f) => { const ext = path.extname(f); if (ext !== '.js') { return; } it(f, () => {}) })",
			[]string{"a.js"}},
		{testdex.Jest, "['a', 'b'].forEach((f) => { if (f === x) return; it(f, () => {}) })",
			[]string{"dynamic {f}"}},
		{testdex.Jest, "for (const f of ['a', 'b']) { if (f === 'a') continue; if (f === 'c') break; it(f, () => {}) }",
			[]string{"dynamic {f}"}},
		{testdex.Jest, "['a', 'b'].forEach((f) => { if (f === 'a') { it('early', () => {}); return; } it(f, () => {}) })",
			[]string{"early", "dynamic {f}"}},
	} {
		res := extract(t, c.fw, "a.test.js", c.src)
		got := names(res)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.fw, c.src, got, c.want)
		}
	}
}

// TestConditionalSkip checks that a test function chosen by a condition
// known only at run time, between a skipping and a running one, gives a
// record that is not skipped but tagged skipif, as are its children.
func TestConditionalSkip(t *testing.T) {
	res := extract(t, testdex.Mocha, "a.spec.js", "const d = process.env.CI ? describe.skip : describe;\nd('s', () => { it('x', () => {}) });\nconst s = xit; s('y', () => {})")
	var got []string
	for _, r := range res.Tests {
		got = append(got, r.Name+" "+strings.Join(r.Tags, ",")+" "+strconv.FormatBool(r.Skip))
	}
	want := []string{"s skipif false", "s > x skipif false", "y  true"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestEachPartlyKnownRows checks that .each rows whose unknown cells the
// title does not print are named, in Vitest and Jest alike, and that a
// printed unknown cell still makes the row dynamic.
func TestEachPartlyKnownRows(t *testing.T) {
	for _, c := range []struct {
		fw   testdex.Framework
		src  string
		want []string
	}{
		{testdex.Vitest, "test.each([['a', f()], ['b', g]])('x %s', () => {})", []string{"x a", "x b"}},
		{testdex.Jest, "test.each([['a', f()], ['b', g]])('x %s', () => {})", []string{"x a", "x b"}},
		{testdex.Vitest, "test.each([['a', f()]])('x %s %s', () => {})", []string{"dynamic x %s %s"}},
		{testdex.Vitest, "test.each([{a: 1, b: f()}])('x $a', () => {})", []string{"x 1"}},
		// The rows it cannot name are one dynamic record; the others are named.
		{testdex.Jest, "test.each([['a'], [() => {}], [1], [f()]])('x %s', () => {})", []string{"x a", "x 1", "dynamic x %s"}},
		{testdex.Vitest, "test.each([['a'], [() => {}], g, [1]])('x %s', () => {})", []string{"x a", "x 1", "dynamic x %s"}},
		{testdex.Jest, "describe.each([['a'], [f()]])('d %s', () => { it('t', () => {}) })", []string{"d a", "dynamic d %s", "d a > t", "dynamic d %s > t"}},
		{testdex.Jest, "test.each([['a'], g])('x %s', () => {})", []string{"dynamic x %s"}},
		{testdex.Jest, "test.each([false, {}, () => {}, Object.freeze([1])])('x %s', () => {})", []string{"x false", "x {}", "x [ 1 ]", "dynamic x %s"}},
		// util.inspect breaks these into lines: not guessed.
		{testdex.Jest, "test.each([[{alpha: 'long string value here', beta: [1, 2, 3], gamma: 'another long st'}]])('%O', () => {})", []string{"dynamic %O"}},
		{testdex.Jest, "test.each([[[1, 2, 3, 4, 5, 6, 7]]])('%O', () => {})", []string{"dynamic %O"}},
		{testdex.Jest, "test.each([[{a: {b: {c: {d: 1}}}}]])('%o', () => {})", []string{"dynamic %o"}},
		{testdex.Jest, "test.each([[[1, 2, 3, 4, 5, 6], {a: {b: {c: 1}}}]])('%O %O', () => {})", []string{"[ 1, 2, 3, 4, 5, 6 ] { a: { b: { c: 1 } } }"}},
	} {
		got := names(extract(t, c.fw, "a.test.js", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.fw, c.src, got, c.want)
		}
	}
}

// TestNamespaceImports checks TypeScript's CommonJS output, which calls
// the test functions through the module object: (0, globals_1.test)(...).
func TestNamespaceImports(t *testing.T) {
	for _, c := range []struct {
		fw   testdex.Framework
		src  string
		want []string
	}{
		{testdex.Jest, "const globals_1 = require(\"@jest/globals\");\n(0, globals_1.describe)('d', () => { (0, globals_1.test)('t', () => {}); globals_1.it.skip('s', () => {}) })",
			[]string{"d", "d > t", "skip d > s"}},
		{testdex.Vitest, "import * as v from 'vitest'; v.describe('d', () => { v.test.each([1])('n %i', () => {}) })",
			[]string{"d", "d > n 1"}},
		{testdex.Jest, "const other = require('./x'); (0, other.test)('t', () => {})", nil},
	} {
		got := names(extract(t, c.fw, "a.test.js", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.fw, c.src, got, c.want)
		}
	}
}

// TestLoopShapes covers TypeScript parameters, node:test subtests in a
// loop, arrow helpers, loops around .each and around helper calls.
func TestLoopShapes(t *testing.T) {
	for _, c := range []struct {
		fw   testdex.Framework
		file string
		src  string
		want []string
	}{
		{testdex.Vitest, "a.test.ts", "type C = {n: string}; const cs: C[] = [{n: 'a'}, {n: 'b'}] satisfies C[];\ncs.forEach((c: C, i: number = 9) => { test(`${c.n}${i}`, () => {}) });\nfor (const c of cs as C[]) it(c.n!, () => {})",
			[]string{"a0", "b1", "a", "b"}},
		{testdex.NodeTest, "a.test.mjs", "import test from 'node:test';\ntest('t', async (t) => { for (const n of [1, 2]) { await t.test(`sub ${n}`, () => {}) } })",
			[]string{"t", "t > sub 1", "t > sub 2"}},
		{testdex.Jest, "a.test.js", "const suite = (name) => describe(name, () => { test('x', () => {}) });\n['p', 'q'].forEach(suite2 => suite(suite2))",
			[]string{"p", "q", "p > x", "q > x"}},
		{testdex.Jest, "a.test.js", "for (const k of ['a', 'b']) { test.each([[1], [2]])(k + ' %i', () => {}) }",
			[]string{"a 1", "a 2", "b 1", "b 2"}},
		{testdex.Jest, "a.test.js", "function gen(x) { it(x, () => {}) }\nfor (const y of load()) gen(y)",
			[]string{"dynamic {x}"}},
		{testdex.Jest, "a.test.js", "function gen(x) { it(x, () => {}) }\n[1, 2].forEach(gen)",
			[]string{"dynamic {x}"}},
		{testdex.Jest, "a.test.js", "describe('d', () => { const rows = [{t: 'r1'}]; for (const r of rows) { const title = `${r.t}!`; it(title, () => {}) } })",
			[]string{"d", "d > r1!"}},
		{testdex.Jest, "a.test.js", "const c = 'outer'; for (const c of ['inner']) { it(c, () => {}) }",
			[]string{"inner"}},
	} {
		got := names(extract(t, c.fw, c.file, c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.fw, c.src, got, c.want)
		}
	}
}

// TestMapValues checks .map with a function returning an expression, as
// tables are often built: test.each(cases.map(c => [c.name, c])).
func TestMapValues(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"const cases = [{name: 'a', v: 1}, {name: 'b', v: 2}];\ntest.each(cases.map(c => [c.name, c]))('%s', () => {})", []string{"a", "b"}},
		{"test.each([1, 2].map(function (n, i) { return {n: n * 10, i} }))('$n $i', () => {})", []string{"10 0", "20 1"}},
		{"test(['x', 'y'].map((s) => s.toUpperCase()).join('+'), () => {})", []string{"X+Y"}},
		{"test.each([1].map((n) => { log(n); return n }))('%s', () => {})", []string{"dynamic %s"}},
		{"const A = [{n: 'a'}, {n: 'b', skip: true}]; const B = [...A, {...A[0], n: 'c'}, ...['d', 'e'].map((n) => ({n}))];\nB.filter((c) => !c.skip).forEach((c) => test(c.n, () => {}))", []string{"a", "c", "d", "e"}},
		{"test([...'ab'].join('-'), () => {})", []string{"a-b"}},
		{"const base = {x: 1, y: 2}; test(JSON.stringify({...base, x: 3, ...null}), () => {})", []string{`{"x":3,"y":2}`}},
		{"test.each([...rows])('%s', () => {})", []string{"dynamic %s"}},
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestLoopConditions checks that an if around a test in a loop is read
// per iteration when its condition is literal, and that an early exit
// before the test leaves the loop dynamic while one after it does not.
func TestLoopConditions(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"for (const c of [{n: 'a'}, {n: 'b', skip: true}]) { if (!c.skip) { it(c.n, () => {}) } else { it('skipped ' + c.n, () => {}) } }",
			[]string{"a", "skipped b"}},
		{"[{n: 'a', on: 1}, {n: 'b', on: 0}].forEach((c) => { if (c.on === 1) it(c.n, () => {}) })", []string{"a"}},
		{"[{n: 'a'}].forEach((c) => { if (x) return; it(c.n, () => {}) })", []string{"dynamic {c.n}"}},
		{"['a', 'b'].map((n) => { return it(n, () => {}) })", []string{"a", "b"}},
		{"for (const n of ['a']) { it(n, () => {}); if (n) break }", []string{"a"}},
		{"if (false) { it('never', () => {}) } if (process.env.X) { it('maybe', () => {}) }", []string{"maybe"}},
		// Loose equality where it is strict (luxon's dst tests), and null == undefined.
		{"for (const n of ['a', 'b']) { describe(n, () => { if (n == 'a') { it('x', () => {}) } else { it('y', () => {}) } }) }",
			[]string{"a", "b", "a > x", "b > y"}},
		{"for (const n of [null, 1, '1']) { if (n != undefined) it('t' + n, () => {}) }", []string{"t1", "t1"}},
		{"for (const n of [0, '']) { if (n == false) it('f' + n, () => {}) }", []string{"f0", "f"}},
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// TestShadowingFunctions checks a top-level function named like a global
// test function: a helper declaring tests is inlined, a wrapper that does
// not still stands for the global.
func TestShadowingFunctions(t *testing.T) {
	for _, c := range []struct {
		fw   testdex.Framework
		src  string
		want []string
	}{
		{testdex.Vitest, "function suite(name) { describe(name, () => { it('x', () => {}) }) }\nsuite('a')", []string{"a", "a > x"}},
		{testdex.Mocha, "function it(name, fn) { return global.it(name, fn) }\ndescribe('d', () => { it('w', () => {}) })", []string{"d", "d > w"}},
	} {
		got := names(extract(t, c.fw, "a.test.js", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.fw, c.src, got, c.want)
		}
	}
}

// TestNodeTestInVitest checks node:test's functions imported into a
// Vitest file (as defu's tests do): Vitest lists the tests their suite
// callbacks declare through Vitest at the level of the call, and
// node:test's own tests are not Vitest's.
func TestNodeTestInVitest(t *testing.T) {
	const src = "import { describe, it as nit } from 'node:test';\nimport { it } from 'vitest';\n" +
		"describe('d', () => { it('a', () => {}); for (const x of ['p', 'q']) it(x, () => {}) });\n" +
		"describe('e', (t) => { it('b', () => {}) });\nnit('n', () => { it('c', () => {}) });\nit('top', () => {})"
	got := names(extract(t, testdex.Vitest, "a.test.ts", src))
	want := []string{"a", "p", "q", "dynamic b", "dynamic c", "top"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	// In a node:test file they are its own.
	got = names(extract(t, testdex.NodeTest, "a.test.mjs", "import { describe, it } from 'node:test';\ndescribe('d', () => { it('a', () => {}) })"))
	if want := []string{"d", "d > a"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("node:test: got %q, want %q", got, want)
	}
}

// TestPropertyChanges checks that a change to a part of a binding
// (o.a.b = v, p.q[0] = v, delete, Object.assign, a destructuring swap)
// leaves reads of it unknown, never the value before the change, and
// that o.k = v and o['k'] = v before a read are replayed (mlly's
// staticTests[input] = ... after its literal).
func TestPropertyChanges(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"const o = {a: {b: 'x'}};\no.a.b = 'y';\nit(o.a.b, () => {})", []string{"dynamic {o.a.b}"}},
		{"const p = {q: ['m']};\np.q[0] = 'n';\nit(p.q[0], () => {})", []string{"dynamic {p.q[0]}"}},
		{"const d = {a: 'x'};\ndelete d.a;\nit(d.a, () => {})", []string{"dynamic {d.a}"}},
		{"const s = {a: 'x'};\nObject.assign(s, {a: 'y'});\nit(s.a, () => {})", []string{"dynamic {s.a}"}},
		{"let [u, v] = ['u', 'v'];\n[u, v] = [v, u];\nit(u, () => {})", []string{"dynamic {u}"}},
		{"let {e} = {e: 'e'};\n({e} = {e: 'f'});\nit(e, () => {})", []string{"dynamic {e}"}},
		{"const T = {a: 1};\nT['b c'] = 2; T.a = 3; T[1] = 4;\nfor (const [k, v] of Object.entries(T)) it(k + v, () => {})",
			[]string{"14", "a3", "b c2"}},
		{"const T = {a: 1};\nfor (const k of Object.keys(T)) it(k, () => {});\nT.b = 2", []string{"a"}},
		{"const T = {a: 1};\nif (x) T.b = 2;\nfor (const k of Object.keys(T)) it(k, () => {})", []string{"dynamic {k}"}},
	} {
		got := names(extract(t, testdex.Jest, "a.test.js", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}
