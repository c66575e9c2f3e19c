// Package cache keeps extraction results between runs, so that listing an
// unchanged tree only walks and stats; and, in a second file per root
// built the same way (ScanStore), the impact Graphers' per-file scans, so
// that `testdex affected` re-reads only the files that changed.
//
// One snapshot file per listed root holds, for every candidate file, its
// size, modification time, content hash, the extractor's CacheKey, the
// extracted result and when its content was last checked. A file whose size
// and mtime match, and whose mtime is safely older than that check (git's
// "racily clean" rule, kept per entry so that a listing of a few paths
// cannot vouch for entries it did not check), is trusted without being
// read; otherwise it is read and hashed, and a matching hash still reuses
// the result.
//
// Why a snapshot file rather than bbolt (measured here: 100k entries read in 0.12-0.2 s): a
// listing reads every entry and rewrites only when something changed, so
// whole-file reads and writes cost the same as a database, while a write to
// a temporary file followed by rename(2) makes concurrent runs and crashes
// safe without locks: a reader sees the old or the new snapshot, never a
// mix, and two writers simply race to publish a complete file. Each entry
// carries its own xxh3 checksum, so a damaged entry is dropped and its file
// re-parsed while the rest of the snapshot is kept; bbolt, by contrast, may
// panic on a damaged page.
package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/state"
	"github.com/zeebo/xxh3"
)

// formatVersion changes whenever the encoding changes; older snapshots are
// then ignored.
const formatVersion = 4

var magic = []byte("TDXC")

// Entry is the cached state of one (file, framework) pair.
type Entry struct {
	Size  int64
	MTime int64 // unix nanoseconds
	// Checked is when the content was last read and hashed (unix
	// nanoseconds, the start of that build); 0 means never trusted by stat.
	Checked      int64
	Hash         uint64
	ExtractorKey string
	Result       lang.Result
}

// Snapshot is the set of entries for one root. The zero value is empty and
// ready to use; it is not safe for concurrent mutation.
type Snapshot struct {
	// Written is when the build that produced the snapshot started (unix
	// nanoseconds), for information; trust is decided per entry.
	Written int64
	Entries map[string]*Entry
	// Dropped counts entries discarded as damaged while loading.
	Dropped int
}

// Racy is the window before an entry's Checked time in which a matching
// mtime is not trusted, covering coarse file system timestamps.
const Racy int64 = 2e9

// Key is the map key of a file's entry for one framework.
func Key(rel, framework string) string { return rel + "\x00" + framework }

// Trusted returns the entry for key when stat alone proves it current.
func (s *Snapshot) Trusted(key string, size, mtime int64, extractorKey string) *Entry {
	e := s.Entries[key]
	if e == nil || e.Size != size || e.MTime != mtime || e.ExtractorKey != extractorKey {
		return nil
	}
	if mtime >= e.Checked-Racy {
		return nil
	}
	return e
}

// Matching returns the entry for key when its content hash equals hash.
func (s *Snapshot) Matching(key string, hash uint64, extractorKey string) *Entry {
	e := s.Entries[key]
	if e == nil || e.Hash != hash || e.ExtractorKey != extractorKey {
		return nil
	}
	return e
}

// Store is the on-disk home of one root's snapshot.
type Store struct {
	path string
}

// NewStore returns the store for root under dir, the cache folder (for
// example os.UserCacheDir()/testdex). root should be absolute and clean.
func NewStore(dir, root string) *Store {
	name := strconv.FormatUint(xxh3.HashString(root), 16) + ".testdex-cache"
	return &Store{path: filepath.Join(dir, "v"+strconv.Itoa(formatVersion), name)}
}

// Path is the snapshot file's location.
func (st *Store) Path() string { return st.path }

// maxSnapshot bounds the snapshot read into memory. A listing of a large
// monorepo stays far below it; a larger file is treated as damaged.
const maxSnapshot = 1 << 30

