package python

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestScanImports(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // module|names|why
		ok   bool
	}{
		{"import a.b as c, d\nfrom . import x\nfrom ..m import (y as z,\n  w,  # a comment\n)\n", []string{
			"a.b||import a.b", "d||import d", ".|x|from . import x", "..m|y,w|from ..m import y, w"}, true},
		{"from __future__ import annotations\nfrom p import *\n", []string{"p|*|from p import *"}, true},
		{"def f():\n    import g\nif x: import h; import i\ntry: import j\nexcept ImportError: j = None\n", []string{
			"g||import g", "h||import h", "i||import i", "j||import j"}, true},
		{"s = '''\nimport not_me\n'''\n# import nor_me\nt = f\"{x['import']!r:>{w}}\" \\\n  'import'\nimport me\n", []string{"me||import me"}, true},
		{"x = f\"{f'{y[\"import\"]}'}\"\nfrom a import \\\n  b\n", []string{"a|b|from a import b"}, true},
		{"\ufeffimport bom\n", []string{"bom||import bom"}, true},
		{"a = rf'(\\{{)' + f'\\{x}' + f'\\N{DASH} {y}'\nimport z\n", []string{"z||import z"}, true},
		{"np = import_module('numpy')\nm = importlib . import_module(\n  'm',  # the module\n  package=__name__)\n" +
			"x = __import__(name)\ny = sp.import_module('a' + b)\nfrom importlib import import_module\n", []string{
			"importlib|import_module|from importlib import import_module",
			"numpy||import_module('numpy')", "m||importlib . import_module( 'm', # the module package=__na...",
			"*|__import__(name)", "*|sp.import_module('a' + b)"}, true},
		{"exec(code)\n", nil, false},
		{"def import_module(name, package=None):\n    pass\n", nil, true},
		{"f(x).import_module('a')\n", nil, false},
		{"import_module('.rel', __name__)\n", nil, false},
		{"x = f'{import_module(\"a\")}'\n", nil, false},
		{"x = 'unterminated\nimport a\n", nil, false},
		{"x = (1,\nimport a\n", nil, false},
		{"x = y.import\n", nil, false},
		{"from a import (b\n", nil, false},
	} {
		f, ok := scanImports([]byte(c.src))
		var got []string
		if f != nil {
			for _, u := range f.imports {
				got = append(got, u.module+"|"+strings.Join(u.names, ",")+"|"+u.why)
			}
			for _, d := range f.dynamic {
				got = append(got, "*|"+d)
			}
		}
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %q (ok %v)\nwant %q (ok %v)", c.src, got, ok, c.want, c.ok)
		}
	}
}

// TestScanImportsMatchesTree checks the lexical scan against the
// tree-sitter reading on real code: every file both read must give the
// same imports. The corpus is $TESTDEX_PY_CORPUS (folders separated by
// the list separator), or else a sample of the installed Python's
// standard library.
func TestScanImportsMatchesTree(t *testing.T) {
	dirs := filepath.SplitList(os.Getenv("TESTDEX_PY_CORPUS"))
	limit := 0
	if len(dirs) == 0 {
		out, err := exec.Command(Python, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
		if err != nil {
			t.Skipf("%s is not on PATH and TESTDEX_PY_CORPUS is not set: no corpus", Python)
		}
		lib := strings.TrimSpace(string(out))
		for _, d := range []string{"json", "email", "asyncio", "importlib", "unittest", "logging", "xml", "http", "concurrent"} {
			dirs = append(dirs, filepath.Join(lib, d))
		}
		limit = 400
	}
	files, same, gaveUp := 0, 0, 0
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") || limit > 0 && files >= limit {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			tree := parseImports(data)
			if tree.bad != "" {
				return nil
			}
			files++
			scan, ok := scanImports(data)
			if !ok {
				gaveUp++
				return nil
			}
			var want []importUse
			for _, u := range tree.imports {
				if u.why != "pytest_plugins" {
					want = append(want, u)
				}
			}
			if !sameUses(scan.imports, want) || !reflect.DeepEqual(scan.dynamic, tree.dynamic) {
				t.Errorf("%s:\n scan %v %q\n tree %v %q", p, scan.imports, scan.dynamic, want, tree.dynamic)
				return nil
			}
			same++
			return nil
		})
	}
	t.Logf("%d files: %d read alike, %d left to tree-sitter", files, same, gaveUp)
	if files > 0 && gaveUp*10 > files {
		t.Errorf("the scan gave up on %d of %d files", gaveUp, files)
	}
}

func sameUses(a, b []importUse) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].module != b[i].module || a[i].why != b[i].why || !reflect.DeepEqual(a[i].names, b[i].names) || a[i].line != b[i].line {
			return false
		}
	}
	return true
}
