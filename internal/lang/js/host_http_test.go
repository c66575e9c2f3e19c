package js_test

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang/js"
)

// TestHostHTTPMethods checks that http.METHODS is the host node's (here a
// stand-in list), read in the test file and through a local module's
// export as Express's tests read it (exports.methods =
// METHODS.map(...) in lib/utils.js), and that without a node the titles
// stay one dynamic record.
func TestHostHTTPMethods(t *testing.T) {
	defer js.SetHostHTTPMethods(nil)()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"package.json": `{"name": "p", "devDependencies": {"mocha": "^11.0.0"}, "scripts": {"test": "mocha test/"}}`,
		"lib/utils.js": "'use strict';\nvar { METHODS } = require('node:http');\nexports.methods = METHODS.map((method) => method.toLowerCase());\n",
		"test/app.js": `var methods = require('../lib/utils').methods;
describe('methods', function () {
  methods.forEach(function (method) {
    if (method === 'connect') return;
    it('should include ' + method.toUpperCase(), function () {});
  });
});
`,
		"test/b.js": "const http = require('http');\nhttp.METHODS.forEach((m) => it(m, () => {}));\n",
	} {
		writeFile(t, filepath.Join(dir, name), []byte(src))
	}
	list := func() []string {
		ix, err := index.Build(context.Background(), index.Options{Root: dir, CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range ix.Tests {
			if r.Kind != testdex.KindTest {
				continue
			}
			n := r.File + ": " + r.Name
			if r.Dynamic {
				n = "dynamic " + n
			}
			got = append(got, n)
		}
		sort.Strings(got)
		return got
	}
	js.SetHostHTTPMethods([]string{"CONNECT", "GET", "M-SEARCH"})
	want := "test/app.js: methods > should include GET|test/app.js: methods > should include M-SEARCH|test/b.js: CONNECT|test/b.js: GET|test/b.js: M-SEARCH"
	if got := strings.Join(list(), "|"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	js.SetHostHTTPMethods(nil)
	want = "dynamic test/app.js: methods > {'should include ' + method.toUpperCase()}|dynamic test/b.js: {m}"
	if got := strings.Join(list(), "|"); got != want {
		t.Errorf("without node, got  %s\nwant %s", got, want)
	}
}
