package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
)

var tree = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"a_test.go": `package m

import "testing"

func TestA(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		t.Log("in sub")
	})
}
`,
	"pyproject.toml": "[tool.pytest.ini_options]\n",
	"test_p.py": `import pytest


@pytest.mark.slow
def test_decorated():
    assert True
`,
	"specs/s.spec.md": "---\ntags: [x]\n---\n# S\n\n## One - id: one\nfirst\n## Two - id: two\nsecond\n",
}

func TestOf(t *testing.T) {
	root := t.TempDir()
	for rel, s := range tree {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(s), 0o644)
	}
	ix, err := index.Build(context.Background(), index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	n := ix.NewNamer()
	for _, c := range []struct {
		id, extent string
		start, end int
		has        string
	}{
		{"a_test.go::TestA", ExtentFunction, 5, 9, "func TestA"},
		{"a_test.go::TestA/sub", ExtentFunction, 5, 9, "t.Run(\"sub\""}, // go/parser keeps closures in their function
		{"test_p.py::test_decorated", ExtentFunction, 4, 6, "@pytest.mark.slow\ndef test_decorated():"},
		{"specs/s.spec.md", ExtentSpec, 4, 9, "# S\n"},
		{"specs/s.spec.md::two", ExtentSpec, 8, 9, "## Two - id: two\nsecond\n"},
	} {
		rec, ok := n.ForID(c.id)
		if !ok {
			t.Errorf("%s: not listed", c.id)
			continue
		}
		s, err := Of(ix, rec)
		if err != nil || s.Extent != c.extent || s.Start != c.start || s.End != c.end || !strings.Contains(s.Text, c.has) {
			t.Errorf("%s: %+v %v, want %s %d-%d with %q", c.id, s, err, c.extent, c.start, c.end, c.has)
		}
	}
	os.WriteFile(filepath.Join(root, "specs/s.spec.md"), []byte("# gone\n"), 0o644)
	rec, _ := n.ForID("specs/s.spec.md::one")
	if _, err := Of(ix, rec); err == nil || !strings.Contains(err.Error(), `no scenario "one" any more`) {
		t.Errorf("a scenario gone: %v", err)
	}
}

func TestAround(t *testing.T) {
	spans := []lang.FuncSpan{{Start: 1, End: 20}, {Start: 5, End: 8}, {Start: 30, End: 40}}
	for _, c := range []struct {
		line, start, end int
		ok               bool
	}{{6, 5, 8, true}, {10, 1, 20, true}, {27, 27, 40, true}, {50, 0, 0, false}, {21, 0, 0, false}} {
		f, ok := around(spans, c.line)
		if ok != c.ok || (ok && (f.Start != c.start || f.End != c.end)) {
			t.Errorf("line %d: %+v %v", c.line, f, ok)
		}
	}
}
