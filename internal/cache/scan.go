package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/lang"
)

// ScanStore is the persistent lang.ScanCache of one root: the impact
// Graphers' per-file scan results (Go headers and declarations, Python,
// JavaScript and Java imports), so that `testdex affected` re-reads only
// the files that changed. It lives beside the listing's snapshot, in a
// file of its own with the same design (see the package comment): loaded
// whole, entries checked one by one (a damaged entry is a miss), written
// to a temporary file and renamed into place, and only when something
// was stored.
//
// An entry is trusted by size and modification time when that time is
// more than Racy before the run that checked it started; otherwise, when
// it has a content hash, by the hash of the file's content (which then
// refreshes its time). The zero value is not usable; see OpenScan.
type ScanStore struct {
	path  string
	start int64 // unix nanoseconds: when this run began, the Checked of its entries

	// stats remembers each file's stat for the run: its kinds share it.
	stats sync.Map // abs -> fileStat

	mu      sync.Mutex
	entries map[string]*scanEntry
	dirty   bool
	// Dropped counts the damaged entries ignored while loading.
	Dropped int
	// Hits and Misses count Get's answers, for tests and --stats.
	Hits, Misses int
}

type scanEntry struct {
	size, mtime, checked int64
	hash                 uint64 // of the content the data came from; 0: unknown
	data                 []byte
	used                 bool // looked up or stored by this run
}

// scanVersion changes whenever the store's encoding changes (the data's
// own encodings are versioned by their kinds).
const scanVersion = 1

var scanMagic = []byte("TDXG")

// ScanPath is where the scan store of root lives under dir, the cache
// folder.
func ScanPath(dir, root string) string {
	name := strconv.FormatUint(xxh3.HashString(root), 16) + ".scan"
	return filepath.Join(dir, "scan-v"+strconv.Itoa(scanVersion), name)
}

// OpenScan loads the scan store of root under dir. A missing store is
// empty; a damaged or unreadable one is empty too, with an error to
// report as a warning (the next Save replaces it).
func OpenScan(dir, root string) (*ScanStore, error) {
	st := &ScanStore{path: ScanPath(dir, root), start: time.Now().UnixNano(), entries: map[string]*scanEntry{}}
	data, err := (&Store{path: st.path}).read()
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	if err := st.decode(data); err != nil {
		st.entries = map[string]*scanEntry{}
		return st, fmt.Errorf("cache %s is damaged (%v); rebuilding it", st.path, err)
	}
	return st, nil
}

// Path is the store's file.
func (st *ScanStore) Path() string { return st.path }

func scanKey(abs, kind string) string { return kind + "\x00" + abs }

// Get implements lang.ScanCache.
func (st *ScanStore) Get(abs, kind string, content func() ([]byte, error)) ([]byte, bool) {
	key := scanKey(abs, kind)
	st.mu.Lock()
	e := st.entries[key]
	st.mu.Unlock()
	if e == nil {
		return st.count(false)
	}
	fs := st.stat(abs)
	if !fs.ok || fs.size != e.size {
		return st.count(false)
	}
	mtime := fs.mtime
	if mtime == e.mtime && mtime < e.checked-Racy {
		st.mu.Lock()
		e.used = true
		st.mu.Unlock()
		st.count(true)
		return e.data, true
	}
	if e.hash == 0 || content == nil {
		return st.count(false)
	}
	src, err := content()
	if err != nil || contentHash(src) != e.hash {
		return st.count(false)
	}
	st.mu.Lock()
	// The content read after the stat equals the stored one: the stat's
	// time vouches for it from now on (a later write changes the time).
	st.entries[key] = &scanEntry{size: e.size, mtime: mtime, checked: st.start, hash: e.hash, data: e.data, used: true}
	st.dirty = true
	st.mu.Unlock()
	st.count(true)
	return e.data, true
}

// fileStat is what Get needs of a file's stat; ok is false for a file
// that is missing, unreadable or not regular.
type fileStat struct {
	size, mtime int64
	ok          bool
}

// Stat returns the size and modification time (unix nanoseconds) of the
// regular file abs as Get sees them this run: stat'ed once, so that a
// Grapher's process memo can key on them without another system call;
// ok is false for a file that is missing or not regular.
func (st *ScanStore) Stat(abs string) (size, mtime int64, ok bool) {
	fs := st.stat(abs)
	return fs.size, fs.mtime, fs.ok
}

