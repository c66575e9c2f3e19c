package coverage

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The read side for `testdex affected` (changes.SelectCovered): every
// test's row, one file's entries, and one recorded version of a file.

// Entry is what one test executed in one file: the file's content hash
// when recorded and the lines, numbered as that version.
type Entry struct {
	Hash  uint64
	Lines []Span
}

// Version is one recorded version of a file: its functions and content,
// nil when not kept (the language has no Spanner, the file did not parse,
// or an index written before contents were kept).
type Version struct {
	Funcs   []Func
	Content []byte
}

// AllTests returns every recorded test's row, by ID. An index that holds
// no test, or one written by another format version, is ErrNoData.
func (ix *Index) AllTests() (map[string]TestInfo, error) {
	out := map[string]TestInfo{}
	err := ix.view(func(tx *bolt.Tx) error {
		tests, meta := tx.Bucket(bucketTests), tx.Bucket(bucketMeta)
		if tests == nil || meta == nil || !readable(meta.Get(keyVersion)) || tests.Stats().KeyN == 0 {
			return ErrNoData
		}
		return tests.ForEach(func(k, v []byte) error {
			tv, err := decodeTest(v)
			if err != nil {
				return fmt.Errorf("%w: %s (test %s: %v)", ErrDamaged, ix.path, k, err)
			}
			id := string(k)
			out[id] = TestInfo{ID: id, Recorded: tv.recorded, Outcome: tv.outcome, Granularity: tv.granularity, Files: tv.files, Process: tv.process, Seq: tv.seq}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FileEntries returns the entries of one root-relative file, by test ID;
// empty when no test executed it.
func (ix *Index) FileEntries(path string) (map[string]Entry, error) {
	out := map[string]Entry{}
	err := ix.view(func(tx *bolt.Tx) error {
		files := tx.Bucket(bucketFiles)
		if files == nil {
			return nil
		}
		fb := files.Bucket([]byte(path))
		if fb == nil {
			return nil
		}
		sets, names, err := ix.readSets(tx, fb, path)
		if err != nil {
			return err
		}
		for _, s := range sets {
			ids, err := names.names(s)
			if err != nil {
				return err
			}
			for _, id := range ids {
				out[id] = Entry{Hash: s.hash, Lines: s.lines}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Version returns the recorded version of a file whose content hash is
// hash; its fields are nil when not kept.
func (ix *Index) Version(path string, hash uint64) (Version, error) {
	var v Version
	err := ix.view(func(tx *bolt.Tx) error {
		files := tx.Bucket(bucketFiles)
		if files == nil {
			return nil
		}
		fb := files.Bucket([]byte(path))
		if fb == nil {
			return nil
		}
		if raw := fb.Get(hashKey(hash)); raw != nil {
			fs, err := decodeFuncs(raw)
			if err != nil {
				return fmt.Errorf("%w: %s (file %s: %v)", ErrDamaged, ix.path, path, err)
			}
			v.Funcs = fs
		}
		if raw := fb.Get(contentKey(hash)); raw != nil {
			v.Content = bytes.Clone(raw)
		}
		return nil
	})
	return v, err
}

// contentKey is the key of a file version's content.
func contentKey(h uint64) []byte {
	return append([]byte{'c'}, hashKey(h)[1:]...)
}
