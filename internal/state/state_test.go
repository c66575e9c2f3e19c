package state

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadRefusesOddFiles: a state file that is not a regular file testdex
// wrote, or that no state file can be, is an *OddError at once: no read of
// /dev/zero or /dev/urandom without end, no wait on a FIFO.
func TestReadRefusesOddFiles(t *testing.T) {
	dir := t.TempDir()
	odd := map[string]func(string) error{
		"link-to-dev-zero":    func(p string) error { return os.Symlink("/dev/zero", p) },
		"link-to-dev-urandom": func(p string) error { return os.Symlink("/dev/urandom", p) },
		"fifo":                func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"folder":              func(p string) error { return os.Mkdir(p, 0o755) },
		"huge":                func(p string) error { return os.WriteFile(p, nil, 0o644) },
		"link to a file":      func(p string) error { os.WriteFile(p+".real", []byte("{}"), 0o644); return os.Symlink(p+".real", p) },
	}
	for name, make := range odd {
		p := filepath.Join(dir, name)
		if err := make(p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "huge" {
			os.Truncate(p, MaxSize+1) // sparse: no disk used
		}
		var oe *OddError
		if _, err := Read(p); !errors.As(err, &oe) {
			t.Errorf("%s: Read = %v, want an *OddError", name, err)
		}
		if err := Usable(p); !errors.As(err, &oe) {
			t.Errorf("%s: Usable = %v, want an *OddError", name, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "absent")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent: %v, want fs.ErrNotExist", err)
	}
}

// TestWriteReplacesOddEntries: writing over a link, a FIFO or an empty
// folder replaces it with a regular file that Read returns; a folder with
// files in it is left alone, with an error.
func TestWriteReplacesOddEntries(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "outside")
	os.WriteFile(target, []byte("keep"), 0o644)
	for name, make := range map[string]func(string) error{
		"link":   func(p string) error { return os.Symlink(target, p) },
		"fifo":   func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"folder": func(p string) error { return os.Mkdir(p, 0o755) },
		"new":    func(string) error { return nil },
	} {
		p := filepath.Join(dir, "kind", name+".json")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := make(p); err != nil {
			t.Fatal(err)
		}
		if err := Write(p, []byte(`{"ok":1}`)); err != nil {
			t.Errorf("%s: Write: %v", name, err)
			continue
		}
		if data, err := Read(p); err != nil || string(data) != `{"ok":1}` {
			t.Errorf("%s: Read after Write = %q, %v", name, data, err)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "keep" {
		t.Errorf("writing over a link wrote through it: %q", data)
	}
	full := filepath.Join(dir, "full")
	os.MkdirAll(filepath.Join(full, "x"), 0o755)
	if err := Write(full, []byte("{}")); err == nil {
		t.Errorf("Write over a folder with files succeeded")
	}
	if _, err := os.Stat(filepath.Join(full, "x")); err != nil {
		t.Errorf("the folder's files are gone: %v", err)
	}
}

// TestPathIsStable: a root's file does not depend on the process.
func TestPathIsStable(t *testing.T) {
	if got, want := Path("/c", "failures", "/repo", "json"), "/c/failures/"; filepath.Dir(got)+"/" != want || filepath.Ext(got) != ".json" {
		t.Errorf("Path = %s", got)
	}
	if Path("/c", "k", "/a", "json") == Path("/c", "k", "/b", "json") {
		t.Errorf("two roots share a file")
	}
}

// TestWriteAtomic: what the callback writes replaces the file whole; a
// callback that fails, or a folder that does not exist, leaves the old
// file as it was and no temporary file behind.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteAtomic(p, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("half", 10000))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("a failing callback: %v, want its error", err)
	}
	if data, _ := os.ReadFile(p); string(data) != "old" {
		t.Errorf("after a failed write the file holds %d bytes, want the old", len(data))
	}
	if err := WriteAtomic(filepath.Join(dir, "no", "f"), func(io.Writer) error { return nil }); err == nil {
		t.Errorf("a write into a missing folder succeeded")
	}
	big := strings.Repeat("new", 100000)
	if err := WriteAtomic(p, func(w io.Writer) error { _, err := io.WriteString(w, big); return err }); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); string(data) != big {
		t.Errorf("after a write the file holds %d bytes, want %d", len(data), len(big))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, TempPattern)); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
