package python

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/langtest"
)

func extract(src string) lang.Result { return langtest.Extract(Extractor{}, "test_x.py", src) }

func names(r lang.Result) []string { return langtest.Names(r, false) }

func TestExtractBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		tests     string
	}{
		{"syntax error keeps earlier tests", "def test_a():\n    pass\n\ndef test_b(:\n    pass\n", 4, "test_a"},
		{"unfinished file", "def test_a():\n    pass\n\nclass TestX:\n    def test_m(self", 4, "test_a"},
		{"binary", "def test_a(): pass\n\x00\x01", 2, ""},
		{"invalid utf-8", "def test_a(): pass\n# \xff\n", 2, "test_a"},
		// The file is parsed again in top-level chunks: the definitions
		// after the error are kept (test_b too, its name being readable).
		{"recovers after the error", "def test_a():\n    pass\n\ndef test_b(:\n    pass\n\ndef test_c():\n    pass\n", 4, "test_a,test_b,test_c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := extract(tc.src)
			if len(r.Problems) == 0 || r.Problems[0].Line != tc.line || r.Problems[0].Path != "" {
				t.Fatalf("problems = %v, want one at line %d", r.Problems, tc.line)
			}
			if got := strings.Join(names(r), ","); !strings.HasPrefix(got, tc.tests) || (tc.tests == "" && got != "") {
				t.Errorf("tests = %q, want %q first", got, tc.tests)
			}
		})
	}
}

func TestParamIDs(t *testing.T) {
	for _, tc := range []struct{ decorator, want string }{
		{`parametrize("x", [0.0001, 0.00001, 1e16, 1e15, -0.0, 0o17, 0b11])`, "0.0001,1e-05,1e+16,1000000000000000.0,-0.0,15,3"},
		{`parametrize("x", [1, 10**2, 2**9999])`, "{[1, 10**2, 2**9999]}"},
		{`parametrize("x", [1, 10**2])`, "1,100"},
		{`parametrize("x", ["\u00e9\U0001F600", "back\\slash", "\x01", r"\d"])`, `\xe9\U0001f600,back\\slash,\x01,\\d`},
		{`parametrize("x", [1, 1, "11", 11])`, "1_0,1_1,11_0,11_1"},
		{`parametrize("x", ["a0", "a", "a"])`, "a0,a1,a2"},
		{`parametrize("x,y", [pytest.param(1, 2, id="p"), (3, None)])`, "p,3-None"},
		{`parametrize(argnames="x", argvalues=[True])`, "True"},
		{`parametrize("x", range(1, 7, 3))`, "1,4"},
		{`parametrize("x", [x for x in "ab"])`, "a,b"},
		{`parametrize("x", [x for x in "ab" if x])`, "a,b"},
		{`parametrize("x", [x for x in "ab" if x != "a"])`, "b"},
		{`parametrize("x", [x for x in "ab" if f(x)])`, `{[x for x in "ab" if f(x)]}`},
		{`parametrize("x", [SOME_CONST])`, "{[SOME_CONST]}"},
	} {
		src := "import pytest\n@pytest.mark." + tc.decorator + "\ndef test_f(x): pass\n"
		r := extract(src)
		var ids []string
		for _, n := range names(r)[1:] {
			ids = append(ids, strings.TrimSuffix(strings.TrimPrefix(n, "test_f["), "]"))
		}
		if got := strings.Join(ids, ","); got != tc.want {
			t.Errorf("%s: ids %q, want %q", tc.decorator, got, tc.want)
		}
	}
}

// FuzzExtract feeds arbitrary bytes to the extractor: it must not panic,
// must give valid UTF-8 names, and must put Path on no Problem.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{"def test_a(): pass\n", "import pytest\n@pytest.mark.parametrize('a,b', [(1, 'x'), pytest.param(2, b'\\xff', id='z')], ids=['p', None])\nasync def test_a(a, b): pass\n",
		"class TestX(Base):\n  __test__ = False\n  pytestmark = [pytest.mark.a]\n  class TestY:\n    def test_z(self): pass\n",
		"from . import base\nimport unittest as ut\nclass T(ut.TestCase):\n  @ut.skip('x')\n  def test_q(self): pass\n", "def test_(:\n\x00",
		"import enum, math\nclass E(enum.Enum):\n  A = 1\nK = 2**8 * 1.5\nS = f'{K}x'\n@pytest.mark.parametrize('a', [E.A, '\\udcbf', 1j, -math.inf, S * 3, float('nan')], ids=lambda v: f'<{v}>')\ndef test_a(a): pass\nclass TestB(TestA):\n  test_a = None\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ex := range []Extractor{{}, {Unittest: true}} {
			r := ex.Extract(&lang.File{Rel: "test_f.py", Data: data})
			for _, tt := range r.Tests {
				if !utf8.ValidString(tt.Name) {
					t.Fatalf("invalid UTF-8 name %q", tt.Name)
				}
			}
			for _, p := range r.Problems {
				if p.Path != "" {
					t.Fatalf("problem with a path: %v", p)
				}
			}
			decodeFacts(r.Facts)
		}
	})
}

