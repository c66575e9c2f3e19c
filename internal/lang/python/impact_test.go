package python

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/langtest"
)

// impactOf writes a txtar tree to a temporary folder, detects the Python
// project at its top, and returns the graph of the named test files.
func impactOf(t *testing.T, tree string, tests ...string) *lang.Graph {
	t.Helper()
	dir := t.TempDir()
	for _, f := range txtar.Parse([]byte(tree)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, probs := Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"pyproject.toml"})
	if len(probs) > 0 || p.Grapher == nil {
		t.Fatalf("detect: %v (grapher %v)", probs, p.Grapher)
	}
	g, err := p.Grapher.Graph(&lang.GraphInput{Project: p, Root: dir, Files: tests, ReadFile: os.ReadFile})
	if err != nil {
		t.Fatal(err)
	}
	// The same graph through a scan cache: filled, then read back.
	cacheDir := t.TempDir()
	for _, run := range []string{"cold", "warm"} {
		st, err := cache.OpenScan(cacheDir, dir)
		if err != nil {
			t.Fatal(err)
		}
		cg, err := p.Grapher.Graph(&lang.GraphInput{Project: p, Root: dir, Files: tests, ReadFile: os.ReadFile, Cache: st})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Save(); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(cg, g) {
			t.Errorf("%s cache: the graph differs:\n%+v\nwithout the cache:\n%+v", run, cg, g)
		}
		if run == "warm" && st.Misses > 0 {
			t.Errorf("warm cache: %d misses", st.Misses)
		}
	}
	return g
}

// TestImportsCodecFields fails when a module's facts gain a field the
// cache's codec does not know: encode it, and change the kinds' version.
func TestImportsCodecFields(t *testing.T) {
	langtest.CodecFields(t, langtest.Fields{Value: modImports{}, N: 9}, langtest.Fields{Value: importUse{}, N: 4})
}

// edges renders a graph's edges from one node: "to (why)", sorted.
func edgesFrom(g *lang.Graph, from string) []string {
	var out []string
	for _, e := range g.Edges {
		if e.From == from {
			out = append(out, e.To+" ("+e.Why+")")
		}
	}
	sort.Strings(out)
	return out
}

// reached returns the test files a change of file reaches, as the
// selection walks (package changes): over reversed edges, from the file,
// lang.AnyNode, and lang.UnresolvedNode when the file is added.
func reached(g *lang.Graph, tests []string, file string, added bool) []string {
	users := map[string][]string{}
	for _, e := range g.Edges {
		users[e.To] = append(users[e.To], e.From)
	}
	queue := []string{file, lang.AnyNode}
	if added {
		queue = append(queue, lang.UnresolvedNode)
	}
	seen := map[string]bool{}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		queue = append(queue, users[n]...)
	}
	out := []string{}
	for _, t := range tests {
		if seen[t] {
			out = append(out, t)
		}
	}
	return out
}

