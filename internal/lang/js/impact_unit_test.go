package js

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestExportTargets(t *testing.T) {
	exports := `{
		".": {"types": "./d/i.d.ts", "node": {"import": "./n.mjs", "require": "./n.cjs"}, "default": "./i.js"},
		"./sub": ["./s.js", "./s2.js"],
		"./feat/*": "./src/feat/*.ts",
		"./feat/x/*": "./src/x/*.ts",
		"./internal/*": null,
		"./legacy/": "./old/"
	}`
	var exp any
	if err := json.Unmarshal([]byte(exports), &exp); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string][]string{
		".":             {"./i.js", "./n.mjs", "./n.cjs", "./d/i.d.ts"}, // conditions sorted by name
		"./sub":         {"./s.js", "./s2.js"},
		"./feat/a":      {"./src/feat/a.ts"},
		"./feat/x/b":    {"./src/x/b.ts"}, // the longest prefix wins
		"./internal/z":  nil,
		"./legacy/q.js": {"./old/q.js"},
		"./nope":        nil,
	} {
		if got := exportTargets(exp, key); !reflect.DeepEqual(got, want) {
			t.Errorf("exportTargets(%q) = %q, want %q", key, got, want)
		}
	}
	if got := exportTargets("./main.js", "."); !reflect.DeepEqual(got, []string{"./main.js"}) {
		t.Errorf("string exports: %q", got)
	}
	if got := exportTargets(map[string]any{"import": "./a.mjs"}, "./x"); got != nil {
		t.Errorf("conditions only map a subpath: %q", got)
	}
}

func TestPackageName(t *testing.T) {
	for spec, want := range map[string][2]string{
		"lodash":            {"lodash", ""},
		"lodash/fp/map":     {"lodash", "fp/map"},
		"@scope/pkg":        {"@scope/pkg", ""},
		"@scope/pkg/a/b.js": {"@scope/pkg", "a/b.js"},
	} {
		if n, s := packageName(spec); n != want[0] || s != want[1] {
			t.Errorf("packageName(%q) = %q, %q; want %q", spec, n, s, want)
		}
	}
}

func TestPathExpr(t *testing.T) {
	for src, want := range map[string]string{
		`path.resolve(__dirname, './src')`:                 "/p/src",
		`resolve(__dirname, "src", 'lib')`:                 "/p/src/lib",
		`path.join(process.cwd(), "a")`:                    "/p/a",
		`fileURLToPath(new URL('./src', import.meta.url))`: "/p/src",
		`new URL("./x/", import.meta.url).pathname`:        "/p/x",
		`path.resolve(import.meta.dirname, '/abs')`:        "/abs",
		`path.resolve(__dirname,
		   './multi')`: "/p/multi",
	} {
		if got, ok := pathExpr(src, "/p"); !ok || got != want {
			t.Errorf("pathExpr(%q) = %q, %v; want %q", src, got, ok, want)
		}
	}
	for _, src := range []string{`path.resolve(root, 'src')`, `process.env.SRC`, "`${__dirname}/src`"} {
		if got, ok := pathExpr(src, "/p"); ok {
			t.Errorf("pathExpr(%q) = %q, want not read", src, got)
		}
	}
}

func TestScanRefs(t *testing.T) {
	res, err := scan("a.ts", []byte(`
import a from './a';
import type { T } from './t';
export * from './re';
import x = require('./x');
const b = require('./b' );
const c = await import("./c");
jest.mock('./m', () => ({}));
const d = require(name);
const e = import(`+"`./loc/${lang}.js`"+`);
const f = require('./dir/' + name);
const g = require.context('./ctx', true, /\.js$/);
`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.refs {
		got = append(got, r.kind+" "+r.spec+"|"+r.prefix)
	}
	want := []string{"import ./a|", "import type ./t|", "re-export ./re|", "require ./x|", "require ./b|", "import() ./c|",
		"jest.mock ./m|", "require |", "import() |./loc/", "require |./dir/", "require.context |./ctx/",
		"path string ./dir/|", "path string ./ctx|"} // strings that look like paths: edges only to files that exist
	if !reflect.DeepEqual(got, want) {
		t.Errorf("refs:\n got %q\nwant %q", got, want)
	}
	if res.syntaxLine != 0 {
		t.Errorf("syntax error at line %d in a valid file", res.syntaxLine)
	}
	if _, err := scan("b.js", []byte("a\x00b")); err == nil {
		t.Error("a binary file scans without an error")
	}
}
