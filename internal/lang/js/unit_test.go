package js

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

func extract(t *testing.T, fw testdex.Framework, name, src string) lang.Result {
	t.Helper()
	return ExtractorFor(fw).Extract(&lang.File{Rel: name, Data: []byte(src), Framework: fw})
}

func names(res lang.Result) []string {
	var out []string
	for _, r := range res.Tests {
		s := r.Name
		if r.Dynamic {
			s = "dynamic " + s
		}
		if r.Skip {
			s = "skip " + s
		}
		out = append(out, s)
	}
	return out
}

func TestExtractShapes(t *testing.T) {
	for _, c := range []struct {
		fw   testdex.Framework
		name string
		src  string
		want []string
	}{
		{testdex.Jest, "a.test.js", `describe("a", () => { it("b", () => {}); it.each([[1, 'x']])("n %i %s", () => {}) })`,
			[]string{"a", "a > b", "a > n 1 x"}},
		{testdex.Jest, "a.test.js", `test.each([{a: 1}, {a: 'x'}])('v $a $#', () => {})`, []string{"v 1 0", "v x 1"}},
		{testdex.Jest, "a.test.js", `test.each([[[1, [2]]]])('%p', () => {})`, []string{"[1, [Array]]"}},
		{testdex.Jest, "a.test.js", `test.each([['a"b']])('%p|%j', () => {})`, []string{`"a\"b"|%j`}},
		{testdex.Vitest, "a.test.ts", `test.each([{a: {b: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]}}])('$a.b', () => {})`, []string{"[ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …(5) ]"}}, // Vitest 3.2
		{testdex.Vitest, "a.test.ts", `test.each([[1, 2]])('only %s', () => {})`, []string{"only 1"}},
		{testdex.Vitest, "a.test.ts", `test.each([[1, 2]])('100% sure', () => {})`, []string{"100% sure 1"}},
		{testdex.Jest, "a.test.js", "test(`a ${b} c`, () => {})", []string{"dynamic a {b} c"}},
		{testdex.Jest, "a.test.js", `test(name, () => {})`, []string{"dynamic {name}"}},
		{testdex.Jest, "a.test.js", `const T = 'x' + 1; test(T, () => {})`, []string{"x1"}},
		{testdex.Jest, "a.test.js", `fdescribe('f', () => { fit('g', () => {}) })`, []string{"f", "f > g"}},
		{testdex.Mocha, "a.test.js", `describe('d', function () { it('pending') })`, []string{"d", "skip d > pending"}},
		{testdex.NodeTest, "a.test.mjs", `import t from 'node:test'; t('x', (c) => { c.test('y') })`, []string{"x", "x > y"}},
		{testdex.NodeTest, "a.test.mjs", `test('x', () => { other.test('y') })`, []string{"x"}},
		{testdex.Jest, "a.test.js", `foo('x', () => {}); describe.configure('y')`, nil},
	} {
		got := names(extract(t, c.fw, c.name, c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.fw, c.src, got, c.want)
		}
	}
}

func TestExtractBadInput(t *testing.T) {
	res := extract(t, testdex.Jest, "a.test.js", "describe('a', () => {\n  it('b', () => {});\n  it('c', () => {")
	if len(res.Problems) != 1 || res.Problems[0].Severity != testdex.SevError || res.Problems[0].Line == 0 || res.Problems[0].Path != "" {
		t.Errorf("unfinished file: problems %+v", res.Problems)
	}
	if got := names(res); len(got) < 2 || got[1] != "a > b" {
		t.Errorf("unfinished file: tests %q, want the readable ones", got)
	}
	if res := extract(t, testdex.Jest, "a.test.js", "\x00\x01binary"); len(res.Problems) != 1 || len(res.Tests) != 0 {
		t.Errorf("binary file: %+v", res)
	}
	if res := extract(t, testdex.Jest, "a.test.js", "test('\xff', () => {})"); len(res.Problems) != 1 || len(res.Tests) != 1 {
		t.Errorf("invalid UTF-8: %+v", res)
	}
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	extract(t, testdex.Jest, "a.test.js", "test.each("+deep+")('%p', () => {})")
}

func TestRunPatterns(t *testing.T) {
	res := extract(t, testdex.Jest, "a.test.js", `describe('a.b', () => { it('(c)', () => {}) })`)
	if got := res.Tests[1].Run; got != `^a\.b \(c\)$` {
		t.Errorf("jest run = %q", got)
	}
	if got := res.Tests[0].Run; got != `^a\.b( |$)` {
		t.Errorf("jest suite run = %q", got)
	}
}

func TestDefaultPatterns(t *testing.T) {
	for _, c := range []struct {
		patterns []string
		yes, no  []string
	}{
		{jestTestMatch, []string{"__tests__/a.js", "x/__tests__/b/c.tsx", "a.test.js", "src/a.spec.mts", "test.ts", "a.b.test.cjs"}, []string{"a.js", "atest.js", "a.test.py", "__tests__.js"}},
		{vitestInclude, []string{"a.test.ts", "src/b.spec.mjs", "c.test.jsx"}, []string{"__tests__/a.js", "a.test.py", "test.ts"}},
		{nodeTestGlobs, []string{"a.test.js", "a-test.mjs", "a_test.cjs", "test-a.js", "test.js", "test/x/y.js"}, []string{"a.test.ts", "atest.js"}},
	} {
		g, bad := compileGlobs(c.patterns)
		if len(bad) > 0 {
			t.Fatalf("untranslatable %v", bad)
		}
		for _, y := range c.yes {
			if !g.match(y) {
				t.Errorf("%v should match %s", c.patterns, y)
			}
		}
		for _, n := range c.no {
			if g.match(n) {
				t.Errorf("%v should not match %s", c.patterns, n)
			}
		}
	}
}