// wantEdges compares the edges from a node; data edges (python:data)
// count only when some are wanted.
func wantEdges(t *testing.T, g *lang.Graph, from string, want ...string) {
	t.Helper()
	sort.Strings(want)
	data := strings.Contains(strings.Join(want, "\n"), "python:data")
	got := []string{}
	for _, e := range edgesFrom(g, from) {
		if data || !strings.HasPrefix(e, "python:data") {
			got = append(got, e)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("edges from %s:\n got %q\nwant %q", from, got, want)
	}
}

const pyproject = "-- pyproject.toml --\n[tool.pytest.ini_options]\n"

func TestImpactImportForms(t *testing.T) {
	g := impactOf(t, pyproject+`
-- test_a.py --
import a.b.c
import a.b.pkg as p, os, numpy
from a.b import c, helper, gone
from a import *
-- a/__init__.py --
__all__ = ["star"]
-- a/star.py --
-- a/b/__init__.py --
from .c import helper
-- a/b/c.py --
from . import d
from ..b import d as d2
from .. import star
-- a/b/d.py --
-- a/b/pkg/__init__.py --
-- a/b/fast.pyx --
-- test_b.py --
from a.b import fast
`, "test_a.py", "test_b.py")
	wantEdges(t, g, "test_b.py", "__init__.py (package __init__)", "conftest.py (conftest)",
		"a/__init__.py (from a.b import fast)", "a/b/__init__.py (from a.b import fast)", "a/b/fast.pyx (from a.b import fast)")
	wantEdges(t, g, "test_a.py",
		"__init__.py (package __init__)",
		"a/__init__.py (import a.b.c)",
		"a/b/__init__.py (import a.b.c)",
		"a/b/c.py (import a.b.c)",
		"a/b/pkg/__init__.py (import a.b.pkg)",
		"a/b/gone.py (from a.b import gone)",
		"a/b/gone/__init__.py (from a.b import gone)",
		"? (from a.b import gone (not found))",
		"a/star.py (from a import *)",
		"conftest.py (conftest)")
	wantEdges(t, g, "a/b/c.py",
		"a/b/__init__.py (package __init__)",
		"a/b/d.py (from . import d)",
		"a/__init__.py (from .. import star)",
		"a/star.py (from .. import star)")
	wantEdges(t, g, "a/b/__init__.py", "a/__init__.py (package __init__)", "a/b/c.py (from .c import helper)")
}

func TestImpactFromPackageNameOrSubmodule(t *testing.T) {
	g := impactOf(t, pyproject+`
-- test_a.py --
from pkg import both, name, open_name
-- pkg/__init__.py --
from .both import both
def name(): pass
-- pkg/both.py --
def both(): pass
-- lazy/__init__.py --
def __getattr__(name): pass
-- test_b.py --
from lazy import anything
`, "test_a.py", "test_b.py")
	// open_name is neither a submodule nor a name of pkg/__init__.py.
	wantEdges(t, g, "test_a.py",
		"__init__.py (package __init__)", "conftest.py (conftest)",
		"pkg/__init__.py (from pkg import both, name, open_name)",
		"pkg/both.py (from pkg import both)",
		"pkg/open_name.py (from pkg import open_name)",
		"pkg/open_name/__init__.py (from pkg import open_name)",
		"? (from pkg import open_name (not found))")
	// A module __getattr__ answers any name.
	wantEdges(t, g, "test_b.py", "__init__.py (package __init__)", "conftest.py (conftest)",
		"lazy/__init__.py (from lazy import anything)")
}

func TestImpactNestedImportsCount(t *testing.T) {
	g := impactOf(t, pyproject+`
-- test_a.py --
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from m import T

def test_x():
    import n
    try:
        import o
    except ImportError:
        pass
-- m.py --
-- n.py --
-- o.py --
`, "test_a.py")
	wantEdges(t, g, "test_a.py", "__init__.py (package __init__)", "conftest.py (conftest)",
		"m.py (from m import T)", "n.py (import n)", "o.py (import o)")
}

func TestImpactTransitiveAndReexport(t *testing.T) {
	tree := pyproject + `
-- tests/test_a.py --
from shop import total
-- tests/test_b.py --
from shop.money import cents
-- src/shop/__init__.py --
from .cart import total
-- src/shop/cart.py --
from shop.tax import rate
-- src/shop/tax.py --
-- src/shop/money.py --
-- src/shop/unused.py --
`
	tests := []string{"tests/test_a.py", "tests/test_b.py"}
	g := impactOf(t, tree, tests...)
	for _, c := range []struct {
		file string
		want []string
	}{
		{"src/shop/tax.py", []string{"tests/test_a.py", "tests/test_b.py"}}, // test_b imports shop.money, which runs shop/__init__.py
		{"src/shop/money.py", []string{"tests/test_b.py"}},
		{"src/shop/unused.py", []string{}},
	} {
		if got := reached(g, tests, c.file, false); !reflect.DeepEqual(got, c.want) {
			t.Errorf("change %s: got %q, want %q", c.file, got, c.want)
		}
	}
}

func TestImpactRoots(t *testing.T) {
	g := impactOf(t, `-- pyproject.toml --
[tool.pytest.ini_options]
pythonpath = ["lib"]
-- tests/test_a.py --
import helpers
import extra
import inpkg
import shop
-- tests/helpers.py --
-- lib/extra.py --
-- src/shop/__init__.py --
-- tests/pkg/__init__.py --
-- tests/pkg/test_b.py --
import helpers
from tests.pkg import sibling
-- tests/pkg/sibling.py --
-- json/data.txt --
-- tests/test_c.py --
import json
from json import loads
import os.path
`, "tests/test_a.py", "tests/pkg/test_b.py", "tests/test_c.py")
	wantEdges(t, g, "tests/test_a.py", "tests/__init__.py (package __init__)", "conftest.py (conftest)", "tests/conftest.py (conftest)",
		"tests/helpers.py (import helpers)", "lib/extra.py (import extra)",
		"src/shop/__init__.py (import shop)")
	// tests/pkg is a package: its basedir is tests/, and the rootdir
	// makes tests a namespace package.
	wantEdges(t, g, "tests/pkg/test_b.py", "tests/pkg/__init__.py (package __init__)", "conftest.py (conftest)",
		"tests/conftest.py (conftest)", "tests/pkg/conftest.py (conftest)",
		"tests/helpers.py (import helpers)", "tests/pkg/sibling.py (from tests.pkg import sibling)")
	// json/ holds no Python: the standard library's json is meant.
	wantEdges(t, g, "tests/test_c.py", "tests/__init__.py (package __init__)", "conftest.py (conftest)", "tests/conftest.py (conftest)")
}

func TestImpactConftestChain(t *testing.T) {
	tree := `-- pytest.ini --
[pytest]
-- conftest.py --
pytest_plugins = ["fixtures.db"]
-- fixtures/__init__.py --
-- fixtures/db.py --
from fixtures import model
-- fixtures/model.py --
-- tests/conftest.py --
import helpers
-- tests/helpers.py --
-- tests/unit/test_a.py --
-- tests/test_b.py --
-- other/test_c.py --
`
	tests := []string{"other/test_c.py", "tests/test_b.py", "tests/unit/test_a.py"}
	g := impactOf(t, tree, tests...)
	for _, c := range []struct {
		file  string
		added bool
		want  []string
	}{
		{"tests/conftest.py", false, []string{"tests/test_b.py", "tests/unit/test_a.py"}},
		{"tests/helpers.py", false, []string{"tests/test_b.py", "tests/unit/test_a.py"}},
		{"fixtures/model.py", false, tests}, // through the rootdir conftest's pytest_plugins
		{"tests/unit/conftest.py", true, []string{"tests/unit/test_a.py"}},
		{"other/conftest.py", true, []string{"other/test_c.py"}},
	} {
		if got := reached(g, tests, c.file, c.added); !reflect.DeepEqual(got, c.want) {
			t.Errorf("change %s: got %q, want %q", c.file, got, c.want)
		}
	}
	if !contains(g.Global, "conftest.py") || !contains(g.Global, "pytest.ini") || !contains(g.Global, "requirements*.txt") {
		t.Errorf("global: %q", g.Global)
	}
}

func TestImpactDynamic(t *testing.T) {
	g := impactOf(t, pyproject+`
-- test_a.py --
import importlib
importlib.import_module("m")
__import__("n")
pytest.importorskip("o")
exec("x = 1")
exec("from p import q", ns)
-- test_b.py --
from importlib import import_module
def load(name):
    return import_module(name)
-- test_c.py --
exec(code)
-- test_d.py --
x = __import__(f"mod{n}")
-- test_e.py --
pytest_plugins = PLUGINS
-- test_f.py --
self.executor.exec(x)  # a method named exec is not exec
-- m.py --
-- n.py --
-- o.py --
-- p.py --
`, "test_a.py", "test_b.py", "test_c.py", "test_d.py", "test_e.py", "test_f.py")
	base := []string{"__init__.py (package __init__)", "conftest.py (conftest)"}
	wantEdges(t, g, "test_a.py", append(base, `m.py (importlib.import_module("m"))`, `n.py (__import__("n"))`, `o.py (pytest.importorskip("o"))`,
		`p.py (exec("from p import q", ns))`)...)
	wantEdges(t, g, "test_b.py", append(base, "* (import_module(name))")...)
	wantEdges(t, g, "test_c.py", append(base, "* (exec(code))")...)
	wantEdges(t, g, "test_d.py", append(base, `* (__import__(f"mod{n}"))`)...)
	wantEdges(t, g, "test_e.py", append(base, "* (pytest_plugins = PLUGINS)")...)
	wantEdges(t, g, "test_f.py", base...)
}

// TestImpactExecLocal: an exec of code its caller assembles from its own
// literals (a code generator) imports nothing, so it adds no edge; code
// from elsewhere (a parameter, a loop variable), a template that imports,
// or one that is nothing but a slot stays a dynamic import.
func TestImpactExecLocal(t *testing.T) {
	local := map[string]string{
		"mock.py": "def make(name, ctx):\n    src = \"def %s(*args):\\n    return mock(*args)\" % name\n    exec(src, ctx)\n",
		"lines.py": "def make(name, fields, ns):\n    lines = []\n    lines.append(f\"def {name}(self):\")\n" +
			"    for f in fields:\n        lines.append(f\"    self.{f} = None\")\n    exec(\"\\n\".join(lines), ns)\n",
		"compiled.py": "import textwrap\ndef make(name, g):\n    src = textwrap.dedent(\"\"\"\n        def {0}():\n            return 1\n    \"\"\".format(name))\n" +
			"    exec(compile(src, \"<gen>\", \"exec\"), g)\n",
		"module.py": "CODE = \"x = 1\\n\" + \"y = 2\"\nexec(CODE)\n",
		"cond.py":   "def make(fast, ns):\n    body = \"return 1\" if fast else \"return 2\"\n    exec(f\"def f():\\n    {body}\", ns)\n",
	}
	dynamic := map[string]string{
		"param.py":     "def run(code):\n    exec(code)\n",
		"imports.py":   "def load(mod):\n    src = \"import %s\" % mod\n    exec(src)\n",
		"slot.py":      "def run(code):\n    exec(\"%s\" % code)\n",
		"localslot.py": "def make():\n    body = \"import os\"\n    src = f\"def f():\\n    {body}\"\n    exec(src)\n",
		"rebound.py":   "def run(x):\n    src = \"a = 1\"\n    src = x\n    exec(src)\n",
		"loop.py":      "def run(sources):\n    for src in sources:\n        exec(src)\n",
		"opened.py":    "def run(path):\n    src = \"a = 1\\n\" + open(path).read()\n    exec(src)\n",
		"global.py":    "SRC = load()\ndef run():\n    exec(SRC)\n",
	}
	tree := pyproject
	var tests []string
	for _, files := range []map[string]string{local, dynamic} {
		for name, src := range files {
			test := "test_" + name
			tree += "-- " + name + " --\n" + src + "-- " + test + " --\nimport " + strings.TrimSuffix(name, ".py") + "\n"
			tests = append(tests, test)
		}
	}
	g := impactOf(t, tree, tests...)
	for name := range local {
		wantEdges(t, g, name, "__init__.py (package __init__)")
	}
	for name := range dynamic {
		edges := edgesFrom(g, name)
		if len(edges) == 0 || !slices.ContainsFunc(edges, func(e string) bool { return strings.HasPrefix(e, "* (exec(") }) {
			t.Errorf("%s: no dynamic edge: %q", name, edges)
		}
	}
}

func TestImpactUnparsable(t *testing.T) {
	g := impactOf(t, pyproject+`
-- test_a.py --
import m
-- m.py --
def broken(:
    pass
`, "test_a.py")
	wantEdges(t, g, "m.py", "__init__.py (package __init__)", "* (syntax error (missing )), line 1)")
	if len(g.Problems) != 1 || g.Problems[0].Path != "m.py" || g.Problems[0].Line != 1 || !strings.Contains(g.Problems[0].Message, "impact graph") {
		t.Errorf("problems: %v", g.Problems)
	}
}

func TestImpactAddoptsPlugin(t *testing.T) {
	g := impactOf(t, `-- pyproject.toml --
[tool.pytest.ini_options]
addopts = "-p myplugin -p no:cacheprovider"
-- myplugin.py --
-- test_a.py --
`, "test_a.py")
	wantEdges(t, g, "test_a.py", "__init__.py (package __init__)", "conftest.py (conftest)", "myplugin.py (-p myplugin)")
}

func TestImpactUnittestProject(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"setup.py":              "from setuptools import setup\nsetup()\n",
		"pkg/__init__.py":       "",
		"pkg/core.py":           "",
		"tests/__init__.py":     "",
		"tests/test_core.py":    "import unittest\nfrom pkg import core\n",
		"tests/conftest.py":     "",
		"tests/sub/__init__.py": "",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.Remove(filepath.Join(dir, "tests/conftest.py")) // a conftest.py would make it pytest's
	p, _ := Detector.Detect(&lang.DetectEnv{Root: dir, ReadFile: os.ReadFile}, dir, []string{"setup.py"})
	if p.Frameworks[0].Extractor.Framework() != "unittest" {
		t.Fatalf("framework %s", p.Frameworks[0].Extractor.Framework())
	}
	g, _ := p.Grapher.Graph(&lang.GraphInput{Project: p, Root: dir, Files: []string{"tests/test_core.py"}, ReadFile: os.ReadFile})
	// tests/sub is imported by nothing: it is data to the tests beside it.
	wantEdges(t, g, "tests/test_core.py", "tests/__init__.py (package __init__)",
		"pkg/__init__.py (from pkg import core)", "pkg/core.py (from pkg import core)", "python:data tests/ (data beside it)")
	if g.Owners["tests/**"] != "python:data tests/" {
		t.Errorf("owners: %q", g.Owners)
	}
}

func TestImpactDataBesideModules(t *testing.T) {
	g := impactOf(t, pyproject+`
-- README.md --
-- docs/index.md --
-- tests/test_a.py --
import helpers
-- tests/helpers.py --
-- tests/expected.json --
-- tests/cases/one.toml --
-- tests/cases/deep/two.toml --
-- tests/unit/test_b.py --
-- tests/unit/sample.csv --
-- src/pkg/__init__.py --
-- src/pkg/schema.json --
-- tests/test_c.py --
import pkg
`, "tests/test_a.py", "tests/test_c.py", "tests/unit/test_b.py")
	for key, want := range map[string]string{
		"tests/**":        "python:data tests/",
		"tests/*.py":      moduleFileNode,
		"tests/unit/**":   "python:data tests/unit/",
		"tests/unit/*.py": moduleFileNode,
		"src/pkg/**":      "python:data src/pkg/",
		"src/pkg/*.py":    moduleFileNode,
	} {
		if got := g.Owners[key]; got != want {
			t.Errorf("owner of %s: %q, want %q", key, got, want)
		}
	}
	if len(g.Owners) != 6 {
		t.Errorf("owners: %q; the project folder's files are no test's data", g.Owners)
	}
	wantEdges(t, g, "tests/helpers.py", "tests/__init__.py (package __init__)", "python:data tests/ (data beside it)")
	wantEdges(t, g, "tests/unit/test_b.py", "conftest.py (conftest)", "tests/conftest.py (conftest)",
		"tests/unit/conftest.py (conftest)", "tests/unit/__init__.py (package __init__)",
		"python:data tests/unit/ (data beside it)", "python:data tests/ (test data above it)")
	wantEdges(t, g, "src/pkg/__init__.py", "src/__init__.py (package __init__)", "python:data src/pkg/ (data beside it)")
}
