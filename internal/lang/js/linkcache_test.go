package js_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang/js"
)

// TestLinkedCache lists, through one cache folder, a project whose test
// files take titles from an imported data module, a helper module and a
// folder's modules loaded by a computed require: a warm listing of the
// unchanged tree parses no file, and an edit to any of those modules (or
// a new entry in the folder) changes the next warm listing.
func TestLinkedCache(t *testing.T) {
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
	write("package.json", `{"name": "p", "devDependencies": {"mocha": "^11.0.0"}}`)
	write("lib/data.js", "exports.methods = ['get', 'put'];\n")
	write("lib/pure.js", "exports.upper = function (s) { return s + '!' };\n")
	write("lib/locale/a.js", "module.exports = { name: 'alpha' };\n")
	write("test/data.test.js", `const { methods } = require('../lib/data');
const { upper } = require('../lib/pure');
methods.forEach((m) => it(upper(m), () => {}));
`)
	write("test/locale.test.js", `const fs = require('fs');
const path = require('path');
const dir = path.join(__dirname, '../lib/locale');
fs.readdirSync(dir).forEach((f) => {
  const l = require(path.join(dir, f));
  it('locale ' + l.name, () => {});
});
`)
	list := func() (names string, parsed int64) {
		t.Helper()
		before := js.Parses()
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
		return strings.Join(got, "|"), js.Parses() - before
	}
	steps := []struct {
		name, file, src, want string
	}{
		{"cold", "", "", "get!|locale alpha|put!"},
		{"data module edited", "lib/data.js", "exports.methods = ['get', 'post', 'put'];\n", "get!|locale alpha|post!|put!"},
		{"pure function edited", "lib/pure.js", "exports.upper = function (s) { return s + '?' };\n", "get?|locale alpha|post?|put?"},
		{"required module edited", "lib/locale/a.js", "module.exports = { name: 'alef' };\n", "get?|locale alef|post?|put?"},
		{"folder entry added", "lib/locale/b.js", "module.exports = { name: 'bet' };\n", "get?|locale alef|locale bet|post?|put?"},
	}
	for _, s := range steps {
		if s.file != "" {
			write(s.file, s.src)
		}
		got, parsed := list()
		if got != s.want {
			t.Errorf("%s: got %q, want %q", s.name, got, s.want)
		}
		if parsed == 0 {
			t.Errorf("%s: nothing parsed", s.name)
		}
		if got, parsed := list(); got != s.want || parsed != 0 {
			t.Errorf("%s, warm: got %q with %d files parsed, want %q with none", s.name, got, parsed, s.want)
		}
	}
}
