package mutbench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSources lists the mutable sources of a small project: under Src,
// not a test, not under Skip, testdata or an installed folder, and not a
// file git ignores (a mutant there would be invisible to `testdex
// affected`).
func TestSources(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		".gitignore", "src/a.py", "src/sub/b.py", "src/test_a.py", "src/listed.py", "src/skip/c.py",
		"src/gen/d.py", "src/e_ignored.py", "src/testdata/f.py", "src/.hidden/g.py", "other/h.py",
		".venv/lib/i.py", "src/notes.txt",
	} {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("gen/\n*_ignored.py\n"), 0o644)
	p := Project{Lang: "python", Src: []string{"src/"}, Skip: []string{"src/skip/"}}
	got, err := sources(context.Background(), root, p, map[string]bool{"src/listed.py": true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"src/.hidden/g.py", "src/a.py", "src/sub/b.py"}
	if !slices.Equal(got, want) {
		t.Errorf("sources %q, want %q", got, want)
	}
}
