//go:build unix

package cache

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOddSnapshotIsRebuilt is a snapshot symlinked to /dev/zero
// (which hung the listing), a symlink to a good snapshot and a FIFO: Load
// returns at once with an empty snapshot and an error naming the file, and
// Save puts a real snapshot in its place.
func TestOddSnapshotIsRebuilt(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(path string) error
		want string
	}{
		{"symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "symbolic link"},
		{"symlink to a snapshot", func(p string) error {
			good := filepath.Join(filepath.Dir(p), "elsewhere")
			if err := os.WriteFile(good, encodeSnapshot(sample()), 0o644); err != nil {
				return err
			}
			return os.Symlink(good, p)
		}, "symbolic link"},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := NewStore(t.TempDir(), "/r")
			if err := os.MkdirAll(filepath.Dir(st.Path()), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := c.make(st.Path()); err != nil {
				t.Skipf("cannot make a %s here: %v", c.name, err)
			}
			got, err := st.Load()
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), st.Path()) || len(got.Entries) != 0 {
				t.Fatalf("Load = %d entries, %v; want none and an error saying %q", len(got.Entries), err, c.want)
			}
			if err := st.Save(sample()); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(st.Path()); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("after Save: %v, %v; want a regular file", fi, err)
			}
			if got, err := st.Load(); err != nil || len(got.Entries) != 2 {
				t.Fatalf("after Save: %d entries, %v", len(got.Entries), err)
			}
		})
	}
}
