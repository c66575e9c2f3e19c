package python

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

func TestParseDoctestOptions(t *testing.T) {
	o := parseDoctestOptions([]string{"--doctest-modules", "--doctest-glob=*.rst", "--doctest-glob", "test*.txt", "--import-mode", "importlib"})
	if !o.modules || !slices.Equal(o.globs, []string{"*.rst", "test*.txt"}) || !o.importlib || o.disabled {
		t.Errorf("got %+v", o)
	}
	if g := parseDoctestOptions(nil).textGlobs(); !slices.Equal(g, []string{"test*.txt"}) {
		t.Errorf("default globs %q", g)
	}
	o = parseDoctestOptions([]string{"--doctest-modules", "-p", "no:doctest"})
	if o.modules || o.textGlobs() != nil {
		t.Errorf("-p no:doctest left %+v", o)
	}
	if o := parseDoctestOptions([]string{"-pno:doctest"}); !o.disabled {
		t.Errorf("-pno:doctest not read")
	}
}

func TestExamples(t *testing.T) {
	for _, c := range []struct {
		doc               string
		has, allSkip, bad bool
	}{
		{"no examples", false, false, false},
		{">>> 1\n1", true, false, false},
		{"  >>> # only a comment\n", false, false, false},
		{">>>", false, false, false},
		{">>> # comment\n... x = 1", true, false, false},
		{">>> 1/0  # doctest: +SKIP\n>>> 2  # doctest: +ELLIPSIS, +SKIP", true, true, false},
		{">>> 1/0  # doctest: +SKIP\n>>> 2", true, false, false},
		{">>>1", true, false, true},
		{"text >>> inline", false, false, false},
		{"\t>>> 1", true, false, false},
	} {
		has, skip, bad := examples(c.doc)
		if has != c.has || skip != c.allSkip || bad != c.bad {
			t.Errorf("examples(%q) = %v %v %v, want %v %v %v", c.doc, has, skip, bad, c.has, c.allSkip, c.bad)
		}
	}
}

func TestScanDoctests(t *testing.T) {
	src := []byte(`"""Mod.

>>> 1
"""
def f():
    """>>> f()"""

def f():
    """Rebound without examples."""

def deco(fn):
    def inner():
        return fn()
    return inner

@deco
def lost():
    """>>> lost()"""

class C:
    @property
    def p(self):
        """>>> C().p"""

    @p.setter
    def p(self, v):
        """no examples"""

    def _m(self):
        r""">>> 'a\n'"""

    def doc_f(self):
        f""">>> 1"""

__test__ = {"k": ">>> 1", "c": C, "x": "no"}
g = f
g.__doc__ = ">>> 2"
`)
	p, release := tsgrammars.Parser(tsgrammars.Python)
	defer release()
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	docs, dyn, bad := scanDoctests(tree.RootNode(), src)
	var got []string
	for _, d := range docs {
		got = append(got, d.Qual)
	}
	if want := []string{"", "C.p", "C._m", "__test__.k"}; !slices.Equal(got, want) || bad != 0 {
		t.Errorf("doctests %q (bad %d), want %q", got, bad, want)
	}
	if len(dyn) != 1 || dyn[0].What != "g.__doc__" {
		t.Errorf("dynamic %+v", dyn)
	}
}

func TestDoctestModuleName(t *testing.T) {

	root := t.TempDir()
	for _, f := range []string{"ns/part/__init__.py", "ns/part/m.py", "src/pkg/__init__.py", "src/pkg/sub/__init__.py", "src/pkg/sub/m.py", "tests/test_a.py", "tests/x.y/t.py"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		rel       string
		importlib bool
		want      string
	}{
		{"src/pkg/__init__.py", false, "pkg"},
		{"src/pkg/sub/m.py", false, "pkg.sub.m"},
		{"src/pkg/sub/m.py", true, "pkg.sub.m"},
		{"tests/test_a.py", false, "test_a"},
		{"tests/test_a.py", true, "tests.test_a"},
		{"tests/x.y/t.py", true, "tests.x_y.t"},
	} {
		if got := doctestModuleName(filepath.Join(root, filepath.FromSlash(c.rel)), root, root, doctestOptions{importlib: c.importlib}); got != c.want {
			t.Errorf("%s (importlib %v) = %q, want %q", c.rel, c.importlib, got, c.want)
		}
	}
	// consider_namespace_packages: the name is importable from the
	// rootdir (a namespace folder joins it) or from src.
	for rel, want := range map[string]string{"ns/part/m.py": "ns.part.m", "src/pkg/sub/m.py": "pkg.sub.m", "tests/test_a.py": "tests.test_a"} {
		if got := doctestModuleName(filepath.Join(root, filepath.FromSlash(rel)), root, root, doctestOptions{namespace: true}); got != want {
			t.Errorf("%s (namespace) = %q, want %q", rel, got, want)
		}
	}
	if got := doctestModuleName(filepath.Join(root, "ns/part/m.py"), root, root, doctestOptions{}); got != "part.m" {
		t.Errorf("ns/part/m.py = %q, want part.m", got)
	}
}
