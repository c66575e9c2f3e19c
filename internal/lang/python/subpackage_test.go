package python_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/testdex/testdex/index"
)

// TestSubpackageSetupPy checks that a package inside another package
// whose one manifest is a setup.py (CPython's test.test_cppext builds
// an extension with it) is part of the project above, its tests listed
// under the outer package's names, while a folder with a setup.py and
// no package around it is a project of its own.
func TestSubpackageSetupPy(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"test/__init__.py":          "",
		"test/test_ext/__init__.py": "import unittest\n\nclass TestExt(unittest.TestCase):\n    def test_build(self):\n        pass\n",
		"test/test_ext/setup.py":    "from setuptools import setup\nsetup(name='ext')\n",
		"tool/setup.py":             "from setuptools import setup\nsetup(name='tool')\n",
		"tool/test_tool.py":         "import unittest\n\nclass TestTool(unittest.TestCase):\n    def test_run(self):\n        pass\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := index.Build(context.Background(), index.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	var names, projects []string
	for _, r := range ix.Tests {
		if r.Kind == "test" {
			names = append(names, r.Name)
		}
	}
	for _, p := range ix.Projects {
		projects = append(projects, p.Dir)
	}
	slices.Sort(names)
	slices.Sort(projects)
	if want := []string{"test.test_ext.TestExt.test_build", "test_tool.TestTool.test_run"}; !slices.Equal(names, want) {
		t.Errorf("tests %q, want %q", names, want)
	}
	if want := []string{".", "tool"}; !slices.Equal(projects, want) {
		t.Errorf("projects %q, want %q", projects, want)
	}
}