// TestReparseDropsBadMethod checks that a class keeps its other methods
// when one of them makes tree-sitter give up on the whole module: a
// bracket closed by the wrong kind (the skeleton's tokenizer refuses the
// file, which is then parsed whole) and a dedent inside brackets, valid
// Python that tree-sitter cannot read (CPython's test_compile.py), in a
// file the skeleton blanks (no error, every method) and in one it cannot
// (a tab in an indentation: the method is dropped, with an error).
func TestReparseDropsBadMethod(t *testing.T) {
	head := "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n\n"
	tail := "    def test_c(self):\n        pass\n\nclass U(unittest.TestCase):\n    def test_d(self):\n        pass\n"
	for _, tc := range []struct {
		name, bad, want string
		problem         bool
	}{
		{"wrong bracket", "    def test_bad(self):\n        x = (1,\n        ]\n\n", "T.test_a,T.test_c,U.test_d", true},
		{"dedent in brackets", "    def test_bad(self):\n        def f():\n            (bar.\n        baz)\n        f()\n\n", "T.test_a,T.test_bad,T.test_c,U.test_d", false},
		{"dedent in brackets, tab", "    def test_bad(self):\n        def f():\n\t    (bar.\n        baz)\n        f()\n\n", "T.test_a,T.test_c,U.test_d", true},
	} {
		r := Extractor{Unittest: true}.Extract(&lang.File{Rel: "test_x.py", Data: []byte(head + tc.bad + tail)})
		f := decodeFacts(r.Facts)
		var got []string
		for _, c := range f.Classes {
			for _, m := range c.Methods {
				got = append(got, c.Name+"."+m.Name)
			}
		}
		if strings.Join(got, ",") != tc.want || (len(r.Problems) > 0) != tc.problem {
			t.Errorf("%s: methods = %v, problems %v; want %s, a problem: %v", tc.name, got, r.Problems, tc.want, tc.problem)
		}
	}
}

// TestDeepNestingWarns is deep nesting: classes nested as deep
// as the grammar reads (about 60 levels; CPython allows 98) are all read,
// with their methods, and no warning; definitions nested past maxBlocks in
// if/try/with are cut with one warning naming the line where reading
// stopped, the file's other tests kept.
func TestDeepNestingWarns(t *testing.T) {
	var b strings.Builder
	b.WriteString("def test_top():\n    pass\n\n")
	const depth = 60
	for i := 0; i < depth; i++ {
		in := strings.Repeat("    ", i)
		fmt.Fprintf(&b, "%sclass TestC%d:\n%s    def test_m%d(self):\n%s        pass\n", in, i, in, i, in)
	}
	b.WriteString("\ndef test_bottom():\n    pass\n")
	r := extract(b.String())
	if got := strings.Join(names(r), ","); got != "test_top,test_bottom" {
		t.Errorf("module-level tests = %q", got)
	}
	f := decodeFacts(r.Facts)
	if len(f.Classes) != depth || f.Classes[depth-1].Name != fmt.Sprintf("TestC%d", depth-1) || len(f.Classes[depth-1].Methods) != 1 {
		t.Errorf("%d classes read, want all %d with their methods", len(f.Classes), depth)
	}
	if len(r.Problems) != 0 {
		t.Errorf("problems = %v, want none", r.Problems)
	}

	src := "def test_top(): pass\n"
	for i := 0; i < 6; i++ {
		src += strings.Repeat("    ", i) + "if True:\n"
	}
	src += strings.Repeat("    ", 6) + "def test_deep(): pass\n"
	r = extract(src)
	if got := strings.Join(names(r), ","); got != "test_top" || len(r.Problems) != 1 || r.Problems[0].Line != 8 || r.Problems[0].Severity != testdex.SevWarning {
		t.Errorf("deep if: tests %q, problems %v; want test_top and a warning at line 8", got, r.Problems)
	}
	if r := extract(strings.Replace(src, "def test_deep(): pass", "x = 1", 1)); len(r.Problems) != 0 {
		t.Errorf("deep if without definitions: problems %v, want none", r.Problems)
	}
}
