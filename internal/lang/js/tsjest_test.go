package js

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// TestTsJestPrintedFunctions checks the cells Jest prints with %s as
// String(value) does: an empty arrow function as TypeScript compiles it
// for ts-jest's target (arrows from ES2015, async ones from ES2017, only
// in .ts files), a Symbol with its description; any other function stays
// dynamic, as does everything in Vitest.
func TestTsJestPrintedFunctions(t *testing.T) {
	const src = "test.each([[() => {}], [async () => {}], [(a) => {}], [() => { /* c */ }], [Symbol('foo')], [Symbol()], [function () {}]])('x %s', () => {})"
	for _, c := range []struct {
		fw     testdex.Framework
		file   string
		target string
		want   []string
	}{
		{testdex.Jest, "a.test.ts", "es2022", []string{"x () => { }", "x async () => { }", "x Symbol(foo)", "x Symbol()", "dynamic x %s"}},
		{testdex.Jest, "a.test.ts", "es2015", []string{"x () => { }", "x Symbol(foo)", "x Symbol()", "dynamic x %s"}},
		{testdex.Jest, "a.test.ts", "es5", []string{"x Symbol(foo)", "x Symbol()", "dynamic x %s"}},
		{testdex.Jest, "a.test.ts", "", []string{"x Symbol(foo)", "x Symbol()", "dynamic x %s"}},
		{testdex.Jest, "a.test.js", "es2022", []string{"x Symbol(foo)", "x Symbol()", "dynamic x %s"}},
		{testdex.Vitest, "a.test.ts", "es2022", []string{"dynamic x %s"}},
	} {
		f := &lang.File{Rel: c.file, Data: []byte(src), Framework: c.fw}
		if c.target != "" {
			f.Settings = lang.Settings{tsJestSetting: {c.target}}
		}
		got := names(ExtractorFor(c.fw).Extract(f))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s %s:\n got %q\nwant %q", c.fw, c.file, c.target, got, c.want)
		}
	}
	got := names(extract(t, testdex.Jest, "a.test.ts", "const Symbol = (s) => s + '!'; test.each([[Symbol('a')]])('x %s', () => {})"))
	if want := []string{"x a!"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("a shadowed Symbol: got %q, want %q", got, want)
	}
}

// TestTsJestTarget checks which projects get the setting: ts-jest as the
// preset or the transform of .ts files, the target read from the
// tsconfig it uses (its option, a path or inline, else tsconfig.json,
// through a relative extends).
func TestTsJestTarget(t *testing.T) {
	files := map[string]string{
		"tsconfig.json":      `{"extends": "./tsconfig.base", /* c */ "compilerOptions": {},}`,
		"tsconfig.base.json": `{"compilerOptions": {"target": "ES2020"}}`,
		"tsconfig.test.json": `{"compilerOptions": {"target": "es5"}}`,
	}
	for _, c := range []struct{ cfg, want string }{
		{`{"preset": "ts-jest"}`, "es2020"},
		{`{"preset": "ts-jest/presets/default-esm"}`, "es2020"},
		{`{"transform": {"^.+\\.tsx?$": "ts-jest"}}`, "es2020"},
		{`{"transform": {"^.+\\.tsx?$": ["ts-jest", {"tsconfig": "tsconfig.test.json"}]}}`, "es5"},
		{`{"transform": {"^.+\\.tsx?$": ["ts-jest", {"tsconfig": "<rootDir>/tsconfig.test.json"}]}}`, "es5"},
		{`{"transform": {"^.+\\.tsx?$": ["ts-jest", {"tsconfig": {"target": "ES2017"}}]}}`, "es2017"},
		{`{"preset": "ts-jest", "transform": {"^.+\\.ts$": "babel-jest"}}`, ""},
		{`{"preset": "ts-jest", "transform": {"^.+\\.js$": "babel-jest"}}`, "es2020"},
		{`{"preset": "ts-jest", "globals": {"ts-jest": {"tsconfig": "tsconfig.test.json"}}}`, "es5"},
		{`{"transform": {"^.+\\.tsx?$": ["ts-jest", {"babelConfig": true}]}}`, ""},
		{`{"transform": {"^.+\\.tsx?$": ["ts-jest", {"babelConfig": false}]}}`, "es2020"},
		{`{}`, ""},
	} {
		pr := &project{dir: "/p", env: &lang.DetectEnv{ReadFile: func(p string) ([]byte, error) {
			if s, ok := files[strings.TrimPrefix(p, "/p/")]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		}}}
		cfg, err := readConfig("jest.config.json", []byte(c.cfg))
		if err != nil {
			t.Fatal(err)
		}
		if got := pr.tsJestTarget(cfg, "/p"); got != c.want {
			t.Errorf("%s: got %q, want %q", c.cfg, got, c.want)
		}
	}
}