// Load reads the snapshot. A missing file gives an empty snapshot and no
// error; an unreadable or damaged header, or a snapshot that is not a
// regular file of at most maxSnapshot bytes (a symbolic link, a device, a
// FIFO), gives an empty snapshot and an error that callers report as a
// warning, and the next Save replaces it; damaged entries are dropped and
// counted.
func (st *Store) Load() (*Snapshot, error) {
	empty := &Snapshot{Entries: map[string]*Entry{}}
	data, err := st.read()
	if errors.Is(err, os.ErrNotExist) {
		return empty, nil
	}
	if err != nil {
		return empty, err
	}
	snap, err := decodeSnapshot(data)
	if err != nil {
		return empty, fmt.Errorf("cache %s is damaged (%v); rebuilding it", st.path, err)
	}
	return snap, nil
}

// read returns the snapshot's bytes without following a symbolic link,
// opening anything but a regular file or reading more than its size.
func (st *Store) read() ([]byte, error) {
	fi, err := os.Lstat(st.path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("read cache: %w", err)
	}
	if err := st.regular(fi); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(st.path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("read cache %s: %w; rebuilding it", st.path, err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, fmt.Errorf("read cache: %w", err)
	}
	if err := st.regular(fi); err != nil { // replaced since the Lstat
		return nil, err
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("cache %s is damaged (%v); rebuilding it", st.path, err)
	}
	return data, nil
}

// regular refuses a snapshot that is not a regular file of a sane size.
func (st *Store) regular(fi os.FileInfo) error {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("cache %s is a symbolic link, not a file testdex wrote; ignoring it and rebuilding it", st.path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("cache %s is not a regular file (%s); ignoring it and rebuilding it", st.path, fi.Mode().Type())
	case fi.Size() > maxSnapshot:
		return fmt.Errorf("cache %s is %d bytes, more than the %d a snapshot may have; ignoring it and rebuilding it", st.path, fi.Size(), maxSnapshot)
	}
	return nil
}

// Save publishes snap atomically (state.WriteAtomic): a reader sees the old
// snapshot or the new one, never a mix.
func (st *Store) Save(snap *Snapshot) error {
	return writeFile(st.path, encodeSnapshot(snap))
}

// writeFile writes a cache file with state.WriteAtomic, creating its
// folder: a reader sees the old file or the new one, never a mix.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	if err := state.WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	return nil
}

func encodeSnapshot(s *Snapshot) []byte {
	w := &lang.Enc{B: append([]byte(nil), magic...)}
	w.Uint(formatVersion)
	w.Int64(s.Written)
	w.Uint(uint64(len(s.Entries)))
	ew := &lang.Enc{}
	var sum [8]byte
	for _, k := range sortedKeys(s.Entries) {
		ew.B = ew.B[:0]
		ew.Str(k)
		encodeEntry(ew, s.Entries[k])
		w.Uint(uint64(len(ew.B)))
		w.Raw(ew.B)
		binary.LittleEndian.PutUint64(sum[:], xxh3.Hash(ew.B))
		w.Raw(sum[:])
	}
	return w.B
}

func decodeSnapshot(data []byte) (*Snapshot, error) {
	if !bytes.HasPrefix(data, magic) {
		return nil, errors.New("bad magic")
	}
	r := &lang.Dec{B: data[len(magic):]}
	if v := r.Uint(); v != formatVersion {
		return nil, fmt.Errorf("format %d, want %d", v, formatVersion)
	}
	s := &Snapshot{Written: r.Int64(), Entries: map[string]*Entry{}}
	n := r.Uint()
	for i := uint64(0); i < n && !r.Bad; i++ {
		size := r.Uint()
		body := r.Bytes(size)
		sum := r.Bytes(8)
		if r.Bad {
			s.Dropped += int(n - i)
			break
		}
		if binary.LittleEndian.Uint64(sum) != xxh3.Hash(body) {
			s.Dropped++
			continue
		}
		er := &lang.Dec{B: body}
		key := er.Str()
		e := decodeEntry(er)
		if er.Bad || len(er.B) != 0 {
			s.Dropped++
			continue
		}
		s.Entries[key] = e
	}
	if r.Bad && len(s.Entries) == 0 && n > 0 {
		return nil, errShort
	}
	return s, nil
}
