package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/testdex/testdex/internal/state"
)

// scanFile writes content to a new file of dir with a modification time
// age ago, and returns its path.
func scanFile(t *testing.T, dir, name, content string, age time.Duration) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-age)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return p
}

// countingRead returns a content function that counts its calls.
func countingRead(p string, calls *int) func() ([]byte, error) {
	return func() ([]byte, error) {
		*calls++
		return os.ReadFile(p)
	}
}

func openScan(t *testing.T, dir, root string) *ScanStore {
	t.Helper()
	st, err := OpenScan(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestScanStoreTrust(t *testing.T) {
	dir, tree := t.TempDir(), t.TempDir()
	a := scanFile(t, tree, "a.go", "package a", time.Hour)
	b := scanFile(t, tree, "b.go", "package b", time.Hour)
	st := openScan(t, dir, tree)
	st.Put(a, "k", []byte("package a"), []byte("A"))
	st.Put(b, "k", nil, []byte("B")) // a head-only scan: no hash
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}

	// A later run: unchanged size and an old time vouch without reading.
	st = openScan(t, dir, tree)
	calls := 0
	if data, ok := st.Get(a, "k", countingRead(a, &calls)); !ok || string(data) != "A" || calls != 0 {
		t.Fatalf("unchanged file: got %q, %v after %d reads; want A, true, 0", data, ok, calls)
	}
	if _, ok := st.Get(a, "other kind", countingRead(a, &calls)); ok {
		t.Fatal("another kind hit")
	}

	// Touched, same content: the hash decides, and the new time is kept.
	now := time.Now().Add(-time.Minute)
	os.Chtimes(a, now, now)
	os.Chtimes(b, now, now)
	st = openScan(t, dir, tree)
	if data, ok := st.Get(a, "k", countingRead(a, &calls)); !ok || string(data) != "A" || calls != 1 {
		t.Fatalf("touched file: got %q, %v after %d reads; want A, true, 1", data, ok, calls)
	}
	if _, ok := st.Get(b, "k", countingRead(b, &calls)); ok {
		t.Fatal("a touched file without a hash hit")
	}
	st.Save()
	st = openScan(t, dir, tree)
	calls = 0
	if _, ok := st.Get(a, "k", countingRead(a, &calls)); !ok || calls != 0 {
		t.Fatalf("after the hash vouched: hit %v after %d reads; want true, 0", ok, calls)
	}

	// Content changed within the time stamps' granularity of the check
	// (same size, same time, the time within Racy of the check): the
	// racily clean rule reads it, and the hash misses.
	mt := time.Now().Add(-time.Hour)
	scanFile(t, tree, "a.go", "package x", time.Hour)
	os.Chtimes(a, mt, mt)
	st = openScan(t, dir, tree)
	e := st.entries[scanKey(a, "k")]
	e.mtime, e.checked = mt.UnixNano(), mt.UnixNano()+Racy/2
	calls = 0
	if _, ok := st.Get(a, "k", countingRead(a, &calls)); ok || calls != 1 {
		t.Fatalf("racy entry of changed content: hit %v after %d reads; want false, 1", ok, calls)
	}

	// A missing file misses.
	if _, ok := st.Get(filepath.Join(tree, "gone.go"), "k", nil); ok {
		t.Fatal("missing file hit")
	}
}

// A file written during the run (after the scan, before Put's stat) has
// a time after the run's start: never trusted by size and time.
func TestScanStoreRacyPut(t *testing.T) {
	dir, tree := t.TempDir(), t.TempDir()
	st := openScan(t, dir, tree)
	a := scanFile(t, tree, "a.go", "package b", 0) // written now, after OpenScan
	st.Put(a, "k", []byte("package a"), []byte("stale"))
	st.Save()
	st = openScan(t, dir, tree)
	calls := 0
	if _, ok := st.Get(a, "k", countingRead(a, &calls)); ok {
		t.Fatal("a scan of older content hit")
	}
}

func TestScanStoreDamage(t *testing.T) {
	dir, tree := t.TempDir(), t.TempDir()
	var files []string
	st := openScan(t, dir, tree)
	for i := range 5 {
		p := scanFile(t, tree, fmt.Sprintf("f%d.go", i), "package f", time.Hour)
		files = append(files, p)
		st.Put(p, "k", []byte("package f"), []byte(fmt.Sprintf("DATA-%d", i)))
	}
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	// One entry's data flipped: that entry is dropped, the others serve.
	i := bytes.Index(data, []byte("DATA-2"))
	bad := bytes.Clone(data)
	bad[i] = 'X'
	os.WriteFile(st.Path(), bad, 0o644)
	st = openScan(t, dir, tree)
	if st.Dropped != 1 {
		t.Fatalf("dropped %d entries, want 1", st.Dropped)
	}
	for i, p := range files {
		if _, ok := st.Get(p, "k", nil); ok != (i != 2) {
			t.Errorf("file %d: hit %v", i, ok)
		}
	}
	// Truncated: the entries before the cut serve.
	os.WriteFile(st.Path(), data[:len(data)-20], 0o644)
	st = openScan(t, dir, tree)
	if st.Dropped == 0 || len(st.entries) == 0 {
		t.Fatalf("truncated store: %d dropped, %d kept", st.Dropped, len(st.entries))
	}
	// Garbage, and something that is not a file: empty, with an error.
	for _, junk := range [][]byte{[]byte("not a store"), nil, append([]byte("TDXG"), 0xff)} {
		os.WriteFile(st.Path(), junk, 0o644)
		got, err := OpenScan(dir, tree)
		if len(junk) > 0 && err == nil || len(got.entries) != 0 {
			t.Errorf("store %q: %d entries, error %v", junk, len(got.entries), err)
		}
		got.Put(files[0], "k", nil, []byte("x"))
		if err := got.Save(); err != nil {
			t.Errorf("replacing a damaged store: %v", err)
		}
	}
	os.Remove(st.Path())
	os.Mkdir(st.Path(), 0o755)
	if _, err := OpenScan(dir, tree); err == nil {
		t.Error("a folder in the store's place: no error")
	}
}

// Concurrent runs each publish a whole store; a reader sees one of them.
func TestScanStoreConcurrent(t *testing.T) {
	dir, tree := t.TempDir(), t.TempDir()
	p := scanFile(t, tree, "a.go", "package a", time.Hour)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			st, err := OpenScan(dir, tree)
			if err != nil {
				errs <- err
				return
			}
			st.Put(p, "k", []byte("package a"), []byte(fmt.Sprint(i)))
			errs <- st.Save()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	st := openScan(t, dir, tree)
	if _, ok := st.Get(p, "k", nil); !ok || st.Dropped != 0 {
		t.Fatalf("after concurrent saves: hit %v, %d dropped", ok, st.Dropped)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(st.Path()), state.TempPattern))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Save drops the entries of deleted files it did not use, and writes
// nothing when nothing was stored.
func TestScanStorePrune(t *testing.T) {
	dir, tree := t.TempDir(), t.TempDir()
	a := scanFile(t, tree, "a.go", "package a", time.Hour)
	b := scanFile(t, tree, "b.go", "package b", time.Hour)
	st := openScan(t, dir, tree)
	st.Put(a, "k", nil, []byte("A"))
	st.Put(b, "k", nil, []byte("B"))
	st.Save()
	fi, _ := os.Stat(st.Path())
	st = openScan(t, dir, tree)
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(st.Path()); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Error("a run that stored nothing rewrote the store")
	}
	os.Remove(b)
	c := scanFile(t, tree, "c.go", "package c", time.Hour)
	st.Put(c, "k", nil, []byte("C"))
	st.Save()
	st = openScan(t, dir, tree)
	if _, ok := st.entries[scanKey(b, "k")]; ok {
		t.Error("the deleted file's entry was kept")
	}
	if _, ok := st.entries[scanKey(a, "k")]; !ok {
		t.Error("an unused entry of an existing file was dropped")
	}
}