// TestEachRowBindings checks that a .each or .for callback's parameters
// hold its row, so the calls inside it (a nested .each over a row's
// field, a title built from a parameter) are named per row.
func TestEachRowBindings(t *testing.T) {
	for _, c := range []struct {
		fw   testdex.Framework
		src  string
		want []string
	}{
		{testdex.Vitest, "describe.each([{p: 'a', t: [{i: 1}, {i: 2}]}, {p: 'b', t: [{i: 3}]}])('d $p', ({ p, t }) => { it.each(t)('i $i', () => {}); it(p + '!', () => {}) })",
			[]string{"d 'a'", "d 'b'", "d 'a' > i 1", "d 'a' > i 2", "d 'b' > i 3", "d 'a' > a!", "d 'b' > b!"}},
		{testdex.Jest, "describe.each([['a', [1, 2]]])('d %s', (name, ns) => { test.each(ns)('n %i', () => {}); test(`${name}?`, () => {}) })",
			[]string{"d a", "d a > n 1", "d a > n 2", "d a > a?"}},
		{testdex.Jest, "describe.each([1, [2]])('d %s', (n) => { test('t ' + n, () => {}) })",
			[]string{"d 1", "d [ 2 ]", "d 1 > t 1", "d [ 2 ] > t 2"}}, // a table not all arrays: each row is one argument
		{testdex.Vitest, "describe.for([['a', 1]])('d %s', ([s, n]) => { test(s + n, () => {}) })",
			[]string{"d a", "d a > a1"}},
		{testdex.Jest, "describe.each`\n a | b\n ${'x'} | ${1}\n`('d $a', ({ a, b }) => { test(a + b, () => {}) })",
			[]string{"d x", "d x > x1"}},
		{testdex.Jest, "describe.each([['a'], [f()]])('d %s', (s) => { test(s + '!', () => {}) })",
			[]string{"d a", "dynamic d %s", "d a > a!", "dynamic d %s > {s + '!'}"}},
		{testdex.Jest, "describe.each([['a']])('d %s', (n) => { n += 'x'; test(n, () => {}); test(`${n}y`, () => {}) })",
			[]string{"d a", "dynamic d a > {n}", "dynamic d a > {n}y"}}, // a changed parameter is not guessed
		{testdex.Jest, "describe.each([['a']])('d %s', (...r) => { test(r[0], () => {}) })",
			[]string{"d a", "dynamic d a > {r[0]}"}},
	} {
		got := names(extract(t, c.fw, "a.test.ts", c.src))
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %s:\n got %q\nwant %q", c.fw, c.src, got, c.want)
		}
	}
}

// TestJestRelativeRoots checks that Jest's roots are resolved against
// rootDir (dayjs's roots: ["test"]), as Jest's normalize does.
func TestJestRelativeRoots(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"devDependencies": {"jest": "22"},
 "jest": {"roots": ["test"], "testRegex": "test/(.*?/)?.*test.js$"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"package.json"})
	if p == nil || len(p.Frameworks) != 1 {
		t.Fatalf("want one framework, got %+v", p)
	}
	jest := p.Frameworks[0]
	if !jest.Match("test/plugin/a.test.js") || jest.Match("src/test/a.test.js") {
		t.Errorf("roots [\"test\"] not resolved against rootDir: %v", jest.Patterns)
	}
}
