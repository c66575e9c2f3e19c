package coverage

import (
	"bytes"
	"fmt"
	"slices"
	"sort"

	"github.com/zeebo/xxh3"
	bolt "go.etcd.io/bbolt"
)

// setWriter gathers one Replace's changes to the files' line sets, each
// set read at most once and written once at the end (flush), so that a
// set shared by a thousand tests costs one Put, not a thousand.
type setWriter struct {
	ix    *Index
	files *bolt.Bucket
	// sets are the sets read or made, per file and key; a set whose
	// tests are all gone is deleted by flush.
	sets map[string]map[uint64]*set
	// versions are the content hashes whose functions and content were
	// checked in this Replace, per file.
	versions map[string]map[uint64]bool
	// made are the file buckets this Replace created; fresh, the files
	// that had none when it first looked.
	made, fresh map[string]bool
	// last are, per file, the lines encoded last and their slice: the
	// tests of one test file, which come together, share one slice per
	// file for what its loading ran.
	last map[string]encodedLines
}

// encodedLines are a version's lines encoded, the set key they hash to,
// and the slice they came from.
type encodedLines struct {
	first *Span
	n     int
	hash  uint64
	lines []byte
	key   uint64
}

// encode encodes f's lines and their set key, once for a run of records
// that share the slice.
func (w *setWriter) encode(f File) ([]byte, uint64) {
	if e, ok := w.last[f.Path]; ok && len(f.Lines) > 0 && e.first == &f.Lines[0] && e.n == len(f.Lines) && e.hash == f.Hash {
		return e.lines, e.key
	}
	lines := encodeLines(nil, normal(f.Lines))
	k := xxh3.Hash(binaryHash(f.Hash, lines))
	if len(f.Lines) > 0 {
		if w.last == nil {
			w.last = map[string]encodedLines{}
		}
		w.last[f.Path] = encodedLines{&f.Lines[0], len(f.Lines), f.Hash, lines, k}
	}
	return lines, k
}

// forget takes a test out of the sets it was recorded in and returns its
// number, a new one for a test the index does not hold yet.
func (w *setWriter) forget(tests, ids *bolt.Bucket, id string) (uint64, error) {
	old := tests.Get([]byte(id))
	if old == nil {
		n, err := ids.NextSequence()
		if err != nil {
			return 0, err
		}
		return n, ids.Put(numKey(n), []byte(id))
	}
	v, err := decodeTest(old)
	if err != nil || len(v.sets) != len(v.files) {
		return 0, fmt.Errorf("%w: %s (test %s: %v)", ErrDamaged, w.ix.path, id, err)
	}
	for i, f := range v.files {
		s, err := w.get(f, v.sets[i])
		if err != nil {
			return 0, err
		}
		if s != nil {
			if s.drop == nil {
				s.drop = map[uint64]bool{}
			}
			s.drop[v.num] = true
		}
	}
	return v.num, nil
}

// get returns the set of a file under key k, read from the index the
// first time; nil when there is none. The file is marked touched either
// way (flush collects it).
func (w *setWriter) get(path string, k uint64) (*set, error) {
	m := w.sets[path]
	if m == nil {
		m = map[uint64]*set{}
		w.sets[path] = m
		if w.files.Bucket([]byte(path)) == nil {
			w.fresh[path] = true // no set to read: every set is this Replace's
		}
	}
	if s, ok := m[k]; ok {
		return s, nil
	}
	var s *set
	if fb := w.files.Bucket([]byte(path)); fb != nil && !w.fresh[path] {
		if raw := fb.Get(setKey(k)); raw != nil {
			d, err := decodeSet(raw)
			if err != nil {
				return nil, fmt.Errorf("%w: %s (file %s: %v)", ErrDamaged, w.ix.path, path, err)
			}
			d.lines = bytes.Clone(d.lines)
			s = &d
		}
	}
	m[k] = s
	return s, nil
}

// add puts test num into the set of f's version and lines, made when
// new, and returns the set's key.
func (w *setWriter) add(f File, num uint64) (uint64, error) {
	lines, k := w.encode(f)
	for {
		s, err := w.get(f.Path, k)
		if err != nil {
			return 0, err
		}
		if s == nil {
			s = &set{hash: f.Hash, lines: lines, dirty: true}
			w.sets[f.Path][k] = s
		}
		if s.hash != f.Hash || !bytes.Equal(s.lines, lines) {
			k++ // another set's key: the next one up
			continue
		}
		if j, ok := slices.BinarySearch(s.nums, num); !ok {
			s.nums = slices.Insert(s.nums, j, num)
			s.dirty = true
		}
		delete(s.drop, num)
		return k, w.version(f)
	}
}

// binaryHash is the bytes a set's key hashes: its version and lines.
func binaryHash(h uint64, lines []byte) []byte {
	b := make([]byte, 0, 8+len(lines))
	b = append(b, byte(h), byte(h>>8), byte(h>>16), byte(h>>24), byte(h>>32), byte(h>>40), byte(h>>48), byte(h>>56))
	return append(b, lines...)
}

