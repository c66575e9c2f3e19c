package coverage

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zeebo/xxh3"
	bolt "go.etcd.io/bbolt"
)

var t0 = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

func openT(t *testing.T, path string, o Options) *Index {
	t.Helper()
	ix, err := Open(path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func ids(hs []Hit) string {
	var s []string
	for _, h := range hs {
		s = append(s, h.ID+"@"+String(h.Lines)+"/"+h.By)
	}
	return strings.Join(s, " ")
}

const srcA = "package a\n\nfunc F(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"

var funcsA = []Func{{Name: "F", Start: 3, End: 8, Hash: 42}}

func TestReplaceIsIncremental(t *testing.T) {
	ix := openT(t, filepath.Join(t.TempDir(), "c.db"), Options{})
	h := xxh3.HashString(srcA)
	err := ix.Replace([]Record{
		{ID: "a_test.go::TestA", Recorded: t0, Outcome: "pass", Granularity: "test", Files: []File{{Path: "a.go", Hash: h, Lines: []Span{{3, 5}}, Funcs: funcsA}}},
		{ID: "a_test.go::TestB", Recorded: t0, Outcome: "fail", Granularity: "file", Files: []File{{Path: "a.go", Hash: h, Lines: []Span{{3, 4}, {7, 8}}, Funcs: funcsA}, {Path: "b.go", Hash: 7, Lines: []Span{{1, 1}}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	q := Query{File: "a.go", Start: 5, End: 5, Current: []byte(srcA), Funcs: funcsA}
	ans, err := ix.Covering(q)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(ans.Tests); got != "a_test.go::TestA@5/line" {
		t.Fatalf("line 5: %s", got)
	}
	if !ans.Tests[0].Recorded.Equal(t0) || ans.Tests[0].Outcome != "pass" || ans.Tests[0].Granularity != "" {
		t.Errorf("stamp: %+v", ans.Tests[0])
	}
	// A run of TestB alone replaces TestB only: it no longer reaches b.go.
	t1 := t0.Add(time.Hour)
	if err := ix.Replace([]Record{{ID: "a_test.go::TestB", Recorded: t1, Outcome: "pass", Files: []File{{Path: "a.go", Hash: h, Lines: []Span{{5, 5}}, Funcs: funcsA}}}}); err != nil {
		t.Fatal(err)
	}
	ans, _ = ix.Covering(q)
	if got := ids(ans.Tests); got != "a_test.go::TestA@5/line a_test.go::TestB@5/line" {
		t.Fatalf("after replace: %s", got)
	}
	if ans.Tests[1].Outcome != "pass" || !ans.Tests[1].Recorded.Equal(t1) {
		t.Errorf("TestB's new stamp: %+v", ans.Tests[1])
	}
	if ans, _ := ix.Covering(Query{File: "b.go", Current: []byte("x")}); len(ans.Tests)+len(ans.Stale) != 0 || ans.Recordings != 0 {
		t.Errorf("b.go kept an entry of TestB's old run: %+v", ans)
	}
	if n, _ := ix.Tests(); n != 2 {
		t.Errorf("tests = %d, want 2", n)
	}
}

func TestChangedFileByFunctionHashOrStale(t *testing.T) {
	ix := openT(t, filepath.Join(t.TempDir(), "c.db"), Options{})
	rec := Record{ID: "T", Recorded: t0, Outcome: "pass", Files: []File{{Path: "a.go", Hash: xxh3.HashString(srcA), Lines: []Span{{3, 5}}, Funcs: funcsA}}}
	if err := ix.Replace([]Record{rec}); err != nil {
		t.Fatal(err)
	}
	// A comment above F moves it down two lines; its hash is the same.
	moved := "package a\n\n// F is F.\n// It is.\nfunc F(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
	movedFuncs := []Func{{Name: "F", Start: 5, End: 10, Hash: 42}}
	ans, err := ix.Covering(Query{File: "a.go", Start: 7, End: 7, Current: []byte(moved), Funcs: movedFuncs})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(ans.Tests); got != "T@7/function" || ans.Tests[0].Functions[0] != "F" {
		t.Fatalf("moved line 7 (was 5): %s", got)
	}
	if ans, _ := ix.Covering(Query{File: "a.go", Start: 9, End: 9, Current: []byte(moved), Funcs: movedFuncs}); len(ans.Tests)+len(ans.Stale) != 0 {
		t.Errorf("line 9 (was 7, not executed): %+v", ans)
	}
	// Line 3 is a comment between functions: Go executes none there.
	if ans, _ := ix.Covering(Query{File: "a.go", Start: 3, End: 3, Current: []byte(moved), Funcs: movedFuncs}); len(ans.Tests)+len(ans.Stale) != 0 {
		t.Errorf("comment line: %+v", ans)
	}
	// F itself changed: stale, never a guess.
	changed := []Func{{Name: "F", Start: 5, End: 10, Hash: 43}}
	ans, _ = ix.Covering(Query{File: "a.go", Start: 7, End: 7, Current: []byte(moved + "\n"), Funcs: changed})
	if len(ans.Tests) != 0 || len(ans.Stale) != 1 || ans.Stale[0].ID != "T" || ans.Stale[0].Outcome != "pass" {
		t.Fatalf("changed function: %+v", ans)
	}
	// No Spanner: stale too.
	if ans, _ := ix.Covering(Query{File: "a.go", Start: 7, End: 7, Current: []byte(moved)}); len(ans.Stale) != 1 {
		t.Errorf("no functions known: %+v", ans)
	}
}

func TestNoData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	if _, err := Open(path, Options{ReadOnly: true}); !errors.Is(err, ErrNoData) {
		t.Fatalf("missing index: %v", err)
	}
	openT(t, path, Options{}).Close()
	ix := openT(t, path, Options{ReadOnly: true})
	if _, err := ix.Covering(Query{File: "a.go"}); !errors.Is(err, ErrNoData) {
		t.Fatalf("empty index: %v", err)
	}
}

func TestDamagedIndexIsRebuilt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a bbolt file\n", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, Options{ReadOnly: true}); !errors.Is(err, ErrDamaged) {
		t.Fatalf("read-only open of a damaged index: %v", err)
	}
	var warned []string
	ix := openT(t, path, Options{Warn: func(s string) { warned = append(warned, s) }})
	if len(warned) != 1 || !strings.Contains(warned[0], "damaged") || !strings.Contains(warned[0], "rebuilding") {
		t.Fatalf("warnings: %q", warned)
	}
	if err := ix.Replace([]Record{{ID: "T", Recorded: t0, Files: []File{{Path: "a.go", Lines: []Span{{1, 1}}}}}}); err != nil {
		t.Fatal(err)
	}
}

func TestDamagedPagesNeverPanic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	ix := openT(t, path, Options{})
	var recs []Record
	for i := range 300 {
		recs = append(recs, Record{ID: "T" + strings.Repeat("x", i%50) + string(rune('a'+i%26)), Recorded: t0,
			Files: []File{{Path: "a.go", Hash: 1, Lines: []Span{{i + 1, i + 3}}, Funcs: funcsA}}})
	}
	if err := ix.Replace(recs); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	data, _ := os.ReadFile(path)
	for i := 3 * 4096; i < len(data); i += 7 { // scribble over every page but the metas
		data[i] ^= 0x5a
	}
	os.WriteFile(path, data, 0o644)
	ro, err := Open(path, Options{ReadOnly: true})
	if err == nil {
		_, err = ro.Covering(Query{File: "a.go", Current: []byte("x")})
		ro.Close()
	}
	if err != nil && !errors.Is(err, ErrDamaged) {
		t.Fatalf("a damaged page gave %v, want ErrDamaged", err)
	}
}

func TestConcurrentWriterWaitsThenSaysBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	ix := openT(t, path, Options{})
	start := time.Now()
	_, err := Open(path, Options{Timeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "another testdex process") {
		t.Fatalf("second writer: %v", err)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("gave up after %v, before the timeout", d)
	}
	ix.Close()
	openT(t, path, Options{Timeout: time.Second}) // free again
}

func TestProcessAndSeqRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	ix := openT(t, path, Options{})
	f := []File{{Path: "a.go", Hash: 1, Lines: []Span{{3, 5}}}}
	err := ix.Replace([]Record{
		{ID: "a_test.go::TestA", Recorded: t0, Outcome: "pass", Process: "go:a", Seq: 0, Files: f},
		{ID: "a_test.go::TestB", Recorded: t0, Outcome: "pass", Process: "go:a", Seq: 7, Files: f},
		{ID: "a_test.go::TestC", Recorded: t0, Outcome: "pass", Process: "go:a", Seq: Unordered, Files: f},
		{ID: "a_test.go::TestD", Recorded: t0, Outcome: "pass", Files: f},
	})
	if err != nil {
		t.Fatal(err)
	}
	all, err := ix.AllTests()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"TestA": "go:a/0", "TestB": "go:a/7", "TestC": "go:a/-1", "TestD": "/0"}
	for name, w := range want {
		ti := all["a_test.go::"+name]
		if got := ti.Process + "/" + strconv.Itoa(ti.Seq); got != w || len(ti.Files) != 1 {
			t.Errorf("%s: %s %v, want %s", name, got, ti.Files, w)
		}
	}
}

// An index of an older version (3: a row per test and file) reads as
// holding nothing, and is rebuilt when opened for writing.
func TestOlderIndexIsRebuilt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	db, err := bolt.Open(path, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		meta, _ := tx.CreateBucket(bucketMeta)
		tests, _ := tx.CreateBucket(bucketTests)
		files, _ := tx.CreateBucket(bucketFiles)
		fb, _ := files.CreateBucket([]byte("a.go"))
		return errors.Join(meta.Put(keyVersion, []byte("3")), tests.Put([]byte("a_test.go::TestA"), []byte{1, 2, 3}),
			fb.Put([]byte("ta_test.go::TestA"), []byte{4, 5, 6}))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	ro := openT(t, path, Options{ReadOnly: true})
	if _, err := ro.AllTests(); !errors.Is(err, ErrNoData) {
		t.Fatalf("read-only AllTests of a version 3 index: %v", err)
	}
	if _, err := ro.Covering(Query{File: "a.go"}); !errors.Is(err, ErrNoData) {
		t.Fatalf("read-only Covering of a version 3 index: %v", err)
	}
	ro.Close()
	ix := openT(t, path, Options{})
	if _, err := ix.AllTests(); !errors.Is(err, ErrNoData) {
		t.Fatalf("rebuilt index: %v", err)
	}
	rec := Record{ID: "a_test.go::TestB", Recorded: t0, Outcome: "pass", Files: []File{{Path: "a.go", Hash: 1, Lines: []Span{{3, 5}}}}}
	if err := ix.Replace([]Record{rec}); err != nil {
		t.Fatal(err)
	}
	all, err := ix.AllTests()
	if _, old := all["a_test.go::TestA"]; err != nil || len(all) != 1 || old {
		t.Fatalf("after a write: %v %v", all, err)
	}
}