func TestDetect(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"scripts": {"test": "mocha --recursive spec && jest"}, "devDependencies": {"jest": "1", "vitest": "1"}}`)
	write("jest.config.ts", `const base = require('./base'); export default { testMatch: ['<rootDir>/src/**/*.check.ts'], roots: base.roots }`)
	env := &lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}
	p, probs := Detector.Detect(env, dir, []string{"package.json"})
	var fws []testdex.Framework
	for _, s := range p.Frameworks {
		fws = append(fws, s.Framework)
	}
	if strings.Join(toStrings(fws), " ") != "jest mocha vitest" {
		t.Errorf("frameworks %v, want scripts.test's first: jest mocha vitest", fws)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].Message, "roots") {
		t.Errorf("want one warning about the non-literal roots, got %v", probs)
	}
	jest, mocha := p.Frameworks[0], p.Frameworks[1]
	if !jest.Match("src/a/b.check.ts") || jest.Match("a.test.js") {
		t.Errorf("jest testMatch from jest.config.ts not applied: %v", jest.Patterns)
	}
	if !mocha.Match("spec/a/b.js") || mocha.Match("test/a.js") {
		t.Errorf("mocha spec from scripts.test not applied: %v", mocha.Patterns)
	}
	write("sub/package.json", `{"name": "sub"}`)
	if p, _ := Detector.Detect(env, filepath.Join(dir, "sub"), []string{"package.json"}); p != nil {
		t.Errorf("a package.json without a framework should not be a project: %+v", p)
	}
}

func toStrings(fws []testdex.Framework) []string {
	out := make([]string, len(fws))
	for i, f := range fws {
		out[i] = string(f)
	}
	return out
}

func TestLocalConstTable(t *testing.T) {
	src := "describe('d', () => {\n  const rows: [string, number][] = [['a', 1]];\n  test.each(rows)('%s=%d', () => {});\n});"
	got := names(extract(t, testdex.Vitest, "a.test.ts", src))
	if strings.Join(got, "|") != "d|d > a=1" {
		t.Errorf("got %q", got)
	}
}

// TestShadowedTestNames checks that a binding of the file taking a test
// function's name shadows the global: a top-level function whose body
// names no test function (zod's function describe(value) { return
// JSON.stringify(...) }, called in a helper its tests call) and a block's
// const (const describe = schema.describe in a test's body) declare no
// suite, while a block's alias of a test function (globalThis.it too), a
// wrapper of the global and a function that calls anything but the
// builtins still stand for the global; a block's function declaration
// shadows it as shadowedByBlock says.
func TestShadowedTestNames(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"import { test } from 'vitest';\nfunction describe(v) { return JSON.stringify(v) }\nfunction h(x) { expect(1, `${describe(x)}`) }\ntest('a', () => { h(1) });\ntest('b', () => { describe('x'); })", "a|b"},
		{"const describe = (v) => String(v);\ntest('a', () => { describe('x') })", "a"},
		{"test('c', () => { const describe = schema.describe; const d = describe('hello'); })", "c"},
		{"describe('s', () => { const t = it; t('x', () => {}) })", "s|s > x"},
		{"function it(n, f) { global.it(n, f) }\nit('wrapped', () => {})", "wrapped"},
		{"function describe(n, f) { return test(n, f) }\ndescribe('helper', () => {})", "helper"},
		// Not certainly inert (a call of something but the builtins): the
		// calls stay the global's, as before.
		{"const keep = it;\nfunction it(n, f) { keep(n, f) }\nit('kept aside', () => {})", "dynamic {n}|kept aside"},
		{"function describe(v) { return v.map(String) }\ntest('a', () => { describe([1]) })", "a|dynamic a > {[1]}"},
		{"describe('s', () => { const it = globalThis.it; it('x', () => {}) })", "s|s > x"},
		// A block's function declaration (hash.js): a helper declaring
		// tests is inlined; one called in a test's body declares nothing
		// the runner lists, whatever it calls; an inert one declares
		// nothing; one that may declare tests through other calls, called
		// outside a test's body, still stands for the global.
		{"describe('h', () => {\n  test({ name: 'n1' });\n  test({ name: 'n2' });\n  function test(opt) { it('at ' + opt.name, () => {}) }\n})", "h|h > at n1|h > at n2"},
		{"describe('h', () => {\n  function test(fn, cases) { for (const c of cases) assert.equal(fn(c[0]), c[1]) }\n  it('sha', () => { test(hash.sha, [['a', 'b']]) })\n})", "h|h > sha"},
		{"describe('h', () => {\n  function test(v) { return JSON.stringify(v) }\n  test('x');\n})", "h"},
		{"describe('h', () => {\n  function test(n, f) { run(n, f) }\n  test('kept', () => {});\n})", "h|h > kept"},
		{"describe('h', () => {\n  it('sha', () => { test(hash.sha) })\n})", "h|h > sha|dynamic h > sha > {hash.sha}"},
	} {
		if got := strings.Join(names(extract(t, testdex.Vitest, "a.test.ts", c.src)), "|"); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
	// node:test makes a test declared in a test's body a subtest: a
	// block's function that may declare one there still stands for the
	// runner's.
	src := "describe('h', () => {\n  function test(n, f) { run(n, f) }\n  it('a', () => { test('sub', () => {}) })\n})"
	if got := strings.Join(names(extract(t, testdex.NodeTest, "a.test.js", src)), "|"); !strings.Contains(got, "sub") {
		t.Errorf("node:test %s:\n got %q, want the subtest kept", src, got)
	}
}
