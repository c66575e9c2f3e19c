package js

import (
	"reflect"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// FuzzExtract feeds arbitrary source to every grammar and framework: the
// extractor must never panic (its recover turns panics into an "internal
// error" Problem, which the fuzzer reports as a failure too), and the walk
// with a tree cursor must list what the query cursor lists.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"describe('a', () => { it.each([[1]])('%p %s %d %i %f %j %o %O %# %%', () => {}) })",
		"test.each`\n a | b\n ${1} | ${'x'}\n`('$a $b.c', () => {})",
		"import { test as t } from 'node:test'; t('x', async (c) => { await c.test(`y`) })",
		"describe.each([{a: {b: 1}}])('$a.b', () => { it('x') })",
		"const T = [[1n, -0, NaN, 0x1F, 1e21, '\\u{1F600}']]; test.each(T)('%s %d %i %f %j', () => {})",
		"it(",
		"test.each`\n a\xff | b\n ${1} | ${2}\n`('$a\xff $b', () => {})",
		"describe('a', () => { describe('b', () => { const T = [1]; test.each(T)('%s', () => {}) }) })",
		"const C = [{n: 'a'}]; for (const {n} of C) { describe(`${n}`, () => { for (let i = 0; i < 2; i++) it(n + i, () => {}) }) }",
		"function s(x) { describe(x, () => { [1, 2].forEach((k) => it(`${x}${k}`, () => {})) }) }\ns('a'); (function (y) { s(y) })('b')",
		"const t = c ? test.skip : test; (0, t)(String([1, {}]) + JSON.stringify({2: 1, a: [null]}), () => {})",
		"import { rows } from './rows'; for (const r in {b: 1, 1: 2}) test(r + (rows || 'x') + 2 ** 3 % 5, () => {})",
		"var path = require('path'), fs = require('fs');\ndescribe('U', function () { var d = path.resolve(__dirname, 'u');\n" +
			"fs.readdirSync(d).filter(f => /\\.js$/i.test(f)).sort().forEach(function (f) { if (path.extname(f) !== '.js') return; require(path.join(d, f)) }) })",
		"import './x.js'; import { join } from 'node:path'; await import(`./${y}`);\nfor (const f of require('fs').readdirSync(join(import.meta.dirname, 'a'))) { if (!f.endsWith('.js') && f !== 'b') continue; require(`./a/${f}`) }",
		"describe('d', () => { ['a', 'b'].forEach(n => require('./' + n + '.js')); it('x', () => { require(process.env.X) }); it('x') })",
	} {
		f.Add(s, uint8(0))
	}
	fws := []testdex.Framework{testdex.Jest, testdex.Vitest, testdex.Mocha, testdex.NodeTest}
	exts := []string{"a.test.js", "a.test.ts", "a.test.tsx"}
	f.Fuzz(func(t *testing.T, src string, sel uint8) {
		fw := fws[int(sel)%len(fws)]
		name := exts[int(sel/4)%len(exts)]
		res := ExtractorFor(fw).Extract(&lang.File{Rel: name, Data: []byte(src), Framework: fw})
		if walk := (&Extractor{fw: fw, deepPath: 1}).Extract(&lang.File{Rel: name, Data: []byte(src), Framework: fw}); !reflect.DeepEqual(walk, res) {
			t.Fatalf("the walk lists\n%+v\nthe query\n%+v", walk, res)
		}
		// A file other test files load is read under a describe.
		base := &instance{key: "L", spaced: "L", record: true, run: "^L( |$)"}
		loaded := (&Extractor{fw: fw, loaded: true, base: base}).Extract(&lang.File{Rel: name, Data: []byte(src), Framework: fw})
		for _, r := range loaded.Tests {
			if r.Parent == "" || r.Name[:1] != "L" {
				t.Fatalf("loaded record %q is not under its describe", r.Name)
			}
		}
		keys := map[string]bool{}
		for _, p := range res.Problems {
			if p.Path != "" || len(p.Message) > 9 && p.Message[:9] == "internal " {
				t.Fatalf("problem %+v", p)
			}
		}
		for _, r := range res.Tests {
			if r.Parent != "" && !keys[r.Parent] {
				t.Fatalf("parent %q of %q not listed before it", r.Parent, r.Name)
			}
			keys[r.Key()] = true
		}
	})
}
