package python

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/testdex/testdex/internal/lang"
)

// TestSkeletonBlanksMethods checks what the skeleton blanks and keeps: a
// method's body, and a module-level function's the walker does not read,
// becomes pass on the def's line and the body's line ends (nested defs
// and classes, comments, strings and bracketed lines at column 0
// included); one-line bodies, the methods of a class inside a function
// and the module-level functions the walker reads are kept.
func TestSkeletonBlanksMethods(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"method", "class T:\n    x = 1\n    def test_a(self):\n        y = 2\n        def f():\n            return 3\n\n        return f\n    def test_b(self): return 1\n",
			"class T:\n    x = 1\n    def test_a(self): pass\n\n\n\n\n\n    def test_b(self): return 1\n"},
		{"module function", "def test_f():\n    x = 1\n    return x\n", "def test_f(): pass\n\n\n"},
		{"module functions the walker reads", "def a():\n    return type('A', (B,), {})\n\ndef b():\n    return a()\n\ndef load_tests(l, t, p):\n    return t\n" +
			"def c(cls):\n    cls.test_x = 1\n\ndef d():\n    return pytest.mark.parametrize('x', [1])\n\nif X:\n    def e():\n        return b()\ndef f():\n    return 1\n",
			"def a():\n    return type('A', (B,), {})\n\ndef b():\n    return a()\n\ndef load_tests(l, t, p):\n    return t\n" +
				"def c(cls):\n    cls.test_x = 1\n\ndef d():\n    return pytest.mark.parametrize('x', [1])\n\nif X:\n    def e():\n        return b()\ndef f(): pass\n\n"},
		{"words in strings and comments", "def a():\n    \"\"\"a class of type\"\"\"\n    return 1  # type\n\ndef b():\n    return f'{type(x)}'\n",
			"def a(): pass\n\n\n\ndef b():\n    return f'{type(x)}'\n"},
		{"one-line factory", "def a(): return type('A', (B,), {})\ndef b():\n    return a()\n", "def a(): return type('A', (B,), {})\ndef b():\n    return a()\n"},
		{"new_class anywhere", "from types import new_class as nc\ndef b():\n    return nc('A', (B,))\n", "from types import new_class as nc\ndef b():\n    return nc('A', (B,))\n"},
		{"factory kept", "def make():\n    class C:\n        def test_a(self):\n            return 1\n    return C\n",
			"def make():\n    class C:\n        def test_a(self):\n            return 1\n    return C\n"},
		{"string at column 0", "class T:\n    def test_a(self):\n        s = '''\ndef test_fake(self):\n'''\n        t = (1,\n2)\n    @dec\n    async def test_b(self):\n        await x\n",
			"class T:\n    def test_a(self): pass\n\n\n\n\n\n    @dec\n    async def test_b(self): pass\n\n"},
		{"f-strings", "class T:\n    def test_a(self):\n        f\"{x['a']!r:>{w}}\" f'{a:%H:%M}' rf\"\\{x}\" f\"\\N{DASH}{y}\"\n        f\"{\"nested\"}\"\n    def test_b(self):\n        pass\n",
			"class T:\n    def test_a(self): pass\n\n\n    def test_b(self): pass\n\n"},
		{"continuations and CRLF", "class T:\r\n    if X:\r\n        def test_a(self):\r\n            x = 1 + \\\r\n2\r\n    y = 0.01 + 1e-5 + 0x1F + 1_000 + 0o17 + 00 + .5 + 1j\r\n",
			"class T:\r\n    if X:\r\n        def test_a(self): pass\r\n\r\n\r\n    y = 0.01 + 1e-5 + 0x1F + 1_000 + 0o17 + 00 + .5 + 1j\r\n"},
		{"short first statement", "class T:\n    def test_a(self):  # a comment\n        x\n        y = 1\n", "class T:\n    def test_a(self): pass\n\n\n"},
		{"star import, ellipsis", "from a import *\nclass T:\n    def test_a(self):\n        ...\n    x = ...\n", "from a import *\nclass T:\n    def test_a(self): pass\n\n    x = ...\n"},
	} {
		got, ok := skeleton([]byte(tc.src))
		if !ok || string(got) != tc.want {
			t.Errorf("%s: skeleton = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
		if strings.Count(string(got), "\n") != strings.Count(tc.src, "\n") {
			t.Errorf("%s: lines changed", tc.name)
		}
	}
}

// TestSkeletonRefuses checks the files the skeleton leaves to the full
// parse: errors of Python's tokenizer, indentation Python refuses, tabs,
// and the grammar errors its tokens show (Python 2, a missing operator,
// a line ending in an operator).
func TestSkeletonRefuses(t *testing.T) {
	for _, body := range []string{
		"x = 'abc\n", "x = '''abc\n", "x = (1,\n", "x = 1)\n", "x = (1]\n", "x = f'{a'\n", "x = f'}'\n",
		"x = 1\n            y = 2\n", "if x:\n        y = 1\n", "if x:\n    y = 1\n      z = 2\n", "\ty = 1\n",
		"print 'x'\n", "exec 'x'\n", "try:\n            pass\n        except E, e:\n            pass\n", "raise E, 'm'\n",
		"x = `y`\n", "x = a <> b\n", "x = 0777\n", "x = 10L\n", "x = ur'a'\n", "f(a b)\n", "x = f(a) 'b'\n",
		"x =\n", "x = a +\n", "x = a.\n", "x = a \\ b\n", "x = !a\n", "x = $a\n", "return a if\n", "x = None None\n",
		"x = = 1\n", "x == = 1\n", "f(a +)\n", "x = [/ 2]\n", "return = 1\n", "x = a @\n",
		"@ = 1\n", "x = .b\n", "f(a, *)\n", "x = a <> b\n",
	} {
		src := "class T:\n    def test_a(self):\n        " + body + "    def test_b(self):\n        pass\n"
		if _, ok := skeleton([]byte(src)); ok {
			t.Errorf("skeleton took %q", body)
		}
	}
}

// TestSkeletonTakes checks valid Python the grammar checks must not
// refuse (a refusal costs a full parse, never a record).
func TestSkeletonTakes(t *testing.T) {
	for _, body := range []string{
		"a, = x\n", "*a, b = x\n", "x = -a ** -b @ c\n", "f(*a, **k)\n", "x = a[::2], a[1:-1], a[..., 0]\n",
		"def f(a, /, b, *, c=1) -> None: ...\n", "x = lambda a, /: a\n", "x = lambda: 0\n", "from . import a\n",
		"from .. import b\n", "from ...c import d\n", "from m import *\n", "x = (yield)\n", "x = yield\n",
		"match x:\n            case [a, *_] | {'k': -1}:\n                pass\n", "type = match = case = 1\n",
		"x = (a\n             .b())\n", "x = a \\\n            .b\n", "x @= y; z //= 2\n", "try:\n            pass\n        except* E:\n            pass\n",
		"x = 'a' 'b' f'{c}'\n", "x = not -1 if a is not b else ~c\n", "print(1 .real, .5, 1.)\n",
	} {
		src := "class T:\n    def test_a(self):\n        " + body + "    def test_b(self):\n        pass\n"
		if _, ok := skeleton([]byte(src)); !ok {
			t.Errorf("skeleton refused %q", body)
		}
	}
}

// TestSkeletonErrorStillReported: a syntax error inside a test method that
// the skeleton's tokenizer sees is reported, with its line, as before the
// skeleton (Python 2's print statement is not one: tree-sitter's grammar
// takes it).
func TestSkeletonErrorStillReported(t *testing.T) {
	for _, bad := range []string{"f(a b)", "x = (1]", "x = 1 +", "x = = 1", "f(a +)"} {
		src := "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        " + bad + "\n\n    def test_b(self):\n        pass\n"
		r := Extractor{Unittest: true}.Extract(&lang.File{Rel: "test_x.py", Data: []byte(src)})
		if len(r.Problems) != 1 || r.Problems[0].Line != 5 {
			t.Errorf("%s: problems = %v, want one syntax error on line 5", bad, r.Problems)
		}
	}
}

// TestSkeletonSameResults extracts every Python file of the repository
// (fixtures, examples, scripts) with and without the skeleton, as pytest's
// and unittest's, and requires the same records, problems and facts.
// TESTDEX_SKELETON_DIRS (separated by the path list separator) adds
// folders, such as a copy of CPython's Lib/test.
func TestSkeletonSameResults(t *testing.T) {
	roots := []string{"../../.."}
	if extra := os.Getenv("TESTDEX_SKELETON_DIRS"); extra != "" {
		roots = append(roots, filepath.SplitList(extra)...)
	}
	n := 0
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == ".venv") {
				return filepath.SkipDir
			}
			if filepath.Ext(path) != ".py" {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			n++
			for _, e := range []Extractor{{}, {Unittest: true}} {
				f := &lang.File{Rel: filepath.ToSlash(path), Data: data}
				got, want := e.extract(f, true), e.extract(f, false)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s (unittest %v): with the skeleton\n%+v\nwithout\n%+v", path, e.Unittest, got, want)
				}
			}
			return nil
		})
	}
	if n < 50 {
		t.Fatalf("only %d Python files found", n)
	}
}

