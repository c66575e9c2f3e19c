package js_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
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
