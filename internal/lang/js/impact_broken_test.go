package js_test

import (
	"context"
	"slices"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/impacttest"
)

// brokenTree is a TypeScript project: calc.ts imports math.ts; the test
// of calc reaches math.ts through it, the type test only by an import
// type, the other test not at all.
var brokenTree = map[string]string{
	"src/math.ts":             "export type N = number;\nexport function add(a: N, b: N): N {\n  return a + b;\n}\n",
	"src/calc.ts":             "import { add } from './math';\nexport const twice = (x: number) => add(x, x);\n",
	"src/other.ts":            "export const one = 1;\n",
	"test/calc.test.ts":       "import { twice } from '../src/calc';\ntest('twice', () => expect(twice(2)).toBe(4));\n",
	"test/type.test.ts":       "import type { N } from '../src/math';\ntest('type', () => { const n: N = 1; expect(n).toBe(1); });\n",
	"test/other.test.ts":      "import { one } from '../src/other';\ntest('one', () => expect(one).toBe(1));\n",
	"tsconfig.json":           `{"compilerOptions": {"strict": true}}`,
	"jest.config.js@jest":     "module.exports = { preset: 'ts-jest' };\n",
	"package.json@jest":       `{"name": "b", "devDependencies": {"jest": "29", "ts-jest": "29", "typescript": "5"}}`,
	"package.json@vitest":     `{"name": "b", "devDependencies": {"vitest": "3", "typescript": "5"}}`,
	"vitest.config.ts@vitest": "export default {};\n",
}

// TestBrokenTypeScript: the node graph is at file level, so a change of a
// module that breaks it (a syntax error, a NUL byte, a type error ts-jest
// reports) selects every test file that imports it, at any depth, which
// is what fails: ts-jest type-checks each file it transforms, and Vitest
// (esbuild, no type check) fails the importers of a module that does not
// parse. A type-only import counts too (ts-jest resolves it to check the
// importer; for Vitest it is one more test file, never one fewer).
func TestBrokenTypeScript(t *testing.T) {
	importers := []string{"test/calc.test.ts", "test/type.test.ts"}
	for _, runner := range []struct {
		name string
		fw   testdex.Framework
	}{{"jest", testdex.Jest}, {"vitest", testdex.Vitest}} {
		for _, c := range []struct{ name, content string }{
			{"syntax error", "export type N = number;\nexport function add(a: N, b: N): N {\n  return a + b;\n}\n}\n"},
			{"NUL byte", "export type N = number;\nexport function add(a: N, b: N): N {\n  return a + b;\x00\n}\n"},
			{"type error", "export type N = number;\nexport function add(a: N, b: N): N {\n  return 'a' + b;\n}\n"},
			{"undefined name", "export type N = number;\nexport function add(a: N, b: N): N {\n  return undefinedAdd(a, b);\n}\n"},
		} {
			t.Run(runner.name+"/"+c.name, func(t *testing.T) {
				tree := map[string]string{}
				for k, v := range brokenTree {
					name, only, tagged := cut(k)
					if !tagged || only == runner.name {
						tree[name] = v
					}
				}
				tree["src/math.ts"] = c.content
				root := impacttest.WriteTree(t, tree)
				ix, err := index.Build(context.Background(), index.Options{Root: root, Frameworks: []testdex.Framework{runner.fw}})
				if err != nil {
					t.Fatal(err)
				}
				if len(ix.Tests) == 0 {
					t.Fatalf("no %s test listed", runner.name)
				}
				var got []string
				for _, a := range changes.Build(ix).Select(ix, changes.Set{{Path: "src/math.ts", Status: changes.Modified}}) {
					got = append(got, a.File)
				}
				if !slices.Equal(got, importers) {
					t.Errorf("selected %q, want %q", got, importers)
				}
			})
		}
	}
}

// cut splits "path@runner" into the path and the runner it is for.
func cut(k string) (name, only string, tagged bool) {
	for i := len(k) - 1; i >= 0; i-- {
		if k[i] == '@' {
			return k[:i], k[i+1:], true
		}
	}
	return k, "", false
}
