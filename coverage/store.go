package coverage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/zeebo/xxh3"
	bolt "go.etcd.io/bbolt"

	"github.com/testdex/testdex/internal/state"
)

// The bbolt layout, inverted so that a query reads one file's entries:
//
//	meta   "version" → formatVersion
//	tests  ID → when recorded, outcome, the files it has entries in, and
//	       the process it ran in and its start order there (version 3)
//	files  PATH → bucket:
//	         't' + ID          → content hash when recorded, executed lines
//	         'f' + hash(8 LE)  → the functions of that version of the file
//	         'c' + hash(8 LE)  → that version's content (with its functions)
//	gaps   PROJECT NUL FRAMEWORK → a Gap as JSON (see gaps.go)
//
// A file's functions are kept once per content hash, however many tests
// recorded that version.
var (
	bucketMeta  = []byte("meta")
	bucketTests = []byte("tests")
	bucketFiles = []byte("files")
	keyVersion  = []byte("version")
)

// formatVersion changes with the layout; an index of another version is
// rebuilt, but for version 2, whose rows lack only the process and order
// at their end: they read as Process "" (what they meant then), and the
// index is marked version 3 when opened for writing.
const formatVersion = "3"

// readable reports whether an index of version v can be read as this one.
func readable(v []byte) bool { return string(v) == formatVersion || string(v) == "2" }

// DefaultTimeout is how long Open waits for another testdex process
// holding the index.
const DefaultTimeout = 10 * time.Second

var (
	// ErrNoData is returned when no coverage was recorded for the root.
	ErrNoData = errors.New("no coverage recorded")
	// ErrDamaged marks an index that cannot be read.
	ErrDamaged = errors.New("coverage index is damaged")
	// ErrBusy marks an index another process holds past the timeout.
	ErrBusy = errors.New("coverage index is in use")
)

// Path is where the coverage index of root is kept under dir, the cache
// folder (TESTDEX_CACHE_DIR), beside the failures and passing states.
func Path(dir, root string) string {
	return filepath.Join(dir, "coverage", strconv.FormatUint(xxh3.HashString(root), 16)+".db")
}

// Options configure Open. The zero value opens for writing with
// DefaultTimeout and drops warnings.
type Options struct {
	// ReadOnly opens for queries (a shared lock): a missing index is
	// ErrNoData and a damaged one ErrDamaged.
	ReadOnly bool
	// Timeout bounds the wait for another process's lock; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// Warn receives warnings (a damaged index rebuilt); nil drops them.
	Warn func(string)
}

// Index is an open coverage index. Close it; it is safe for concurrent
// use by the goroutines of one process, and bbolt's file lock keeps
// processes apart (one writer, or many readers).
type Index struct {
	db   *bolt.DB
	path string
	warn func(string)
}

// Open opens (for writing: creates) the index at path. A damaged index
// opened for writing is removed and rebuilt empty, with a warning.
func Open(path string, o Options) (*Index, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	warn := o.Warn
	if warn == nil {
		warn = func(string) {}
	}
	// bbolt opens and maps what it is given: a FIFO would block it and a
	// link to a device feed it endlessly, so the file is checked first.
	var odd *state.OddError
	switch err := state.Usable(path); {
	case errors.Is(err, fs.ErrNotExist) && o.ReadOnly:
		return nil, ErrNoData
	case errors.As(err, &odd) && o.ReadOnly:
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	case errors.As(err, &odd):
		warn(fmt.Sprintf("%v; rebuilding it", err))
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove the coverage index: %w", err)
		}
	}
	if !o.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("create the coverage index: %w", err)
		}
	}
	db, err := open(path, o)
	if errors.Is(err, ErrDamaged) && !o.ReadOnly {
		warn(fmt.Sprintf("%v; rebuilding it", err))
		if rmErr := os.Remove(path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
			return nil, fmt.Errorf("remove the damaged coverage index: %w", rmErr)
		}
		db, err = open(path, o)
	}
	if err != nil {
		return nil, err
	}
	ix := &Index{db: db, path: path, warn: warn}
	if o.ReadOnly {
		return ix, nil
	}
	if err := ix.init(); errors.Is(err, ErrDamaged) {
		db.Close()
		warn(fmt.Sprintf("%v; rebuilding it", err))
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove the damaged coverage index: %w", err)
		}
		return Open(path, Options{Timeout: o.Timeout, Warn: o.Warn})
	} else if err != nil {
		db.Close()
		return nil, err
	}
	return ix, nil
}

// open opens the bbolt file, turning a lock timeout into ErrBusy and a
// file bbolt refuses (or panics on) into ErrDamaged.
func open(path string, o Options) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("%w: %s (%v)", ErrDamaged, path, r)
		}
	}()
	// A large initial map (address space, not memory) spares a big first
	// recording the remaps that copy every node.
	db, err = bolt.Open(path, 0o644, &bolt.Options{Timeout: o.Timeout, ReadOnly: o.ReadOnly, InitialMmapSize: 256 << 20})
	switch {
	case err == nil:
		return db, nil
	case errors.Is(err, bolt.ErrTimeout):
		return nil, fmt.Errorf("%w by another testdex process: %s (waited %v; try again when it ends)", ErrBusy, path, o.Timeout)
	case errors.Is(err, os.ErrPermission), errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("open the coverage index: %w", err)
	}
	return nil, fmt.Errorf("%w: %s (%v)", ErrDamaged, path, err)
}

// init creates the buckets; an index of another format version is
// emptied.
func (ix *Index) init() error {
	return ix.update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		if v := meta.Get(keyVersion); v != nil && !readable(v) {
			for _, b := range [][]byte{bucketTests, bucketFiles, bucketGaps} {
				if err := tx.DeleteBucket(b); err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
					return err
				}
			}
		}
		if err := meta.Put(keyVersion, []byte(formatVersion)); err != nil {
			return err
		}
		for _, b := range [][]byte{bucketTests, bucketFiles, bucketGaps} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
}

// Close releases the index and its lock.
func (ix *Index) Close() error { return ix.db.Close() }

// Path is the index file.
func (ix *Index) Path() string { return ix.path }

// update and view run a transaction, turning a panic of bbolt on a
// damaged page into ErrDamaged.
func (ix *Index) update(fn func(*bolt.Tx) error) (err error) {
	defer ix.recoverDamage(&err)
	return ix.db.Update(fn)
}

func (ix *Index) view(fn func(*bolt.Tx) error) (err error) {
	defer ix.recoverDamage(&err)
	return ix.db.View(fn)
}

func (ix *Index) recoverDamage(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: %s (%v)", ErrDamaged, ix.path, r)
	}
}

// Replace records the tests of recs, replacing whatever the index held
// for those tests and nothing else: a run of a subset updates only its
// tests. A test recorded twice in recs keeps the last.
func (ix *Index) Replace(recs []Record) error {
	last := map[string]int{}
	for i, r := range recs {
		last[r.ID] = i
	}
	err := ix.update(func(tx *bolt.Tx) error {
		tests, files := tx.Bucket(bucketTests), tx.Bucket(bucketFiles)
		if tests == nil || files == nil {
			return fmt.Errorf("%w: %s (no buckets)", ErrDamaged, ix.path)
		}
		touched := map[string]bool{}
		byFile := map[string][][2]int{} // file -> the records executing it: record, index in its Files
		for i, rec := range recs {
			if last[rec.ID] != i {
				continue
			}
			if err := ix.forget(tests, files, rec.ID, touched); err != nil {
				return err
			}
			v := testValue{recorded: rec.Recorded, outcome: rec.Outcome, granularity: rec.Granularity, process: rec.Process, seq: rec.Seq}
			for j, f := range rec.Files {
				v.files = append(v.files, f.Path)
				byFile[f.Path] = append(byFile[f.Path], [2]int{i, j})
			}
			if err := tests.Put([]byte(rec.ID), encodeTest(v)); err != nil {
				return err
			}
		}
		if err := putEntries(files, recs, byFile, touched); err != nil {
			return err
		}
		return collect(files, touched)
	})
	if err != nil {
		return fmt.Errorf("write the coverage index: %w", err)
	}
	return nil
}

