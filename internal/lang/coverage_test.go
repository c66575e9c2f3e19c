package lang

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestMergeSorted: merging two sorted, merged span lists gives what
// MergeSpans gives of their concatenation (overlapping, adjacent,
// nested and disjoint spans, either list empty), on random lists.
func TestMergeSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	list := func() []Span {
		var s []Span
		for range rng.IntN(6) {
			a := 1 + rng.IntN(40)
			s = append(s, Span{Start: a, End: a + rng.IntN(4)})
		}
		return MergeSpans(s)
	}
	for range 2000 {
		a, b := list(), list()
		want := MergeSpans(append(slices.Clone(a), b...))
		if got := MergeSorted(a, b); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("MergeSorted(%v, %v) = %v, want %v", a, b, got, want)
		}
	}
}
