package coverage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// synthetic is a project of n tests over 500 files of 400 lines (20
// functions each): each test executes 20 files, 12 spans in each.
func synthetic(n int) []Record {
	r := rand.New(rand.NewPCG(1, 2))
	funcs := make([]Func, 20)
	for i := range funcs {
		funcs[i] = Func{Name: fmt.Sprintf("F%d", i), Start: i*20 + 1, End: i*20 + 19, Hash: uint64(i)}
	}
	recs := make([]Record, n)
	for i := range recs {
		rec := Record{ID: fmt.Sprintf("pkg%d/x_test.go::TestNumber%d", i/50, i), Recorded: t0, Outcome: "pass"}
		for f := range 20 {
			file := (i*7 + f*13) % 500
			var lines []Span
			for range 12 {
				s := r.IntN(390) + 1
				lines = append(lines, Span{s, s + r.IntN(6)})
			}
			rec.Files = append(rec.Files, File{Path: fmt.Sprintf("pkg%d/file%d.go", file/10, file), Hash: uint64(file), Lines: Merge(lines), Funcs: funcs})
		}
		recs[i] = rec
	}
	return recs
}

// BenchmarkBuild10k records 10,000 tests into a fresh index (one run of
// the whole suite) and reports the file's size.
//
//	go test -run '^$' -bench 10k -benchtime 3x ./coverage
func BenchmarkBuild10k(b *testing.B) {
	recs := synthetic(10000)
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "c.db")
		ix, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := ix.Replace(recs); err != nil {
			b.Fatal(err)
		}
		ix.Close()
		st, _ := os.Stat(path)
		b.ReportMetric(float64(st.Size())/(1<<20), "MB")
	}
}

// BenchmarkQuery10k asks which of 10,000 tests executed one line (its
// file holds the entries of ~400 tests), opening the index read-only as
// `testdex covering` does.
func BenchmarkQuery10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "c.db")
	ix, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := ix.Replace(synthetic(10000)); err != nil {
		b.Fatal(err)
	}
	ix.Close()
	cur := []byte("other content: answered through function hashes")
	funcs := synthetic(1)[0].Files[0].Funcs
	for b.Loop() {
		ro, err := Open(path, Options{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		ans, err := ro.Covering(Query{File: "pkg1/file13.go", Start: 45, End: 45, Current: cur, Funcs: funcs})
		if err != nil || len(ans.Tests) == 0 {
			b.Fatal(err, ans)
		}
		ro.Close()
	}
}

// BenchmarkReplace100of10k records again 100 tests of an index of 10,000
// (a run of a subset).
func BenchmarkReplace100of10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "c.db")
	ix, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	recs := synthetic(10000)
	if err := ix.Replace(recs); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := ix.Replace(recs[5000:5100]); err != nil {
			b.Fatal(err)
		}
	}
}
