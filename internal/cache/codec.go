package cache

import (
	"encoding/binary"
	"errors"
	"sort"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// The entry encoding is a flat sequence of varints and length-prefixed
// strings, written and read with lang.Enc and lang.Dec (the scan caches'
// codec too). It is hand-written because it is on the warm path: decoding
// the whole snapshot of a large tree must cost a small fraction of
// parsing it.

var errShort = errors.New("truncated entry")

func encodeEntry(w *lang.Enc, e *Entry) {
	w.Int64(e.Size)
	w.Int64(e.MTime)
	w.Int64(e.Checked)
	var h [8]byte
	binary.LittleEndian.PutUint64(h[:], e.Hash)
	w.Raw(h[:])
	w.Str(e.ExtractorKey)
	w.Str(e.Result.Package)
	w.Str(string(e.Result.Facts))
	w.Uint(uint64(len(e.Result.Tests)))
	for i := range e.Result.Tests {
		encodeTest(w, &e.Result.Tests[i])
	}
	w.Uint(uint64(len(e.Result.Problems)))
	for _, p := range e.Result.Problems {
		w.Str(string(p.Severity))
		w.Str(p.Path)
		w.Int64(int64(p.Line))
		w.Str(p.Message)
	}
}

func encodeTest(w *lang.Enc, t *lang.Test) {
	w.Str(string(t.Kind))
	w.Str(t.Name)
	w.Str(t.Local)
	w.Str(t.Parent)
	w.Str(t.Scope)
	w.Int64(int64(t.Line))
	w.Bool(t.Dynamic)
	w.Bool(t.Skip)
	w.Bool(t.Only)
	w.Str(t.Variant)
	w.Bool(t.WholeFile)
	w.NilStrs(t.Tags)
	w.Str(t.Run)
	w.Bool(t.Spec != nil)
	if t.Spec != nil {
		w.Str(t.Spec.Timeout)
		w.Str(t.Spec.LLM)
		w.Bool(t.Spec.SkipPermissionsIfPossible != nil)
		if t.Spec.SkipPermissionsIfPossible != nil {
			w.Bool(*t.Spec.SkipPermissionsIfPossible)
		}
	}
	keys := make([]string, 0, len(t.Meta))
	for k := range t.Meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.Uint(uint64(len(keys)))
	for _, k := range keys {
		w.Str(k)
		w.Str(t.Meta[k])
	}
}

func decodeEntry(r *lang.Dec) *Entry {
	e := &Entry{Size: r.Int64(), MTime: r.Int64(), Checked: r.Int64()}
	if h := r.Bytes(8); h != nil {
		e.Hash = binary.LittleEndian.Uint64(h)
	}
	e.ExtractorKey = r.Str()
	e.Result.Package = r.Str()
	if facts := r.Bytes(r.Uint()); len(facts) > 0 {
		e.Result.Facts = append([]byte(nil), facts...)
	}
	n := r.Uint()
	if n > uint64(len(r.B)) {
		r.Fail()
		return e
	}
	if n > 0 {
		e.Result.Tests = make([]lang.Test, n)
	}
	for i := range e.Result.Tests {
		decodeTest(r, &e.Result.Tests[i])
	}
	n = r.Uint()
	if n > uint64(len(r.B)) {
		r.Fail()
		return e
	}
	for i := uint64(0); i < n && !r.Bad; i++ {
		e.Result.Problems = append(e.Result.Problems, testdex.Problem{
			Severity: testdex.Severity(r.Str()), Path: r.Str(), Line: int(r.Int64()), Message: r.Str(),
		})
	}
	return e
}

func decodeTest(r *lang.Dec, t *lang.Test) {
	t.Kind = testdex.Kind(r.Str())
	t.Name = r.Str()
	t.Local = r.Str()
	t.Parent = r.Str()
	t.Scope = r.Str()
	t.Line = int(r.Int64())
	t.Dynamic = r.Bool()
	t.Skip = r.Bool()
	t.Only = r.Bool()
	t.Variant = r.Str()
	t.WholeFile = r.Bool()
	t.Tags = r.NilStrs()
	t.Run = r.Str()
	if r.Bool() {
		t.Spec = &testdex.SpecMeta{Timeout: r.Str(), LLM: r.Str()}
		if r.Bool() {
			v := r.Bool()
			t.Spec.SkipPermissionsIfPossible = &v
		}
	}
	n := r.Uint()
	if n > uint64(len(r.B)) {
		r.Fail()
		return
	}
	for i := uint64(0); i < n && !r.Bad; i++ {
		if t.Meta == nil {
			t.Meta = make(map[string]string, n)
		}
		k := r.Str()
		t.Meta[k] = r.Str()
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
