package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// split feeds data to a Splitter in chunks of size chunk (all at once for
// 0), flushes, and returns the lines.
func split(data []byte, chunk, bound int, newline bool) []string {
	var got []string
	s := &Splitter{Max: bound, Newline: newline, Line: func(l []byte) { got = append(got, string(l)) }}
	if chunk == 0 {
		chunk = max(len(data), 1)
	}
	for i := 0; i < len(data); i += chunk {
		s.Write(data[i:min(i+chunk, len(data))])
	}
	s.Flush()
	return got
}

// TestSplitterChunks: the same lines whatever the chunk size, an empty
// line kept, "\r" left for the caller, no final newline a line of its own.
func TestSplitterChunks(t *testing.T) {
	data := []byte("one\n\ntwo\r\nthree ünï\nlast")
	want := []string{"one", "", "two\r", "three ünï", "last"}
	wantNL := []string{"one\n", "\n", "two\r\n", "three ünï\n", "last"}
	for chunk := 0; chunk <= len(data); chunk++ {
		if got := split(data, chunk, 0, false); !slices.Equal(got, want) {
			t.Errorf("chunk %d: %q, want %q", chunk, got, want)
		}
		if got := split(data, chunk, 0, true); !slices.Equal(got, wantNL) {
			t.Errorf("chunk %d, Newline: %q, want %q", chunk, got, wantNL)
		}
	}
}

// TestSplitterEnds: nothing for an empty stream, nothing for a stream that
// ends with its newline, and Flush twice hands nothing twice.
func TestSplitterEnds(t *testing.T) {
	if got := split(nil, 0, 0, false); got != nil {
		t.Errorf("empty stream: %q", got)
	}
	if got := split([]byte("a\n"), 1, 0, false); !slices.Equal(got, []string{"a"}) {
		t.Errorf("ended stream: %q", got)
	}
	var n int
	s := &Splitter{Line: func([]byte) { n++ }}
	s.Write([]byte("x"))
	s.Flush()
	s.Close()
	if n != 1 {
		t.Errorf("flushed %d lines, want 1", n)
	}
}

// TestSplitterLongLine: a line over the bound comes in pieces of at most
// Max bytes that add up to it, the newline on the last with Newline; the
// line after it is whole.
func TestSplitterLongLine(t *testing.T) {
	long := strings.Repeat("0123456789", 3) + "x" // 31 bytes
	data := []byte(long + "\nnext\n")
	want := []string{"0123456789", "0123456789", "0123456789", "x", "next"}
	wantNL := []string{"0123456789", "0123456789", "0123456789", "x\n", "next\n"}
	for chunk := 0; chunk <= len(data); chunk++ {
		if got := split(data, chunk, 10, false); !slices.Equal(got, want) {
			t.Errorf("chunk %d: %q, want %q", chunk, got, want)
		}
		if got := split(data, chunk, 10, true); !slices.Equal(got, wantNL) {
			t.Errorf("chunk %d, Newline: %q, want %q", chunk, got, wantNL)
		}
	}
	// Exactly the bound is whole; a bound below utf8.UTFMax is UTFMax.
	if got := split([]byte("0123456789\n"), 1, 10, false); !slices.Equal(got, []string{"0123456789"}) {
		t.Errorf("a line of exactly Max: %q", got)
	}
	if got := split([]byte("abcdefghi"), 1, 1, false); !slices.Equal(got, []string{"abcd", "efgh", "i"}) {
		t.Errorf("Max 1: %q", got)
	}
}

// TestSplitterRunes: a cut never falls inside a valid rune, for every
// position of a multi-byte rune around the bound.
func TestSplitterRunes(t *testing.T) {
	for _, r := range []string{"é", "€", "𝄞"} {
		for pad := 0; pad < 12; pad++ {
			line := strings.Repeat("a", pad) + r + strings.Repeat("b", 12) + r + r
			for chunk := 0; chunk <= 7; chunk++ {
				got := split([]byte(line), chunk, 8, false)
				if strings.Join(got, "") != line {
					t.Fatalf("%q pad %d chunk %d: pieces %q lose bytes", r, pad, chunk, got)
				}
				for _, p := range got {
					if len(p) > 8 || !utf8.ValidString(p) {
						t.Errorf("%q pad %d chunk %d: piece %q (%d bytes) cut inside a rune or too long", r, pad, chunk, p, len(p))
					}
				}
			}
		}
	}
}

