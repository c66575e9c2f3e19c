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

// TestFolderTitles lists the tests titled from a folder's entries and
// from the modules a computed require loads from it (dayjs's
// test/locale/keys.test.js: a push per entry in a readdirSync forEach,
// then a test per pushed element), in node's order (sorted by name);
// titles read from a folder outside the project, from readdirSync with
// options or from a module that is not the project's stay dynamic.
func TestFolderTitles(t *testing.T) {
	dir := t.TempDir()
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
	write("src/locale/fr.js", "import d from '../index'\nconst locale = { name: 'fr', ordinal(n) { return n + 'e' }, weekdays: 'a_b'.split('_') }\nd.locale(locale)\nexport default locale\n")
	write("src/locale/de.js", "const locale = { name: 'de', get x() { return 1 } }\nexport default locale\n")
	write("src/locale/en-gb.js", "module.exports = { name: 'en-gb' }\n")
	write("test/keys.test.js", `import fs from 'fs'
import path from 'path'
const localeDir = '../src/locale'
const Locale = []
fs.readdirSync(path.join(__dirname, localeDir))
  .forEach((file) => {
    const fPath = path.join(__dirname, localeDir, file)
    Locale.push({ name: file, content: require(fPath), text: fs.readFileSync(fPath, 'utf-8') })
  })
Locale.forEach((locale) => {
  it('keys for ' + (locale.content.default || locale.content).name, () => {})
  it('file ' + locale.name, () => {})
})
for (const f of fs.readdirSync(path.join(__dirname, '../src/locale'))) {
  test(f, () => {})
}
for (const f of fs.readdirSync(path.join(__dirname, '../..'))) {
  test('outside ' + f, () => {})
}
for (const f of fs.readdirSync(path.join(__dirname, '../src/locale'), { withFileTypes: true })) {
  test('typed ' + f, () => {})
}
`)
	ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
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
	want := []string{"keys for fr", "keys for en-gb", "dynamic {'keys for ' + (locale.content.default || locale.content).name}",
		"file de.js", "file en-gb.js", "file fr.js", "de.js", "en-gb.js", "fr.js",
		"dynamic {'outside ' + f}", "dynamic {'typed ' + f}"}
	sort.Strings(want)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestJasmineTitles checks that an array title is named as jest-jasmine2
// names it, String(title), where the project's Jest runs with it (a
// version before 27 without testRunner, or testRunner jest-jasmine2),
// and stays dynamic under jest-circus, which refuses it.
func TestJasmineTitles(t *testing.T) {
	for _, c := range []struct {
		version, config string
		want            string
	}{
		{"22.4.4", `{}`, "2010,6|d > [object Object]"},
		{"29.7.0", `{}`, "dynamic d > {{a: 1}}|dynamic {[2010, 6]}"},
		{"29.7.0", `{"testRunner": "jest-jasmine2"}`, "2010,6|d > [object Object]"},
		{"26.6.3", `{"testRunner": "jest-circus/runner"}`, "dynamic d > {{a: 1}}|dynamic {[2010, 6]}"},
	} {
		dir := t.TempDir()
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
		write("package.json", `{"name": "p", "devDependencies": {"jest": "^22.0.0"}, "jest": `+c.config+`}`)
		write("node_modules/jest/package.json", `{"name": "jest", "version": "`+c.version+`"}`)
		write("test/a.test.js", "it([2010, 6], () => {})\ndescribe('d', () => { it({a: 1}, () => {}) })\n")
		ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range ix.Tests {
			if r.Kind != "test" {
				continue
			}
			n := r.Name
			if r.Dynamic {
				n = "dynamic " + n
			}
			got = append(got, n)
		}
		sort.Strings(got)
		if strings.Join(got, "|") != c.want {
			t.Errorf("jest %s, %s: got %q, want %q", c.version, c.config, got, c.want)
		}
	}
}
