package index

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/lang/python"
)

// TestAuxOutsideRoot: a helper module an import resolves to outside the
// root (CPython's stdlib beside a listed Lib/test) is not read, by its
// path or through a link inside the root whose target lies outside; one
// inside is.
func TestAuxOutsideRoot(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "helper.py")
	for _, p := range []string{outside, filepath.Join(root, "inside.py")} {
		if err := os.WriteFile(p, []byte("class Base:\n    def test_x(self): pass\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, "linked.py")); err != nil {
		t.Fatal(err)
	}
	a := newAuxLoader(root, &cache.Snapshot{Entries: map[string]*cache.Entry{}}, 0)
	ex := python.Extractor{}
	for _, p := range []string{outside, filepath.Join(root, "linked.py"), filepath.Join(root, "..", "helper.py")} {
		var out *OutsideRootError
		if _, err := a.load(p, ex, nil); !errors.As(err, &out) {
			t.Errorf("%s: %v, want an OutsideRootError", p, err)
		}
	}
	if res, err := a.load(filepath.Join(root, "inside.py"), ex, nil); err != nil || len(res.Facts) == 0 {
		t.Errorf("inside the root: %v, facts %q", err, res.Facts)
	}
}
