package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// quietCases are sources whose TestA quiet must not call quiet, and one
// whose TestA it must.
var quietCases = map[string]bool{
	`func TestA(t *testing.T) { t.Log("Running", t.Name()); t.SkipIfShort() }`:                          true,
	`func TestA(t *testing.T) { t. Run("a", nil) }`:                                                     false,
	`func TestA(t *testing.T) { t.Skipf("x") }`:                                                         false,
	`func TestA(t *testing.T) { check(t, 1) }; func check(t *testing.T, n int) {}`:                      true,
	`func TestA(t *testing.T) { testing.Verbose(t) }`:                                                   true,
	`func TestA(t *testing.T) { other(t) }`:                                                             false,
	`func TestA(t *testing.T) { obj.Do(t) }`:                                                            false,
	`func TestA(t *testing.T) { other("g(", t) }; func g(a ...any) {}`:                                  false,
	`func TestA(t *testing.T) { other(1, /* g( */ t) }; func g(a ...any) {}`:                            false,
	`func TestA(t *testing.T) { t.Errorf("x") }`:                                                        true,
	`func TestA(t *testing.T) { check(t) }`:                                                             false,
	`func TestA(t *testing.T) { check(t /* why */) }`:                                                   false,
	`func BenchmarkB(b *testing.B) {}; func TestA(t *testing.T) { b := []any{1}; f(b...) }`:             false,
	`func BenchmarkB(b *testing.B) {}; var b []any; func TestA(t *testing.T) { f(b...) }`:               false,
	`func TestA(t *testing.T) { helper(t.Context()) }; func helper(c any) { x.Run("a", nil) }`:          false,
	`func TestA(t *testing.T) { helper /* c */ (t.Name()) }; func helper(s string) { x.Run("a", nil) }`: false,
	`func TestA(t *testing.T) { t.Skip() }`:                                                             false,
	`func TestA(t *testing.T) { t.Run("a", func(t *testing.T) {}) }`:                                    false,
	`func TestA(t *testing.T) { s.m(t.Name()) }; func (s) m(n string) { x.Run("a", nil) }`:              false,
}

// TestQuietFindsNothingCallsWould checks quiet's promise on every test
// function of GOROOT's test files and on quietCases: a body it calls
// quiet is one where calls finds no Run, Skip or helper and no name
// given a T (the Facts' Calls).
func TestQuietFindsNothingCallsWould(t *testing.T) {
	srcs := map[string][]byte{}
	i := 0
	for c := range quietCases {
		srcs["case"+string(rune('a'+i))] = []byte("package p\nimport \"testing\"\n" + c + "\n")
		i++
	}
	root := filepath.Join(runtime.GOROOT(), "src")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "_test.go") {
			if data, err := os.ReadFile(p); err == nil {
				srcs[p] = data
			}
		}
		return nil
	})
	quiet := 0
	for name, src := range srcs {
		fset := token.NewFileSet()
		file, _ := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if file == nil {
			continue
		}
		x := newFileCtx(fset, file, src)
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv != nil || !isTestName(fn.Name.Name) {
				continue
			}
			q := x.quiet(fn.Body)
			before := maps.Clone(x.tcalls)
			bits := x.calls(fn.Body)
			if want, ok := quietCases[caseOf(src)]; ok && fn.Name.Name == "TestA" && q != want {
				t.Errorf("%s: quiet %v, want %v", src, q, want)
			}
			if !q {
				continue
			}
			quiet++
			if bits&(hasRun|hasSkip|hasHelper) != 0 || !maps.Equal(before, x.tcalls) {
				t.Errorf("%s: %s is quiet, but calls finds bits %b, calls %v (before %v)", name, fn.Name.Name, bits, x.tcalls, before)
			}
		}
	}
	if quiet == 0 {
		t.Error("no body was quiet")
	}
}

// caseOf is the quietCases key a source was made from, "" for others.
func caseOf(src []byte) string {
	s, ok := strings.CutPrefix(string(src), "package p\nimport \"testing\"\n")
	if !ok {
		return ""
	}
	return strings.TrimSuffix(s, "\n")
}