// FuzzSkeleton feeds arbitrary bytes to the skeleton: it must not panic,
// must keep the line count, and must give the extractor the same result as
// the parse of the file as written when that parse has no error.
func FuzzSkeleton(f *testing.F) {
	for _, s := range []string{"class T:\n    def test_a(self):\n        x = f'{a!r:>{w}}' + '''\n'''\n", "def f():\n  return type('A', (B,), {})\n",
		"class T:\r\n  def test_a(self): # c\r\n    pass\r\n  x = 0x1F, 1e-5, ...\r\n", "class T:\n  def f(self):\n    (a\nb)\n", "f'{'"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, ok := skeleton(data)
		if !ok {
			return
		}
		lines := func(b []byte) int { return strings.Count(string(b), "\n") + strings.Count(string(b), "\r") }
		if lines(out) != lines(data) {
			t.Fatalf("line ends %d, want %d", lines(out), lines(data))
		}
		if !utf8.Valid(data) || strings.IndexByte(string(data), 0) >= 0 {
			return
		}
		for _, e := range []Extractor{{}, {Unittest: true}} {
			fl := &lang.File{Rel: "test_x.py", Data: data}
			want := e.extract(fl, false)
			if len(want.Problems) > 0 {
				continue
			}
			if got := e.extract(fl, true); !reflect.DeepEqual(got, want) {
				t.Fatalf("with the skeleton\n%+v\nwithout\n%+v", got, want)
			}
		}
	})
}

// TestMayCall checks the text test that spares walkCalls the statements
// without calls.
func TestMayCall(t *testing.T) {
	for src, want := range map[string]bool{
		"x = [(1, 2), (3, (4,))]": false, "x = f(1)": true, "x = a.b (1)": true, "x = g \\\n (1)": true,
		"x = d[0](1)": true, "x = ''.join(y)": true, "x = f # c\n": true, "x = ((1))": false, "x = 'a, (b'": false, "x = '(a'": true,
	} {
		if got := mayCall([]byte(src)); got != want {
			t.Errorf("mayCall(%q) = %v, want %v", src, got, want)
		}
	}
}
