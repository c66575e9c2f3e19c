package golang

import (
	"os"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

func TestQuick(t *testing.T) {
	for _, f := range []string{"testdata/fixture/subtests_test.go", "testdata/fixture/broken/broken_test.go", "testdata/fixture/bad/bad_test.go"} {
		data, _ := os.ReadFile(f)
		res := Default.Extract(&lang.File{Rel: f, Data: data})
		for _, r := range res.Tests {
			t.Logf("%s %q dyn=%v skip=%v line=%d run=%s parent=%s", r.Kind, r.Name, r.Dynamic, r.Skip, r.Line, r.Run, r.Parent)
		}
		for _, p := range res.Problems {
			t.Log(p)
		}
	}
}
