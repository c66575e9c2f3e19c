package js

import (
	"os"
	"path/filepath"
	"testing"
)

// TestModuleSyntax holds what makes a file an ES module for node's
// detection (and what does not: an await in a function, words in
// comments and strings).
func TestModuleSyntax(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"a.js", "const x = require('x')\nmodule.exports = x\n", false},
		{"a.js", "// export the handler; import it later\nmodule.exports = 'import'\n", false},
		{"a.js", "async function f() { await g() }\nconst h = async () => { for await (const x of y) {} }\n", false},
		{"a.js", "class A { async m() { await 1 } }\n", false},
		{"a.js", "import x from 'x'\n", true},
		{"a.js", "export const a = 1\n", true},
		{"a.js", "console.log(import.meta.url)\n", true},
		{"a.js", "module.exports = () => import('./b.mjs')\nimport('./c.js')\n", false},
		{"a.js", "await main()\n", true},
		{"a.js", "if (x) {\n  await main()\n}\n", true},
		{"a.js", "for await (const x of y) {}\n", true},
		{"a.js", "const x = import('y')\nawait (\n", true}, // does not parse: counted as a module
		{"a.ts", "import type { A } from './a'\n", true},
	} {
		if got := moduleSyntax(c.name, []byte(c.src)); got != c.want {
			t.Errorf("moduleSyntax(%s, %q) = %v, want %v", c.name, c.src, got, c.want)
		}
	}
}

// TestProjectModules checks the verdict on a project's files: .mjs,
// a package.json of type module, a .js with module syntax, a hashbang
// script, and TypeScript apart; node_modules is not read.
func TestProjectModules(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"commonjs", map[string]string{"package.json": `{"type":"commonjs"}`, "index.js": "module.exports = 1\n",
			"node_modules/x/index.mjs": "export default 1\n", "node_modules/x/package.json": `{"type":"module"}`,
			"types/index.d.ts": "export declare const x: number\n"}, "no"},
		{"typescript", map[string]string{"package.json": `{}`, "src/a.ts": "import { b } from './b'\n"}, "ts"},
		{"mjs", map[string]string{"package.json": `{}`, "test/a.test.mjs": "1\n"}, ""},
		{"type module", map[string]string{"package.json": `{}`, "sub/package.json": `{"type":"module"}`}, ""},
		{"bad package.json", map[string]string{"package.json": `{`}, ""},
		{"detected", map[string]string{"package.json": `{}`, "lib/a.js": "export const a = 1\n"}, ""},
		{"hashbang", map[string]string{"package.json": `{}`, "bin/cli": "#!/usr/bin/env node\nimport './x.js'\n"}, ""},
		{"other hashbang", map[string]string{"package.json": `{}`, "bin/run": "#!/bin/sh\nexport A=1\n"}, "no"},
	} {
		dir := t.TempDir()
		for name, src := range c.files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cache := t.TempDir()
		for run := 0; run < 2; run++ { // the second from the memo
			if got := projectModules(dir, cache); got != c.want {
				t.Errorf("%s (run %d): projectModules = %q, want %q", c.name, run+1, got, c.want)
			}
		}
	}
	// A project folder without a package.json is typed by the nearest
	// one above it.
	outer := t.TempDir()
	os.WriteFile(filepath.Join(outer, "package.json"), []byte(`{"type":"module"}`), 0o644)
	os.MkdirAll(filepath.Join(outer, "proj"), 0o755)
	os.WriteFile(filepath.Join(outer, "proj", "a.test.js"), []byte("require('node:test')\n"), 0o644)
	if got := projectModules(filepath.Join(outer, "proj"), ""); got != "" {
		t.Errorf("a project under a package of type module: %q, want \"\"", got)
	}
	os.WriteFile(filepath.Join(outer, "package.json"), []byte(`{}`), 0o644)
	if got := projectModules(filepath.Join(outer, "proj"), ""); got != "no" {
		t.Errorf("a project under a package without a type: %q, want \"no\"", got)
	}
	// A symbolic link keeps the hooks: what it leads to is not read.
	os.Symlink(t.TempDir(), filepath.Join(outer, "proj", "linked"))
	if got := projectModules(filepath.Join(outer, "proj"), ""); got != "" {
		t.Errorf("a project with a symbolic link: %q, want \"\"", got)
	}
	if got := projectModules(filepath.Join(t.TempDir(), "missing"), ""); got != "" {
		t.Errorf("a missing folder: %q, want \"\"", got)
	}
}