// version keeps the functions and content of f's version once.
func (w *setWriter) version(f File) error {
	seen := w.versions[f.Path]
	if seen == nil {
		seen = map[uint64]bool{}
		w.versions[f.Path] = seen
	}
	if seen[f.Hash] || f.Funcs == nil {
		return nil
	}
	seen[f.Hash] = true
	fb, err := w.bucket(f.Path)
	if err != nil {
		return err
	}
	if fb.Get(hashKey(f.Hash)) == nil {
		if err := fb.Put(hashKey(f.Hash), encodeFuncs(f.Funcs)); err != nil {
			return err
		}
	}
	if f.Content != nil && fb.Get(contentKey(f.Hash)) == nil {
		if err := fb.Put(contentKey(f.Hash), bytes.Clone(f.Content)); err != nil {
			return err
		}
	}
	return nil
}

// bucket returns a file's bucket, made when missing.
func (w *setWriter) bucket(path string) (*bolt.Bucket, error) {
	if fb := w.files.Bucket([]byte(path)); fb != nil {
		return fb, nil
	}
	fb, err := w.files.CreateBucket([]byte(path))
	if err != nil {
		return nil, fmt.Errorf("file %s: %w", path, err)
	}
	if w.made == nil {
		w.made = map[string]bool{}
	}
	w.made[path] = true
	return fb, nil
}

// flush writes the sets file by file, deletes the emptied ones, and
// collects the touched files.
func (w *setWriter) flush() error {
	paths := make([]string, 0, len(w.sets))
	for p := range w.sets {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		keys := make([]uint64, 0, len(w.sets[p]))
		for k, s := range w.sets[p] {
			if s != nil {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		if err := w.write(p, keys); err != nil {
			return err
		}
	}
	return collect(w.files, paths)
}

// write writes the sets of a file under keys, in order.
func (w *setWriter) write(p string, keys []uint64) error {
	fb := w.files.Bucket([]byte(p))
	if fb != nil && w.made[p] {
		fb.FillPercent = 0.9 // filled in key order, never split again by this run
	}
	for _, k := range keys {
		s := w.sets[p][k]
		if n := len(s.nums); len(s.drop) > 0 {
			s.nums = slices.DeleteFunc(s.nums, func(n uint64) bool { return s.drop[n] })
			s.dirty = s.dirty || len(s.nums) != n
		}
		if !s.dirty {
			continue
		}
		var err error
		switch {
		case len(s.nums) == 0 && fb != nil:
			err = fb.Delete(setKey(k))
		case len(s.nums) > 0 && fb == nil:
			if fb, err = w.bucket(p); err == nil {
				fb.FillPercent = 0.9
				err = fb.Put(setKey(k), encodeSet(*s))
			}
		case len(s.nums) > 0:
			err = fb.Put(setKey(k), encodeSet(*s))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// collect drops, in the touched files, the functions of versions no set
// refers to any more, and the buckets of files no test executed.
func collect(files *bolt.Bucket, paths []string) error {
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
			case k[0] == 's' && len(v) >= 8:
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

// normal returns spans sorted and merged, as given when they already are
// (the runners' are), without copying.
func normal(spans []Span) []Span {
	for i := 1; i < len(spans); i++ {
		if spans[i].Start <= spans[i-1].End+1 {
			return Merge(spans)
		}
	}
	return spans
}

// fileSet is one line set of a file as read: its version's hash, the
// lines, and the numbers of the tests that executed them (names gives
// their IDs, looked up only for the sets an answer names).
type fileSet struct {
	hash  uint64
	lines []Span
	nums  []uint64
}

// setReader reads a file's line sets and names their tests.
type setReader struct {
	ix   *Index
	idb  *bolt.Bucket
	path string
}

func (r *setReader) damaged(err error) error {
	return fmt.Errorf("%w: %s (file %s: %v)", ErrDamaged, r.ix.path, r.path, err)
}

// readSets reads a file's line sets.
func (ix *Index) readSets(tx *bolt.Tx, fb *bolt.Bucket, path string) ([]fileSet, *setReader, error) {
	r := &setReader{ix: ix, idb: tx.Bucket(bucketIDs), path: path}
	if r.idb == nil {
		return nil, nil, r.damaged(fmt.Errorf("no ids bucket"))
	}
	var out []fileSet
	c := fb.Cursor()
	for k, v := c.Seek([]byte{'s'}); k != nil && k[0] == 's'; k, v = c.Next() {
		s, err := decodeSet(v)
		if err != nil {
			return nil, nil, r.damaged(err)
		}
		lines, err := decodeLines(s.lines)
		if err != nil {
			return nil, nil, r.damaged(err)
		}
		out = append(out, fileSet{hash: s.hash, lines: lines, nums: s.nums})
	}
	return out, r, nil
}

// names returns the IDs of a set's tests.
func (r *setReader) names(s fileSet) ([]string, error) {
	ids := make([]string, len(s.nums))
	for i, n := range s.nums {
		id := r.idb.Get(numKey(n))
		if id == nil {
			return nil, r.damaged(fmt.Errorf("no test numbered %d", n))
		}
		ids[i] = string(id)
	}
	return ids, nil
}
