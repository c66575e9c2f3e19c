package jsonl_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/jsonl"
)

// reference is what `testdex list --json` wrote before AppendTest: the
// record through encoding/json with HTML escaping off.
func reference(t testing.TB, rec *testdex.Test) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func check(t testing.TB, rec *testdex.Test) {
	want := reference(t, rec)
	if got := jsonl.AppendTest(nil, rec); !bytes.Equal(got, want) {
		t.Fatalf("AppendTest differs from encoding/json\n got: %s\nwant: %s", got, want)
	}
}

func TestAppendTestEdgeCases(t *testing.T) {
	yes := true
	odd := []string{"", "plain", `quo"te`, `back\slash`, "tab\there", "nl\n", "\x00\x01\x1f", "\b\f", "<html>&", "\x7f",
		"é ü 漢字", "\u2028\u2029", "bad\xffutf8", "\xc3", "{placeholder}", "a/b#01", "\U0001F600"}
	recs := []testdex.Test{
		{},
		{ID: "a_test.go::TestA", Framework: testdex.Go, Kind: testdex.KindTest, Scope: "p", Name: "TestA", File: "a_test.go", Line: 3, Tags: []string{}, Project: "."},
		{ID: "x", Tags: []string{"slow", "net"}, Dynamic: true, Skip: true, Only: true, Variant: "each", Run: "^TestA$", Seen: []string{testdex.SeenStatic, testdex.SeenRuntime}, Line: -1},
		{ID: "s.md", Framework: testdex.Semtest, Kind: testdex.KindSpec, Spec: &testdex.SpecMeta{Timeout: "5m", LLM: "x", SkipPermissionsIfPossible: &yes}},
		{ID: "s.md", Spec: &testdex.SpecMeta{}},
		{ID: "m", Meta: map[string]string{"skillName": "b", "a<": "z\n"}, Seen: []string{}},
	}
	for _, s := range odd {
		recs = append(recs, testdex.Test{ID: s, Scope: s, Name: s, Parent: s, File: s, Tags: []string{s, s}, Variant: s, Project: s, Run: s, Seen: []string{s}, Meta: map[string]string{s: s}})
	}
	for i := range recs {
		check(t, &recs[i])
	}
}

// TestAppendTestListing compares the two encodings on every record of a
// real listing: this repository's own tree, every language's fixtures.
func TestAppendTestListing(t *testing.T) {
	ix, err := index.Build(context.Background(), index.Options{Root: filepath.Join("..", "..")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Tests) < 1000 {
		t.Fatalf("only %d records in the repository's listing", len(ix.Tests))
	}
	for i := range ix.Tests {
		check(t, &ix.Tests[i])
	}
}

func FuzzAppendTest(f *testing.F) {
	f.Add("a_test.go::TestA/b", "TestA/b", "tag", 3, true)
	f.Add("\u2028\"\\\x00\xff", "é", "<&>", -7, false)
	f.Fuzz(func(t *testing.T, id, name, tag string, line int, flag bool) {
		rec := testdex.Test{ID: id, Name: name, Scope: tag, Line: line, Dynamic: flag, Only: flag, Variant: tag, Tags: []string{tag, name}, Run: name}
		if flag {
			rec.Meta = map[string]string{tag: name, id: tag}
		}
		check(t, &rec)
	})
}

func BenchmarkAppendTest(b *testing.B) {
	rec := testdex.Test{ID: "strings/strings_test.go::TestRepeat/case_12", Framework: testdex.Go, Kind: testdex.KindSubtest,
		Scope: "strings", Name: "TestRepeat/case_12", Parent: "strings/strings_test.go::TestRepeat", File: "strings/strings_test.go",
		Line: 1234, Tags: []string{}, Project: ".", Run: "^TestRepeat$/^case_12$"}
	var buf []byte
	for b.Loop() {
		buf = jsonl.AppendTest(buf[:0], &rec)
	}
}

// TestWriteTests checks that the chunks encoded on all cores come out in
// order, byte for byte the records one after another, for listings of
// every size around the chunk boundaries, and that a failing writer's
// error is returned.
func TestWriteTests(t *testing.T) {
	for _, n := range []int{0, 1, 2047, 2048, 2049, 3*2048 + 5, 40000} {
		tests := make([]testdex.Test, n)
		var want []byte
		for i := range tests {
			tests[i] = testdex.Test{ID: fmt.Sprintf("f_test.go::TestX/%d", i), Name: fmt.Sprintf("TestX/%d", i), Line: i, Tags: []string{}}
			want = append(want, reference(t, &tests[i])...)
		}
		var got bytes.Buffer
		if err := jsonl.WriteTests(&got, tests); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%d records: output differs from the records in order", n)
		}
	}
	tests := make([]testdex.Test, 20000)
	if err := jsonl.WriteTests(&failAfter{n: 3}, tests); err == nil || err.Error() != "disk full" {
		t.Fatalf("error %v, want the writer's", err)
	}
}

// failAfter accepts n writes, then fails every write.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(p), nil
}