// forget deletes a test's entries in the files it executed last time.
func (ix *Index) forget(tests, files *bolt.Bucket, id string, touched map[string]bool) error {
	old := tests.Get([]byte(id))
	if old == nil {
		return nil
	}
	v, err := decodeTest(old)
	if err != nil {
		return fmt.Errorf("%w: %s (test %s: %v)", ErrDamaged, ix.path, id, err)
	}
	for _, f := range v.files {
		if fb := files.Bucket([]byte(f)); fb != nil {
			if err := fb.Delete(testKey(id)); err != nil {
				return err
			}
			touched[f] = true
		}
	}
	return nil
}

// putEntries writes the new entries file by file, in key order (bbolt
// fills pages best when keys come sorted; a record listing a file twice
// writes the later one last, as it did).
func putEntries(files *bolt.Bucket, recs []Record, byFile map[string][][2]int, touched map[string]bool) error {
	paths := make([]string, 0, len(byFile))
	for p := range byFile {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fb := files.Bucket([]byte(p))
		if fb == nil {
			var err error
			if fb, err = files.CreateBucket([]byte(p)); err != nil {
				return fmt.Errorf("file %s: %w", p, err)
			}
			fb.FillPercent = 0.9 // filled in key order, never split again by this run
		}
		idx := byFile[p]
		sort.SliceStable(idx, func(a, b int) bool { return recs[idx[a][0]].ID < recs[idx[b][0]].ID })
		for _, ij := range idx {
			id, f := recs[ij[0]].ID, recs[ij[0]].Files[ij[1]]
			if err := fb.Put(testKey(id), encodeEntry(f.Hash, Merge(f.Lines))); err != nil {
				return err
			}
			if f.Funcs != nil && fb.Get(hashKey(f.Hash)) == nil {
				if err := fb.Put(hashKey(f.Hash), encodeFuncs(f.Funcs)); err != nil {
					return err
				}
			}
			if f.Funcs != nil && f.Content != nil && fb.Get(contentKey(f.Hash)) == nil {
				if err := fb.Put(contentKey(f.Hash), bytes.Clone(f.Content)); err != nil {
					return err
				}
			}
		}
		touched[p] = true
	}
	return nil
}

// collect drops, in the touched files, the functions of versions no
// entry refers to any more, and the buckets of files no test executed.
func collect(files *bolt.Bucket, touched map[string]bool) error {
	paths := make([]string, 0, len(touched))
	for p := range touched {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fb := files.Bucket([]byte(p))
		if fb == nil {
			continue
		}
		used := map[uint64]bool{}
		var versions [][]byte
		c := fb.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			switch {
			case k[0] == 't' && len(v) >= 8:
				used[leUint64(v)] = true
			case (k[0] == 'f' || k[0] == 'c') && len(k) == 9:
				versions = append(versions, bytes.Clone(k))
			}
		}
		if len(used) == 0 {
			if err := files.DeleteBucket([]byte(p)); err != nil {
				return err
			}
			continue
		}
		for _, k := range versions {
			if !used[leUint64(k[1:])] {
				if err := fb.Delete(k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func leUint64(b []byte) uint64 {
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// Tests is the number of tests the index holds.
func (ix *Index) Tests() (int, error) {
	n := 0
	err := ix.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketTests); b != nil {
			n = b.Stats().KeyN
		}
		return nil
	})
	return n, err
}
