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

// testValue is a test's row in the tests bucket: when, outcome, and the
// files it has entries in (to delete them when it is recorded again).
type testValue struct {
	recorded    time.Time
	outcome     string
	granularity string
	files       []string
	process     string
	seq         int
}

func encodeTest(v testValue) []byte {
	b := binary.AppendUvarint(nil, uint64(v.recorded.UnixNano()))
	b = putStr(b, v.outcome)
	b = putStr(b, v.granularity)
	b = binary.AppendUvarint(b, uint64(len(v.files)))
	for _, f := range v.files {
		b = putStr(b, f)
	}
	if v.process != "" {
		b = putStr(b, v.process)
		b = binary.AppendUvarint(b, uint64(v.seq+1)) // Unordered is 0
	}
	return b
}

func decodeTest(b []byte) (testValue, error) {
	r := &reader{b: b}
	v := testValue{recorded: time.Unix(0, int64(r.uvarint())), outcome: r.str()}
	v.granularity = r.str()
	n := r.int()
	for i := 0; i < n && r.err == nil; i++ {
		v.files = append(v.files, r.str())
	}
	if r.err == nil && len(r.b) > 0 { // version 2's rows end here: Process ""
		v.process = r.str()
		v.seq = r.int() - 1
	}
	return v, r.err
}

// entry is one test's row in a file's bucket: the file's content hash
// when recorded and the lines executed.
type entry struct {
	id    string
	hash  uint64
	lines []Span
}

func encodeEntry(hash uint64, lines []Span) []byte {
	b := binary.LittleEndian.AppendUint64(make([]byte, 0, 8+2*len(lines)+2), hash)
	b = binary.AppendUvarint(b, uint64(len(lines)))
	prev := 0
	for _, s := range lines {
		b = binary.AppendUvarint(b, uint64(s.Start-prev))
		b = binary.AppendUvarint(b, uint64(s.End-s.Start))
		prev = s.End
	}
	return b
}

func decodeEntry(b []byte) (hash uint64, lines []Span, err error) {
	r := &reader{b: b}
	hash = r.u64()
	n := r.int()
	if n > len(b) {
		return 0, nil, errShort
	}
	lines = make([]Span, 0, n)
	prev := 0
	for i := 0; i < n && r.err == nil; i++ {
		s := prev + r.int()
		e := s + r.int()
		lines = append(lines, Span{s, e})
		prev = e
	}
	return hash, lines, r.err
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

// testKey is the key of a test's entry in a file's bucket.
func testKey(id string) []byte { return append([]byte{'t'}, id...) }