// TestSplitterInvalidUTF8: invalid bytes pass through untouched, cut
// where the bound falls, the same way in every chunk size.
func TestSplitterInvalidUTF8(t *testing.T) {
	data := []byte("ab\xff\xfe\xe2\x82cdef\xe2\x82\xacgh\x80\x80\x80\x80ij\n\xc3")
	want := split(data, 0, 5, true)
	if got := strings.Join(want, ""); got != string(data) {
		t.Fatalf("pieces %q do not add up to the stream", want)
	}
	for chunk := 1; chunk <= len(data); chunk++ {
		if got := split(data, chunk, 5, true); !slices.Equal(got, want) {
			t.Errorf("chunk %d: %q, want %q", chunk, got, want)
		}
	}
	for _, p := range want {
		if len(strings.TrimSuffix(p, "\n")) > 5 {
			t.Errorf("piece %q over the bound", p)
		}
	}
}

// TestSplitterRandom: random streams of ASCII, runes, invalid bytes and
// newlines split the same in random chunks as whole, and add up to the
// stream.
func TestSplitterRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "\n", "é", "€", "𝄞", "\xff", "\xe2\x82", "\r\n"}
	for round := 0; round < 300; round++ {
		var b strings.Builder
		for n := rng.IntN(80); n > 0; n-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		data := []byte(b.String())
		bound := 4 + rng.IntN(10)
		want := split(data, 0, bound, true)
		if strings.Join(want, "") != string(data) {
			t.Fatalf("%q: pieces %q do not add up", data, want)
		}
		var got []string
		s := &Splitter{Max: bound, Newline: true, Line: func(l []byte) { got = append(got, string(l)) }}
		for rest := data; len(rest) > 0; {
			n := min(1+rng.IntN(9), len(rest))
			s.Write(rest[:n])
			rest = rest[n:]
		}
		s.Flush()
		if !slices.Equal(got, want) {
			t.Fatalf("%q max %d: random chunks %q, whole %q", data, bound, got, want)
		}
	}
}

// TestSplitterBounded: a stream without newlines does not pile up: what
// the Splitter holds stays under the bound plus a chunk.
func TestSplitterBounded(t *testing.T) {
	var n int
	s := &Splitter{Max: 1000, Line: func(l []byte) { n += len(l) }}
	chunk := bytes.Repeat([]byte("x"), 333)
	for i := 0; i < 30000; i++ {
		s.Write(chunk)
		if len(s.buf) > 1000+utf8.UTFMax+len(chunk) {
			t.Fatalf("after %d writes the Splitter holds %d bytes", i+1, len(s.buf))
		}
	}
	s.Flush()
	if n != 30000*333 {
		t.Errorf("handed on %d bytes, want %d", n, 30000*333)
	}
}

// TestReadLine reads lines around the limit through a 16-byte buffer,
// whole and one byte at a time: a line over the limit is marked long and
// cut between runes, the line after it is intact.
func TestReadLine(t *testing.T) {
	input := "abc\n" + "0123456789\n" + "0123456789X\n" + strings.Repeat("y", 100) + "\n" + "012345678€\n" + "\n" + "a\r\n" + "last"
	want := []string{"abc", "0123456789", "0123456789 long", "yyyyyyyyyy long", "012345678 long", "", "a\r", "last"}
	for name, r := range map[string]io.Reader{"whole": strings.NewReader(input), "bytes": iotest.OneByteReader(strings.NewReader(input))} {
		br := bufio.NewReaderSize(r, 16)
		var got []string
		for {
			line, long, err := ReadLine(br, 10)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			s := string(line)
			if long {
				s += " long"
			}
			got = append(got, s)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
