package python_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

// treeSkips is a library folder holding CPython's test package in its
// shapes that skip on import depending on the tree around it: a function
// of test_tools that checks a folder under Tools/ beside the library (with
// an argument and without, called by attribute, by imported name and
// through a dotted import), sysconfig.is_python_build() in a module and in
// a package's __init__, and a module's own check of a data folder.
var treeSkips = map[string]string{
	"lib/test/__init__.py": "",
	"lib/test/test_tools/__init__.py": `"""Support functions for testing scripts in the Tools directory."""
import os.path
import unittest

basepath = os.path.normpath(
        os.path.dirname(
            os.path.dirname(
                os.path.dirname(
                    os.path.dirname(__file__)))))

toolsdir = os.path.join(basepath, 'Tools')
scriptsdir = os.path.join(toolsdir, 'scripts')

def skip_if_missing(tool=None):
    if tool:
        tooldir = os.path.join(toolsdir, tool)
    else:
        tool = 'scripts'
        tooldir = scriptsdir
    if not os.path.isdir(tooldir):
        raise unittest.SkipTest(f'{tool} directory could not be found')

def load_tests(*args):
    return support.load_package_tests(os.path.dirname(__file__), *args)
`,
	"lib/test/test_tools/test_sundry.py": `import unittest
from test.test_tools import skip_if_missing

skip_if_missing()

class TestSundry(unittest.TestCase):
    def test_sundry(self):
        pass
`,
	"lib/test/test_clinic.py": `import unittest
from test import test_tools

test_tools.skip_if_missing('clinic')

class ClinicTest(unittest.TestCase):
    def test_clinic(self):
        pass
`,
	"lib/test/test_check_c_globals.py": `import unittest
import test.test_tools

test.test_tools.skip_if_missing('c-analyzer')

class ActualChecks(unittest.TestCase):
    def test_check(self):
        pass
`,
	"lib/test/test_asdl_parser.py": `import sysconfig
import unittest

if not sysconfig.is_python_build():
    raise unittest.SkipTest('test irrelevant for an installed Python')

class TestAsdlParser(unittest.TestCase):
    def test_asdl(self):
        pass
`,
	"lib/test/test_gdb/__init__.py": `import os
import sysconfig
import unittest
from test import support

if support.MS_WINDOWS:
    raise unittest.SkipTest("test_gdb doesn't work on Windows")

if not sysconfig.is_python_build():
    raise unittest.SkipTest("test_gdb only works on source builds at the moment.")
`,
	"lib/test/test_gdb/test_misc.py": `import unittest

class StackNavigationTests(unittest.TestCase):
    def test_up(self):
        pass
`,
	"lib/test/test_data.py": `import os
import unittest

DATA = os.path.join(os.path.dirname(__file__), 'data')
if not os.path.isdir(DATA):
    raise unittest.SkipTest('no data')

class DataTests(unittest.TestCase):
    def test_data(self):
        pass
`,
	"lib/test/test_plain.py": `import unittest
from test import test_tools

test_tools.load_tests('clinic')

class PlainTests(unittest.TestCase):
    def test_plain(self):
        pass
`,
}

// treeSkipTests are treeSkips' tests, each with the folders it needs.
var treeSkipTests = map[string]string{
	"test.test_tools.test_sundry.TestSundry.test_sundry":   "Tools/scripts",
	"test.test_clinic.ClinicTest.test_clinic":              "Tools/clinic",
	"test.test_check_c_globals.ActualChecks.test_check":    "Tools/c-analyzer",
	"test.test_asdl_parser.TestAsdlParser.test_asdl":       "Modules/Setup",
	"test.test_gdb.test_misc.StackNavigationTests.test_up": "Modules/Setup",
	"test.test_data.DataTests.test_data":                   "lib/test/data",
	"test.test_plain.PlainTests.test_plain":                "",
}

// TestSkipsInTree checks that a module skipping on import for a reason
// the tree decides lists nothing where the folder it needs is missing (an
// installed library: no Tools/ or Modules/Setup beside it), and all its
// tests where the folder is there (a source tree), the files' extraction
// taken from the cache each time after the first.
func TestSkipsInTree(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	for rel, text := range treeSkips {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	list := func() []string {
		ix, err := index.Build(context.Background(), index.Options{Root: filepath.Join(root, "lib"), CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range ix.Tests {
			if r.Kind == testdex.KindTest && !r.Dynamic {
				names = append(names, r.Name)
			}
		}
		return names
	}
	check := func(have map[string]bool) {
		t.Helper()
		got := list()
		for name, needs := range treeSkipTests {
			if want := needs == "" || have[needs]; slices.Contains(got, name) != want {
				t.Errorf("with %v: listed %s is %v, want %v (it needs %s)", have, name, !want, want, needs)
			}
		}
	}
	check(map[string]bool{})
	have := map[string]bool{}
	for _, needs := range []string{"Tools/scripts", "Tools/clinic", "lib/test/data"} {
		if err := os.MkdirAll(filepath.Join(root, needs), 0o755); err != nil {
			t.Fatal(err)
		}
		have[needs] = true
		check(have)
	}
	if err := os.MkdirAll(filepath.Join(root, "Modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "Modules", "Setup"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	have["Modules/Setup"] = true
	check(have)
}
