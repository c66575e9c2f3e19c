package coverage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/zeebo/xxh3"
	bolt "go.etcd.io/bbolt"

	"github.com/testdex/testdex/internal/state"
)

// The bbolt layout, inverted so that a query reads one file's entries:
//
//	meta   "version" → formatVersion
//	tests  ID → when recorded, outcome, the test's number, the files it
//	       has entries in with the key of its line set in each, and the
//	       process it ran in and its start order there
//	ids    number (8 BE) → ID
//	files  PATH → bucket:
//	         's' + key(8 LE)   → a line set: content hash when recorded,
//	                             the executed lines, the numbers of the
//	                             tests that executed exactly those
//	         'f' + hash(8 LE)  → the functions of that version of the file
//	         'c' + hash(8 LE)  → that version's content (with its functions)
//	gaps   PROJECT NUL FRAMEWORK → a Gap as JSON (see gaps.go)
//
// A file's functions are kept once per content hash, and its lines once
// per distinct set, however many tests recorded them: the tests of one
// process mostly share a file's set (what loading it ran), so a record of
// express's 1,253 tests holds 1,502 sets for 161,637 test-and-file pairs.
var (
	bucketMeta  = []byte("meta")
	bucketTests = []byte("tests")
	bucketIDs   = []byte("ids")
	bucketFiles = []byte("files")
	keyVersion  = []byte("version")
)

// formatVersion changes with the layout; an index of another version is
// rebuilt when opened for writing (version 3 and earlier kept a row per
// test and file), and read as holding nothing.
const formatVersion = "4"

// readable reports whether an index of version v can be read as this one.
func readable(v []byte) bool { return string(v) == formatVersion }

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
			for _, b := range [][]byte{bucketTests, bucketIDs, bucketFiles, bucketGaps} {
				if err := tx.DeleteBucket(b); err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
					return err
				}
			}
		}
		if err := meta.Put(keyVersion, []byte(formatVersion)); err != nil {
			return err
		}
		for _, b := range [][]byte{bucketTests, bucketIDs, bucketFiles, bucketGaps} {
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
// tests. A test recorded twice in recs keeps the last, and a file listed
// twice in a record its last entry.
func (ix *Index) Replace(recs []Record) error {
	last := map[string]int{}
	for i, r := range recs {
		last[r.ID] = i
	}
	err := ix.update(func(tx *bolt.Tx) error {
		tests, ids, files := tx.Bucket(bucketTests), tx.Bucket(bucketIDs), tx.Bucket(bucketFiles)
		if tests == nil || ids == nil || files == nil {
			return fmt.Errorf("%w: %s (no buckets)", ErrDamaged, ix.path)
		}
		w := &setWriter{ix: ix, files: files, sets: map[string]map[uint64]*set{}, versions: map[string]map[uint64]bool{}, fresh: map[string]bool{}}
		for i, rec := range recs {
			if last[rec.ID] != i {
				continue
			}
			num, err := w.forget(tests, ids, rec.ID)
			if err != nil {
				return err
			}
			v := testValue{recorded: rec.Recorded, outcome: rec.Outcome, granularity: rec.Granularity, num: num, process: rec.Process, seq: rec.Seq}
			lastFile := map[string]int{}
			for j, f := range rec.Files {
				lastFile[f.Path] = j
			}
			for j, f := range rec.Files {
				if lastFile[f.Path] != j {
					continue
				}
				k, err := w.add(f, num)
				if err != nil {
					return err
				}
				v.files, v.sets = append(v.files, f.Path), append(v.sets, k)
			}
			if err := tests.Put([]byte(rec.ID), encodeTest(v)); err != nil {
				return err
			}
		}
		return w.flush()
	})
	if err != nil {
		return fmt.Errorf("write the coverage index: %w", err)
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