// stat stats a file once per run. A write after it is one this run may
// miss, as it would have had it come a moment later; Put stats afresh.
func (st *ScanStore) stat(abs string) fileStat {
	if v, ok := st.stats.Load(abs); ok {
		return v.(fileStat)
	}
	var fs fileStat
	if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
		fs = fileStat{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ok: true}
	}
	st.stats.Store(abs, fs)
	return fs
}

// count counts a hit or a miss; it returns a miss's results.
func (st *ScanStore) count(hit bool) ([]byte, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if hit {
		st.Hits++
	} else {
		st.Misses++
	}
	return nil, false
}

// contentHash is a content's xxh3, never 0 (which means unknown).
func contentHash(src []byte) uint64 { return xxh3.Hash(src) | 1 }

// Put implements lang.ScanCache. The file is stat'ed after its scan: a
// write in between gives it a time after this run's start, which size
// and time never vouch for.
func (st *ScanStore) Put(abs, kind string, src, data []byte) {
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() || src != nil && int64(len(src)) != fi.Size() {
		return
	}
	e := &scanEntry{size: fi.Size(), mtime: fi.ModTime().UnixNano(), checked: st.start, data: data, used: true}
	if src != nil {
		e.hash = contentHash(src)
	}
	st.mu.Lock()
	st.entries[scanKey(abs, kind)] = e
	st.dirty = true
	st.mu.Unlock()
}

// Save writes the store when this run stored something, dropping the
// entries of files that no longer exist among those it did not use.
func (st *ScanStore) Save() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.dirty {
		return nil
	}
	gone := map[string]bool{} // of the unused entries' files
	for key, e := range st.entries {
		if e.used {
			continue
		}
		abs := key[strings.IndexByte(key, 0)+1:]
		missing, seen := gone[abs]
		if !seen {
			_, err := os.Lstat(abs)
			missing = errors.Is(err, os.ErrNotExist)
			gone[abs] = missing
		}
		if missing {
			delete(st.entries, key)
		}
	}
	if err := writeFile(st.path, st.encode()); err != nil {
		return err
	}
	st.dirty = false
	return nil
}

// encode lays out the magic, the version, the number of entries, then
// each entry as its length, its body (key, size, time, checked, hash,
// data) and the xxh3 of the body.
func (st *ScanStore) encode() []byte {
	w := &lang.Enc{B: append([]byte(nil), scanMagic...)}
	w.Uint(scanVersion)
	w.Uint(uint64(len(st.entries)))
	ew := &lang.Enc{}
	var sum [8]byte
	for _, key := range slices.Sorted(maps.Keys(st.entries)) {
		e := st.entries[key]
		ew.B = ew.B[:0]
		ew.Str(key)
		ew.Int64(e.size)
		ew.Int64(e.mtime)
		ew.Int64(e.checked)
		binary.LittleEndian.PutUint64(sum[:], e.hash)
		ew.Raw(sum[:])
		ew.Uint(uint64(len(e.data)))
		ew.Raw(e.data)
		w.Uint(uint64(len(ew.B)))
		w.Raw(ew.B)
		binary.LittleEndian.PutUint64(sum[:], xxh3.Hash(ew.B))
		w.Raw(sum[:])
	}
	return w.B
}

// decode reads the entries; their data stay slices of data (the file's
// bytes, never modified). A damaged entry is dropped and counted.
func (st *ScanStore) decode(data []byte) error {
	if !bytes.HasPrefix(data, scanMagic) {
		return errors.New("bad magic")
	}
	r := &lang.Dec{B: data[len(scanMagic):]}
	if v := r.Uint(); v != scanVersion {
		return fmt.Errorf("format %d, want %d", v, scanVersion)
	}
	n := r.Uint()
	for i := uint64(0); i < n && !r.Bad; i++ {
		body := r.Bytes(r.Uint())
		sum := r.Bytes(8)
		if r.Bad {
			st.Dropped += int(n - i)
			break
		}
		if binary.LittleEndian.Uint64(sum) != xxh3.Hash(body) {
			st.Dropped++
			continue
		}
		er := &lang.Dec{B: body}
		key := er.Str()
		e := &scanEntry{size: er.Int64(), mtime: er.Int64(), checked: er.Int64()}
		if h := er.Bytes(8); len(h) == 8 {
			e.hash = binary.LittleEndian.Uint64(h)
		}
		e.data = er.Bytes(er.Uint())
		if er.Bad || len(er.B) != 0 {
			st.Dropped++
			continue
		}
		st.entries[key] = e
	}
	if r.Bad && len(st.entries) == 0 && n > 0 {
		return errShort
	}
	return nil
}
