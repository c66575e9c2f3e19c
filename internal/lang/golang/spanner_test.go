package golang

import (
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/langtest"
)

func TestSpannerLinesAndHashes(t *testing.T) {
	src := `package a

// F adds.
func F(x int) int {
	return x + 1
}

type T[K any] struct{}

func (t *T[K]) M() {}

func init() {}
func init() { println() }
`
	spans := langtest.Spans(t, Spanner, "/m/a.go", src, "F 4-6", "T.M 10-10", "init 12-12", "init 13-13")
	if spans[2].Hash == spans[3].Hash {
		t.Errorf("two different init functions share a hash")
	}
	// Comments and formatting do not change a function's hash; its tokens do.
	moved := "package a\n\n// F adds one.\n// More.\nfunc F(x int) int {\n\treturn x+1 // one\n}\n"
	changed := "package a\n\nfunc F(x int) int {\n\treturn x + 2\n}\n"
	m, _ := Spanner.Spans("/m/a.go", []byte(moved))
	c, _ := Spanner.Spans("/m/a.go", []byte(changed))
	if m[0].Hash != spans[0].Hash || m[0].Start != 5 {
		t.Errorf("a comment changed F: %+v vs %+v", m[0], spans[0])
	}
	if c[0].Hash == spans[0].Hash {
		t.Errorf("a changed body kept F's hash")
	}
	if _, err := Spanner.Spans("/m/bad.go", []byte("package a\nfunc {")); err == nil {
		t.Errorf("a file that does not parse gave no error")
	}
}

func TestProfileFiles(t *testing.T) {
	prof := "mode: atomic\nexample.com/m/a/a.go:6.19,7.11 1 1\nexample.com/m/a/a.go:7.11,9.3 1 1\nexample.com/m/a/a.go:10.2,10.10 1 0\nexample.com/m/b/b.go:3.19,3.35 1 4\nother.org/x/x.go:1.1,2.2 1 1\n"
	got := profileFiles([]byte(prof), "example.com/m", "/src/m")
	if len(got) != 2 || got[0].File != "/src/m/a/a.go" || got[1].File != "/src/m/b/b.go" {
		t.Fatalf("files: %+v", got)
	}
	if l := got[0].Lines; len(l) != 1 || l[0].Start != 6 || l[0].End != 9 {
		t.Errorf("a.go lines: %+v (line 10 ran 0 times)", l)
	}
}

func TestSplitExtra(t *testing.T) {
	build, test := splitExtra([]string{"-race", "-tags", "x", "-short", "-count", "2", "-v", "-parallel=4"})
	if g := strings.Join(build, " "); g != "-race -tags x" {
		t.Errorf("build flags: %s", g)
	}
	if g := strings.Join(test, " "); g != "-test.short -test.count 2 -test.v -test.parallel=4" {
		t.Errorf("test flags: %s", g)
	}
	if g := testBinaryName("example.com/m/v2"); g != "m.test" {
		t.Errorf("binary of a v2 module root: %s", g)
	}
}
