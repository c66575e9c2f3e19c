package coverage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zeebo/xxh3"
	bolt "go.etcd.io/bbolt"
)

// versions are two contents of every file of shared's records.
var versions = [][]byte{[]byte("version zero\n"), []byte("version one\n")}

// shared makes n records over 6 files whose lines come from a few shapes
// (so that tests share sets, as a process's tests do), each file in one
// of two versions.
func shared(r *rand.Rand, n, round int) []Record {
	shapes := [][]Span{{{1, 3}}, {{1, 3}, {7, 9}}, {{2, 2}, {5, 11}}, {{4, 6}}, {{1, 12}}}
	recs := make([]Record, n)
	for i := range recs {
		rec := Record{ID: fmt.Sprintf("t_test.go::Test%03d", i), Recorded: t0, Outcome: "pass", Process: "p", Seq: i}
		for f := range 6 {
			if r.IntN(3) == 0 {
				continue
			}
			lines := shapes[r.IntN(len(shapes))]
			if r.IntN(8) == 0 { // a set of its own
				lines = []Span{{r.IntN(12) + 1, 13 + round}}
			}
			rec.Files = append(rec.Files, File{Path: fmt.Sprintf("f%d.go", f), Hash: xxh3.Hash(versions[r.IntN(2)]), Lines: lines})
		}
		recs[i] = rec
	}
	return recs
}

// want answers a whole-file query from the records: per test, its lines
// of that version, as Covering must.
func want(model map[string]Record, file string, hash uint64) string {
	var out []string
	for id, rec := range model {
		for _, f := range rec.Files {
			if f.Path == file && f.Hash == hash {
				out = append(out, id+"@"+String(f.Lines)+"/line")
			}
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// Sets shared by many tests answer each test as its own record would,
// through runs of subsets that move tests between sets and empty some.
func TestSetsAnswerAsTheRecords(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ix := openT(t, filepath.Join(t.TempDir(), "c.db"), Options{})
	model := map[string]Record{}
	for round := range 6 {
		recs := shared(r, 60, round)
		if round > 0 { // a subset, as a run of some tests records
			r.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
			recs = recs[:10+r.IntN(30)]
		}
		if err := ix.Replace(recs); err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs {
			model[rec.ID] = rec
		}
		for f := range 6 {
			file := fmt.Sprintf("f%d.go", f)
			for _, cur := range versions {
				ans, err := ix.Covering(Query{File: file, Current: cur})
				if err != nil {
					t.Fatal(err)
				}
				var hits []Hit
				for _, h := range ans.Tests {
					if h.By == "line" {
						hits = append(hits, h)
					}
				}
				if got, w := ids(hits), want(model, file, xxh3.Hash(cur)); got != w {
					t.Fatalf("round %d, %s %q:\n got %s\nwant %s", round, file, cur, got, w)
				}
			}
		}
	}
	all, err := ix.AllTests()
	if err != nil || len(all) != len(model) {
		t.Fatalf("AllTests: %d tests, want %d (%v)", len(all), len(model), err)
	}
	// Every set the index keeps holds a test, and no two sets of a file
	// hold the same lines of one version.
	_ = ix.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketFiles).ForEach(func(file, _ []byte) error {
			seen := map[string]bool{}
			c := tx.Bucket(bucketFiles).Bucket(file).Cursor()
			for k, v := c.Seek([]byte{'s'}); k != nil && k[0] == 's'; k, v = c.Next() {
				s, err := decodeSet(v)
				if err != nil || len(s.nums) == 0 || seen[string(v[:8])+string(s.lines)] {
					t.Errorf("%s: set %x: %v %v", file, k, s.nums, err)
				}
				seen[string(v[:8])+string(s.lines)] = true
			}
			return nil
		})
	})
}

// Two line sets whose keys collide are told apart by their bytes: each
// keeps its own tests.
func TestSetKeyCollision(t *testing.T) {
	ix := openT(t, filepath.Join(t.TempDir(), "c.db"), Options{})
	src := []byte(srcA)
	h := xxh3.Hash(src)
	a := Record{ID: "a_test.go::TestA", Recorded: t0, Outcome: "pass", Files: []File{{Path: "a.go", Hash: h, Lines: []Span{{3, 4}}}}}
	if err := ix.Replace([]Record{a}); err != nil {
		t.Fatal(err)
	}
	// Move TestA's set to the key TestB's lines will hash to, as a
	// collision would have put it.
	bLines := []Span{{5, 7}}
	k := xxh3.Hash(binaryHash(h, encodeLines(nil, bLines)))
	err := ix.update(func(tx *bolt.Tx) error {
		fb := tx.Bucket(bucketFiles).Bucket([]byte("a.go"))
		ka := xxh3.Hash(binaryHash(h, encodeLines(nil, a.Files[0].Lines)))
		v := fb.Get(setKey(ka))
		if v == nil {
			return fmt.Errorf("no set at TestA's key")
		}
		v = append([]byte(nil), v...)
		if err := fb.Delete(setKey(ka)); err != nil {
			return err
		}
		row, err := decodeTest(tx.Bucket(bucketTests).Get([]byte(a.ID)))
		if err != nil {
			return err
		}
		row.sets[0] = k
		return errors.Join(fb.Put(setKey(k), v), tx.Bucket(bucketTests).Put([]byte(a.ID), encodeTest(row)))
	})
	if err != nil {
		t.Fatal(err)
	}
	b := Record{ID: "a_test.go::TestB", Recorded: t0, Outcome: "pass", Files: []File{{Path: "a.go", Hash: h, Lines: bLines}}}
	if err := ix.Replace([]Record{b}); err != nil {
		t.Fatal(err)
	}
	ans, err := ix.Covering(Query{File: "a.go", Current: src, Funcs: funcsA})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(ans.Tests); got != "a_test.go::TestA@3-4/line a_test.go::TestB@5-7/line" {
		t.Fatalf("after a collision: %s", got)
	}
	// Recording TestA again takes it out of the set at the colliding key.
	a.Files[0].Lines = []Span{{8, 8}}
	if err := ix.Replace([]Record{a}); err != nil {
		t.Fatal(err)
	}
	ans, err = ix.Covering(Query{File: "a.go", Current: src, Funcs: funcsA})
	if got := ids(ans.Tests); err != nil || got != "a_test.go::TestA@8/line a_test.go::TestB@5-7/line" {
		t.Fatalf("after recording TestA again: %s %v", got, err)
	}
}
