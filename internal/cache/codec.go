package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sort"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// The entry encoding is a flat sequence of varints and length-prefixed
// strings. It is hand-written because it is on the warm path: decoding the
// whole snapshot of a large tree must cost a small fraction of parsing it.

var errShort = errors.New("truncated entry")

type writer struct{ b *bytes.Buffer }

func (w *writer) uvarint(v uint64) {
	var buf [binary.MaxVarintLen64]byte
	w.b.Write(buf[:binary.PutUvarint(buf[:], v)])
}

func (w *writer) varint(v int64) {
	var buf [binary.MaxVarintLen64]byte
	w.b.Write(buf[:binary.PutVarint(buf[:], v)])
}

func (w *writer) str(s string) {
	w.uvarint(uint64(len(s)))
	w.b.WriteString(s)
}

func (w *writer) boolean(v bool) {
	if v {
		w.b.WriteByte(1)
	} else {
		w.b.WriteByte(0)
	}
}

func (w *writer) strs(ss []string) {
	if ss == nil {
		w.uvarint(0)
		return
	}
	w.uvarint(uint64(len(ss)) + 1)
	for _, s := range ss {
		w.str(s)
	}
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() { r.err, r.b = errShort, nil }

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if uint64(len(r.b)) < n {
		r.fail()
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func (r *reader) str() string { return string(r.bytes(r.uvarint())) }

func (r *reader) boolean() bool {
	b := r.bytes(1)
	return len(b) == 1 && b[0] == 1
}

func (r *reader) strs() []string {
	n := r.uvarint()
	if n == 0 || r.err != nil {
		return nil
	}
	if n-1 > uint64(len(r.b)) { // each string takes at least one byte
		r.fail()
		return nil
	}
	ss := make([]string, n-1)
	for i := range ss {
		ss[i] = r.str()
	}
	return ss
}

func encodeEntry(w *writer, e *Entry) {
	w.varint(e.Size)
	w.varint(e.MTime)
	w.varint(e.Checked)
	var h [8]byte
	binary.LittleEndian.PutUint64(h[:], e.Hash)
	w.b.Write(h[:])
	w.str(e.ExtractorKey)
	w.str(e.Result.Package)
	w.str(string(e.Result.Facts))
	w.uvarint(uint64(len(e.Result.Tests)))
	for i := range e.Result.Tests {
		encodeTest(w, &e.Result.Tests[i])
	}
	w.uvarint(uint64(len(e.Result.Problems)))
	for _, p := range e.Result.Problems {
		w.str(string(p.Severity))
		w.str(p.Path)
		w.varint(int64(p.Line))
		w.str(p.Message)
	}
}

func encodeTest(w *writer, t *lang.Test) {
	w.str(string(t.Kind))
	w.str(t.Name)
	w.str(t.Local)
	w.str(t.Parent)
	w.str(t.Scope)
	w.varint(int64(t.Line))
	w.boolean(t.Dynamic)
	w.boolean(t.Skip)
	w.boolean(t.WholeFile)
	w.strs(t.Tags)
	w.str(t.Run)
	w.boolean(t.Spec != nil)
	if t.Spec != nil {
		w.str(t.Spec.Timeout)
		w.str(t.Spec.LLM)
		w.boolean(t.Spec.SkipPermissionsIfPossible != nil)
		if t.Spec.SkipPermissionsIfPossible != nil {
			w.boolean(*t.Spec.SkipPermissionsIfPossible)
		}
	}
}

func decodeEntry(r *reader) *Entry {
	e := &Entry{Size: r.varint(), MTime: r.varint(), Checked: r.varint()}
	if h := r.bytes(8); h != nil {
		e.Hash = binary.LittleEndian.Uint64(h)
	}
	e.ExtractorKey = r.str()
	e.Result.Package = r.str()
	if facts := r.bytes(r.uvarint()); len(facts) > 0 {
		e.Result.Facts = append([]byte(nil), facts...)
	}
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return e
	}
	if n > 0 {
		e.Result.Tests = make([]lang.Test, n)
	}
	for i := range e.Result.Tests {
		decodeTest(r, &e.Result.Tests[i])
	}
	n = r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail()
		return e
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		e.Result.Problems = append(e.Result.Problems, testdex.Problem{
			Severity: testdex.Severity(r.str()), Path: r.str(), Line: int(r.varint()), Message: r.str(),
		})
	}
	return e
}

func decodeTest(r *reader, t *lang.Test) {
	t.Kind = testdex.Kind(r.str())
	t.Name = r.str()
	t.Local = r.str()
	t.Parent = r.str()
	t.Scope = r.str()
	t.Line = int(r.varint())
	t.Dynamic = r.boolean()
	t.Skip = r.boolean()
	t.WholeFile = r.boolean()
	t.Tags = r.strs()
	t.Run = r.str()
	if r.boolean() {
		t.Spec = &testdex.SpecMeta{Timeout: r.str(), LLM: r.str()}
		if r.boolean() {
			v := r.boolean()
			t.Spec.SkipPermissionsIfPossible = &v
		}
	}
}

func sortedKeys(m map[string]*Entry) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
