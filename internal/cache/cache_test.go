package cache

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

func sample() *Snapshot {
	yes := true
	return &Snapshot{Written: 5e9 + 123, Entries: map[string]*Entry{
		Key("a_test.go", "go"): {Size: 10, MTime: 1e9, Checked: 5e9, Hash: 0xdeadbeef, ExtractorKey: "go/1", Result: lang.Result{
			Package: "a_test",
			Facts:   []byte("mod tests;"),
			Tests: []lang.Test{
				{Kind: testdex.KindTest, Name: "TestA", Line: 3, Run: "^TestA$", Meta: map[string]string{"k": "v", "a": ""}},
				{Kind: testdex.KindSubtest, Name: "TestA/{tc.name}", Local: "l", Scope: "s", Parent: "TestA", Line: 4, Dynamic: true, Skip: true, Tags: []string{"x"}},
			},
			Problems: []testdex.Problem{{Severity: testdex.SevError, Line: 9, Message: "expected ';'"}},
		}},
		Key("b.spec.md", "semtest"): {Size: 1, MTime: 2, Hash: 3, ExtractorKey: "markdown/1", Result: lang.Result{
			Tests: []lang.Test{{Kind: testdex.KindSpec, Name: "b.spec.md", Line: 1, Tags: []string{}, Spec: &testdex.SpecMeta{LLM: "m", SkipPermissionsIfPossible: &yes}}},
		}},
	}}
}

func TestRoundTrip(t *testing.T) {
	st := NewStore(t.TempDir(), "/some/root")
	want := sample()
	if err := st.Save(want); err != nil {
		t.Fatal(err)
	}
	got, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
	}
}

func TestMissingIsEmpty(t *testing.T) {
	got, err := NewStore(t.TempDir(), "/r").Load()
	if err != nil || len(got.Entries) != 0 {
		t.Fatalf("got %+v, %v", got, err)
	}
}

// TestDamagedEntryIsDropped flips one byte inside every position of the
// encoded snapshot in turn: loading never fails hard, never panics, and a
// damaged entry never comes back altered.
func TestDamagedEntryIsDropped(t *testing.T) {
	want := sample()
	data := encodeSnapshot(want)
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x55
		s, err := decodeSnapshot(bad)
		if err != nil {
			continue // header damage: the caller rebuilds
		}
		for k, e := range s.Entries {
			if !reflect.DeepEqual(e, want.Entries[k]) {
				t.Fatalf("byte %d: entry %q came back altered: %+v", i, k, e)
			}
		}
	}
	for n := range data {
		s, err := decodeSnapshot(data[:n])
		if err == nil && len(s.Entries) == len(want.Entries) {
			t.Fatalf("truncated to %d bytes but all entries survived", n)
		}
	}
}

func TestRacyEntriesAreNotTrusted(t *testing.T) {
	s := sample()
	k := Key("a_test.go", "go")
	if s.Trusted(k, 10, 1e9, "go/1") == nil {
		t.Error("old entry not trusted")
	}
	s.Entries[k].Checked = 1e9 + Racy/2
	if s.Trusted(k, 10, 1e9, "go/1") != nil {
		t.Error("entry modified within the racy window of its check was trusted")
	}
	if s.Matching(k, 0xdeadbeef, "go/1") == nil || s.Matching(k, 0xdeadbeef, "go/2") != nil {
		t.Error("Matching ignores hash or extractor key")
	}
}

func TestConcurrentSaves(t *testing.T) {
	st := NewStore(t.TempDir(), "/r")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := st.Save(sample()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := st.Load()
	if err != nil || len(got.Entries) != 2 {
		t.Fatalf("got %d entries, %v", len(got.Entries), err)
	}
	left, err := os.ReadDir(filepath.Dir(st.Path()))
	if err != nil || len(left) != 1 {
		t.Errorf("cache folder holds %d entries (temporary files left behind?), %v", len(left), err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encodeSnapshot(sample()))
	f.Add([]byte("TDXC\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeSnapshot(data)
	})
}
