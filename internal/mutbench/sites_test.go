package mutbench

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// siteList renders sites as "LINE OLD→NEW" for comparison.
func siteList(sites []Site) []string {
	var out []string
	for _, s := range sites {
		out = append(out, strings.Join([]string{itoa(s.Line), s.Old + "→" + s.New}, " "))
	}
	slices.Sort(out)
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestTextSites(t *testing.T) {
	for _, tc := range []struct {
		name, lang, src string
		want            []string
	}{
		{"python", "python", `
def f(a, b=-1):  # a == b in a comment
    """a < b in a docstring"""
    if a == b and not a > 2:
        return a + b
    return None
`, []string{"2 1→0", "4 ==→!=", "4 and→or", "4 >→<=", "4 2→3", "5 a + b→None", "5 +→-"}},
		{"js strings, regex, templates", "js", "const re = /a+b<c/g\nconst s = `x ${a < b}` + 'y == z'\nif (a < b && c === 0) return x\n",
			[]string{"2 +→-", "3 <→>=", "3 &&→||", "3 ===→!==", "3 0→1", "3 x→null"}},
		{"ts types are left alone", "ts", `export type A = B extends C ? true : false;
interface I { x: 1 }
function f<T>(x: Array<T>): boolean {
  return x.length > 0;
}
`, []string{"4 x.length > 0→null", "4 >→<=", "4 0→1"}},
		{"rust lifetimes, chars, generics, test modules", "rust", `fn f<'a>(x: &'a str, v: Vec<u8>) -> bool {
    let c = 'x';
    x.len() < 3 || v.is_empty()
}
#[cfg(test)]
mod tests {
    fn t() { assert!(1 == 1); }
}
`, []string{"3 <→>=", "3 3→4", "3 ||→&&"}},
		{"java generics, chars, text blocks", "java", `class A {
  List<String> f(int a) { // a < b
    String s = """
      x < y
      """;
    char c = '<';
    return a > 1 && b;
  }
}
`, []string{"7 >→<=", "7 1→0", "7 &&→||"}},
		{"a return continued on the next line is left alone", "js", "function f() {\n  return a\n    .b()\n}\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := siteList(textSites(tc.lang, "f", tc.src))
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("sites:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestGoSites(t *testing.T) {
	src := `package p

// a == b in a comment
func f(a, b int) (int, error) {
	if a < b && a != 0 {
		return a - b, nil
	}
	g := func() string { return "x" }
	_ = g
	return -1, nil
}

func h() (x T) { return T{} }
`
	got := siteList(goSites("p.go", []byte(src)))
	want := []string{"5 <→>=", "5 &&→||", "5 !=→==", "5 0→1", "6 -→+", "6 a - b→0",
		"8 \"x\"→\"\"", "10 1→0", "10 -1→0", "13 T{}→*new(T)"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("sites:\n got %q\nwant %q", got, want)
	}
}

func TestApplyRestores(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	if err := os.WriteFile(path, []byte("x = a == b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Site{File: "a.py", Line: 1, Off: 6, Old: "==", New: "!="}
	restore, err := s.Apply(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "x = a != b\n" {
		t.Errorf("mutated: %q", b)
	}
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "x = a == b\n" {
		t.Errorf("restored: %q", b)
	}
	if _, err := (Site{File: "a.py", Off: 0, Old: "=="}).Apply(dir); err == nil {
		t.Error("a site whose text is not at its offset was applied")
	}
}
