package python

import (
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// TestDirSkippers checks which module-level functions are read as
// raising SkipTest unless a folder exists, and the folder each call
// checks, relative to the module's folder; any other statement before
// the check, an elif, a second parameter or a default other than None
// leaves the call unknown.
func TestDirSkippers(t *testing.T) {
	head := "import os\nimport unittest\nfrom os.path import dirname, join\nROOT = dirname(dirname(__file__))\n"
	cases := []struct {
		name, src   string
		given, bare string
		known       bool
	}{
		{"both", "def f(tool=None):\n    if tool:\n        d = os.path.join(ROOT, 'Tools', tool)\n    else:\n        d = join(ROOT, 'Tools', 'scripts')\n    if not os.path.isdir(d):\n        raise unittest.SkipTest('x')\n",
			"../Tools/\x00", "../Tools/scripts", true},
		{"required", "def f(tool):\n    '''Doc.'''\n    if not os.path.exists(os.path.join(ROOT, tool)):\n        raise unittest.SkipTest(tool)\n",
			"../\x00", "", true},
		{"no argument", "def f():\n    if not os.path.isdir(os.path.join(os.path.dirname(__file__), 'data')):\n        raise unittest.SkipTest('x')\n",
			"", "data", true},
		{"not taken, no else", "def f(tool=None):\n    d = ROOT\n    if tool:\n        d = join(ROOT, tool)\n    if not os.path.isdir(d):\n        raise unittest.SkipTest('x')\n",
			"../\x00", "..", true},
		{"a call first", "def f(tool=None):\n    print(tool)\n    if not os.path.isdir(ROOT):\n        raise unittest.SkipTest('x')\n", "", "", false},
		{"elif", "def f(tool=None):\n    if tool:\n        d = ROOT\n    elif ROOT:\n        d = ROOT\n    if not os.path.isdir(d):\n        raise unittest.SkipTest('x')\n", "", "", false},
		{"two parameters", "def f(a, b):\n    if not os.path.isdir(ROOT):\n        raise unittest.SkipTest('x')\n", "", "", false},
		{"default not None", "def f(tool='x'):\n    if not os.path.isdir(ROOT):\n        raise unittest.SkipTest('x')\n", "", "", false},
		{"unset parameter read", "def f(tool=None):\n    if not os.path.isdir(join(ROOT, tool)):\n        raise unittest.SkipTest('x')\n", "../\x00", "", true},
		{"not a skip", "def f(tool=None):\n    if not os.path.isdir(ROOT):\n        raise ValueError('x')\n", "", "", false},
	}
	for _, c := range cases {
		res := Extractor{Unittest: true}.Extract(&lang.File{Rel: "pkg/helpers.py", Data: []byte(head + c.src)})
		d, ok := decodeFacts(res.Facts).DirSkips["f"]
		if ok != c.known || d.Given != c.given || d.Bare != c.bare {
			t.Errorf("%s: dirSkipper %+q (known %v), want given %q, bare %q (known %v)", c.name, d, ok, c.given, c.bare, c.known)
		}
	}
}

// TestSkipFacts checks the module-level statements read as skipping on
// import depending on the tree, and those that are not.
func TestSkipFacts(t *testing.T) {
	src := `import os, sysconfig, unittest
from test import test_tools
from test.support import requires

test_tools.skip_if_missing('clinic')
requires('network')
test_tools.skip_if_missing(NAME)
test_tools.helper(1, 2)
if not sysconfig.is_python_build():
    raise unittest.SkipTest('x')
if not os.path.isdir(os.path.join(os.path.dirname(__file__), 'data')):
    raise unittest.SkipTest('x')
if not os.path.isdir(os.path.join(os.path.dirname(__file__), 'data')):
    print('no data')
if sysconfig.is_python_build():
    raise unittest.SkipTest('x')
`
	res := Extractor{Unittest: true}.Extract(&lang.File{Rel: "test/test_x.py", Data: []byte(src)})
	var got []string
	for _, s := range decodeFacts(res.Facts).Skips {
		arg := "-"
		if s.Arg != nil {
			arg = *s.Arg
		}
		got = append(got, s.Call+"|"+arg+"|"+s.Path+"|"+s.Test+"|"+map[bool]string{true: "build"}[s.Build])
	}
	want := []string{"test.test_tools.skip_if_missing|clinic|||", "test.support.requires|network|||", "|-|||build", "|-|data|isdir|"}
	if len(got) != len(want) {
		t.Fatalf("skips %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("skip %d = %q, want %q", i, got[i], want[i])
		}
	}
}
