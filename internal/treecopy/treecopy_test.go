package treecopy

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCopy copies a small project: an ignored file and a hidden folder
// are copied all the same, modes and modification times are kept, a
// symbolic link stays a link, and a linked folder points to the original.
func TestCopy(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	files := map[string]os.FileMode{
		".gitignore":          0o644,
		"src/main.py":         0o644,
		"build/generated.py":  0o644, // ignored by .gitignore, copied
		".config/settings":    0o600,
		"run.sh":              0o755,
		"node_modules/x/i.js": 0o644,
	}
	for rel, mode := range files {
		p := filepath.Join(src, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(rel), mode); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	os.WriteFile(filepath.Join(src, ".gitignore"), []byte("build/\n"), 0o644)
	if err := os.Symlink("src/main.py", filepath.Join(src, "main-link.py")); err != nil {
		t.Fatal(err)
	}
	if err := Copy(src, dst, []string{"node_modules"}); err != nil {
		t.Fatal(err)
	}
	for rel, mode := range files {
		if rel == "node_modules/x/i.js" || rel == ".gitignore" {
			continue
		}
		fi, err := os.Lstat(filepath.Join(dst, rel))
		if err != nil {
			t.Errorf("%s not copied: %v", rel, err)
			continue
		}
		if data, _ := os.ReadFile(filepath.Join(dst, rel)); string(data) != rel {
			t.Errorf("%s holds %q", rel, data)
		}
		if fi.Mode().Perm() != mode|0o600 || !fi.ModTime().Equal(old) {
			t.Errorf("%s: mode %v, time %v; want %v, %v", rel, fi.Mode().Perm(), fi.ModTime(), mode|0o600, old)
		}
	}
	if target, err := os.Readlink(filepath.Join(dst, "main-link.py")); err != nil || target != "src/main.py" {
		t.Errorf("main-link.py: %q, %v; want a link to src/main.py", target, err)
	}
	if target, err := os.Readlink(filepath.Join(dst, "node_modules")); err != nil || target != filepath.Join(src, "node_modules") {
		t.Errorf("node_modules: %q, %v; want a link to the original", target, err)
	}
}
