package python

import (
	"runtime"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/langtest"
)

// TestHostConditions checks classes and tests defined under platform
// conditions, cut down from CPython's Lib/test (test_asyncio.test_events,
// test_kqueue, test_winreg) and jinja2's: on Linux a branch whose
// condition is known false is not listed, and one whose condition is
// unknown is.
func TestHostConditions(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the expectations are Linux's")
	}
	for _, tc := range []struct{ name, src, want string }{
		{"sys.platform if/else", `import sys, unittest
if sys.platform == 'win32':
    class ProactorTests(unittest.TestCase):
        def test_a(self): pass
else:
    class UnixTests(unittest.TestCase):
        def test_b(self): pass
`, "UnixTests.test_b"},
		{"hasattr of a stdlib module", `import selectors, unittest
class Base(unittest.TestCase):
    def test_base(self): pass
if hasattr(selectors, "KqueueSelector"):
    class KqueueTests(unittest.TestCase):
        def test_k(self): pass
if hasattr(selectors, "EpollSelector"):
    class EpollTests(unittest.TestCase):
        def test_e(self): pass
`, "Base.test_base,EpollTests.test_e"},
		{"unknown keeps both", `import sys, unittest, os
if os.environ.get("X") or sys.platform == 'win32':
    class A(unittest.TestCase):
        def test_a(self): pass
else:
    class B(unittest.TestCase):
        def test_b(self): pass
`, "A.test_a,B.test_b"},
		{"elif chain, not in, startswith", `import sys, os, unittest
if sys.platform in ('win32', 'cygwin'):
    class W(unittest.TestCase):
        def test_w(self): pass
elif not sys.platform.startswith(('linux', 'freebsd')):
    class M(unittest.TestCase):
        def test_m(self): pass
elif os.name != 'posix':
    class N(unittest.TestCase):
        def test_n(self): pass
else:
    class L(unittest.TestCase):
        def test_l(self): pass
`, "L.test_l"},
		{"a platform in a name is not the host's", `import unittest
sys = object()
if sys.platform == 'win32':
    class W(unittest.TestCase):
        def test_w(self): pass
`, "W.test_w"},
		{"module skipped on the host", `import sys, unittest
if not sys.platform.startswith('win'):
    raise unittest.SkipTest("test only applies to Windows")
class T(unittest.TestCase):
    def test_t(self): pass
`, ""},
		{"import_module of a Windows module", `import unittest
from test.support import import_helper
import_helper.import_module('winreg', required_on=['win'])
class T(unittest.TestCase):
    def test_t(self): pass
`, ""},
		{"import_module in a with block (test_msilib)", `import unittest, warnings
from test.support.import_helper import import_module
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    msilib = import_module('msilib')
class T(unittest.TestCase):
    def test_t(self): pass
`, ""},
		{"get_attribute of an attribute Linux lacks (test_startfile)", `import unittest, os
from test import support
startfile = support.get_attribute(os, 'startfile')
class T(unittest.TestCase):
    def test_t(self): pass
`, ""},
		{"get_attribute of one Linux has", `import unittest, os
from test import support
fork = support.get_attribute(os, 'fork')
class T(unittest.TestCase):
    def test_t(self): pass
`, "T.test_t"},
		{"importlib.import_module is an ImportError, not a skip", `import unittest, importlib
importlib.import_module('winreg')
class T(unittest.TestCase):
    def test_t(self): pass
`, "T.test_t"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := langtest.Extract(Extractor{Unittest: true}, "test_x.py", tc.src)
			var got []string
			for _, c := range decodeFacts(r.Facts).Classes {
				for _, m := range c.Methods {
					got = append(got, c.Name+"."+m.Name)
				}
			}
			if got := strings.Join(got, ","); got != tc.want {
				t.Errorf("tests = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestHostConditionPytest checks pytest's module-level skip under a
// platform condition: pytest collects nothing from the module.
func TestHostConditionPytest(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the expectations are Linux's")
	}
	src := "import sys, pytest\nif sys.platform == 'linux':\n    pytest.skip('not here', allow_module_level=True)\ndef test_a(): pass\n"
	if got := names(extract(src)); len(got) != 0 {
		t.Errorf("tests = %v, want none", got)
	}
	src = "import sys, pytest\nif sys.platform == 'win32':\n    pytest.skip('not here', allow_module_level=True)\ndef test_a(): pass\n"
	if got := strings.Join(names(extract(src)), ","); got != "test_a" {
		t.Errorf("tests = %q, want test_a", got)
	}
}
