package rust_test

import (
	"os"
	"testing"

	"github.com/testdex/testdex/internal/lang/rust"
)

// TestSpanner cuts testdata/cover/src/lib.rs into its fns and checks that
// reformatting and comments leave a fn's hash alone while an edit changes
// it.
func TestSpanner(t *testing.T) {
	src, err := os.ReadFile("testdata/cover/src/lib.rs")
	if err != nil {
		t.Fatal(err)
	}
	spans, err := rust.Spanner.Spans("lib.rs", src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range spans {
		got = append(got, s.Name)
	}
	want := []string{"a", "b", "S::m", "tests::test_a", "tests::test_b", "tests::test_fails", "tests::test_ignored"}
	if len(got) != len(want) {
		t.Fatalf("spans %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("span %d = %s, want %s", i, got[i], want[i])
		}
	}
	if spans[0].Start != 9 || spans[0].End != 12 {
		t.Errorf("a spans %d-%d, want 9-12", spans[0].Start, spans[0].End)
	}
	hash := func(s string) uint64 {
		sp, err := rust.Spanner.Spans("x.rs", []byte(s))
		if err != nil || len(sp) != 1 {
			t.Fatalf("%q: %v %v", s, sp, err)
		}
		return sp[0].Hash
	}
	base := hash("fn f(x: i32) -> i32 {\n    x + 1\n}\n")
	if h := hash("fn f(x:i32)->i32{ // one more\n x+1 /* sum */ }"); h != base {
		t.Error("reformatting changed the hash")
	}
	if h := hash("fn f(x: i32) -> i32 {\n    x + 2\n}\n"); h == base {
		t.Error("an edit kept the hash")
	}
}
