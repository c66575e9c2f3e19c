package coverage

import (
	"encoding/binary"
	"errors"
	"time"
)

// The values are compact binary: uvarints, line spans as deltas, hashes
// as 8 little-endian bytes. Each encoder returns a fresh slice (bbolt
// keeps what Put is given until the transaction commits).

var errShort = errors.New("truncated value")

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

// int reads a uvarint that must fit a line number or a count.
func (r *reader) int() int {
	v := r.uvarint()
	if v > 1<<31 {
		r.err = errShort
		return 0
	}
	return int(v)
}

func (r *reader) u64() uint64 {
	if r.err != nil || len(r.b) < 8 {
		r.err = errShort
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *reader) str() string {
	n := r.int()
	if r.err != nil || n > len(r.b) {
		r.err = errShort
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func putStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// testValue is a test's row in the tests bucket: when, outcome, its
// number (the key of its name in the ids bucket), the files it has
// entries in with the key of its line set in each (to take it out of them
// when it is recorded again), and where it ran.
type testValue struct {
	recorded    time.Time
	outcome     string
	granularity string
	num         uint64
	files       []string
	sets        []uint64 // per file, the key of the set holding the test
	process     string
	seq         int
}

func encodeTest(v testValue) []byte {
	b := binary.AppendUvarint(nil, uint64(v.recorded.UnixNano()))
	b = putStr(b, v.outcome)
	b = putStr(b, v.granularity)
	b = binary.AppendUvarint(b, v.num)
	b = binary.AppendUvarint(b, uint64(len(v.files)))
	for i, f := range v.files {
		b = putStr(b, f)
		b = binary.LittleEndian.AppendUint64(b, v.sets[i])
	}
	b = putStr(b, v.process)
	return binary.AppendUvarint(b, uint64(v.seq+1)) // Unordered is 0
}

func decodeTest(b []byte) (testValue, error) {
	r := &reader{b: b}
	v := testValue{recorded: time.Unix(0, int64(r.uvarint())), outcome: r.str()}
	v.granularity = r.str()
	v.num = r.uvarint()
	n := r.int()
	if n > len(b) {
		return v, errShort
	}
	for i := 0; i < n && r.err == nil; i++ {
		v.files = append(v.files, r.str())
		v.sets = append(v.sets, r.u64())
	}
	v.process = r.str()
	v.seq = r.int() - 1
	return v, r.err
}

// A file's bucket keeps each distinct line set once, with the numbers of
// the tests that executed exactly those lines of that version of the
// file (express: 161,637 test-and-file pairs, 1,502 distinct sets):
//
//	hash (8 LE) | uvarint len(lines) | lines | uvarint n | n test numbers, ascending, as deltas
//
// lines are encodeLines'. The key is 's' and the xxh3 of hash and lines
// (the next key up on a collision, which putSet tells by the bytes).

// set is one line set of a file, decoded but for its lines.
type set struct {
	hash  uint64
	lines []byte // encodeLines' bytes
	nums  []uint64
	// drop are numbers a Replace took out of nums, dropped when the set
	// is written (one pass, rather than a copy of nums per test).
	drop map[uint64]bool
	// dirty marks a set the Replace changed (a set read and left as it
	// was is not written again).
	dirty bool
}

func encodeSet(s set) []byte {
	b := make([]byte, 0, 8+len(s.lines)+2+2*len(s.nums))
	b = binary.LittleEndian.AppendUint64(b, s.hash)
	b = binary.AppendUvarint(b, uint64(len(s.lines)))
	b = append(b, s.lines...)
	b = binary.AppendUvarint(b, uint64(len(s.nums)))
	prev := uint64(0)
	for _, n := range s.nums {
		b = binary.AppendUvarint(b, n-prev)
		prev = n
	}
	return b
}

// decodeSet reads a set; its lines alias b.
func decodeSet(b []byte) (set, error) {
	r := &reader{b: b}
	s := set{hash: r.u64()}
	n := r.int()
	if r.err != nil || n > len(r.b) {
		return s, errShort
	}
	s.lines, r.b = r.b[:n:n], r.b[n:]
	k := r.int()
	if k > len(r.b) {
		return s, errShort
	}
	s.nums = make([]uint64, 0, k)
	prev := uint64(0)
	for i := 0; i < k && r.err == nil; i++ {
		prev += r.uvarint()
		s.nums = append(s.nums, prev)
	}
	return s, r.err
}

// encodeLines encodes sorted, non-overlapping spans as deltas.
func encodeLines(b []byte, lines []Span) []byte {
	b = binary.AppendUvarint(b, uint64(len(lines)))
	prev := 0
	for _, s := range lines {
		b = binary.AppendUvarint(b, uint64(s.Start-prev))
		b = binary.AppendUvarint(b, uint64(s.End-s.Start))
		prev = s.End
	}
	return b
}

func decodeLines(b []byte) ([]Span, error) {
	r := &reader{b: b}
	n := r.int()
	if n > len(b) {
		return nil, errShort
	}
	lines := make([]Span, 0, n)
	prev := 0
	for i := 0; i < n && r.err == nil; i++ {
		s := prev + r.int()
		e := s + r.int()
		lines = append(lines, Span{s, e})
		prev = e
	}
	return lines, r.err
}

func encodeFuncs(fs []Func) []byte {
	b := binary.AppendUvarint(nil, uint64(len(fs)))
	for _, f := range fs {
		b = putStr(b, f.Name)
		b = binary.AppendUvarint(b, uint64(f.Start))
		b = binary.AppendUvarint(b, uint64(max(f.End-f.Start, 0)))
		b = binary.LittleEndian.AppendUint64(b, f.Hash)
	}
	return b
}

func decodeFuncs(b []byte) ([]Func, error) {
	r := &reader{b: b}
	n := r.int()
	if n > len(b) {
		return nil, errShort
	}
	fs := make([]Func, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		f := Func{Name: r.str(), Start: r.int()}
		f.End = f.Start + r.int()
		f.Hash = r.u64()
		fs = append(fs, f)
	}
	return fs, r.err
}

// hashKey is the key of a file version's functions.
func hashKey(h uint64) []byte {
	return binary.LittleEndian.AppendUint64([]byte{'f'}, h)
}

// setKey is the key of a line set in a file's bucket.
func setKey(k uint64) []byte {
	return binary.LittleEndian.AppendUint64([]byte{'s'}, k)
}

// numKey is the key of a test's name in the ids bucket.
func numKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }
