package js

import (
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
			[]string{"dynamic {c}"}},
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
		{testdex.Jest, "const n = 2; test(`a ${n * 2}`, () => {})",
			[]string{"dynamic a {n * 2}"}},
		{testdex.Jest, "test(`${1e21} ${0.1 + 0.2} ${-0} ${[1, [2, null]]} ${null} ${undefined} ${true}`, () => {})",
			[]string{"1e+21 0.30000000000000004 0 1,2, null undefined true"}},
		{testdex.Jest, "const o = {toString() { return 'x' }}; test(`${o}`, () => {})",
			[]string{"dynamic {o}"}},
	} {
		res := extract(t, c.fw, "a.test.ts", c.src)
		got := names(res)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.fw, c.src, got, c.want)
		}
	}
}
