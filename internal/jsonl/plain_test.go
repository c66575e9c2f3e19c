package jsonl

import (
	"math/rand/v2"
	"testing"
)

// TestPlainWord compares plainWord with the byte table on words built
// from the bytes around each edge, at every position, and on random ones.
func TestPlainWord(t *testing.T) {
	edges := []byte{0, 0x1f, 0x20, 0x21, '"', 0x23, 0x5b, '\\', 0x5d, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff, 'a'}
	check := func(w uint64) {
		want := true
		for k := 0; k < 8; k++ {
			want = want && plain[byte(w>>(8*k))]
		}
		if got := plainWord(w); got != want {
			t.Fatalf("plainWord(%#016x) = %v, want %v", w, got, want)
		}
	}
	const base = 0x6161616161616161 // "aaaaaaaa"
	for k := 0; k < 8; k++ {
		for _, e := range edges {
			for _, f := range edges {
				w := uint64(base)&^(0xff<<(8*k)) | uint64(e)<<(8*k)
				for j := 0; j < 8; j++ {
					if j != k {
						check(w&^(0xff<<(8*j)) | uint64(f)<<(8*j))
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		w := r.Uint64()
		check(w)
		check(w & 0x7f7f7f7f7f7f7f7f)
	}
}
