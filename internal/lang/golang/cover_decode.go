package golang

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The coverage meta-data file of Go's runtime/coverage (Go 1.20 and
// later), read as $GOROOT/src/internal/coverage (defs.go, decodemeta)
// reads it (covmeta.HASH: per package, per function, its file and units,
// each a block of lines with a counter; version 1 is the only one known,
// another is refused), and the snapshots of testdex's hook (hookSource):
// per function that ran in a window, the units that ran.

const (
	metaVersion    = 1
	metaHeaderSize = 4 + 4 + 8 + 8 + 16 + 4 + 4 + 1 + 1 + 6 // MetaFileHeader
	pkgHeaderSize  = 4*4 + 16 + 4 + 4*2                     // MetaSymbolHeader
)

var (
	metaMagic = [4]byte{0, 'c', 'v', 'm'}
	errShort  = errors.New("truncated")
)

// coverUnit is a block of lines one counter stands for.
type coverUnit struct{ start, end int }

// coverFunc is one function of the meta-data: its file and units.
type coverFunc struct {
	file  string
	units []coverUnit
}

// coverMeta is a decoded meta-data file: per package (in the counters'
// numbering), its functions.
type coverMeta struct {
	pkgs [][]coverFunc
}

// byteReader reads a byte slice, remembering the first error.
type byteReader struct {
	b   []byte
	off int
	err error
}

func (r *byteReader) need(n int) bool {
	if r.err == nil && (n < 0 || r.off+n > len(r.b)) {
		r.err = errShort
	}
	return r.err == nil
}

func (r *byteReader) u32() uint32 {
	if !r.need(4) {
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *byteReader) u64() uint64 {
	if !r.need(8) {
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b[r.off:])
	r.off += 8
	return v
}

func (r *byteReader) uleb() uint64 {
	var v uint64
	for shift := uint(0); r.need(1); shift += 7 {
		c := r.b[r.off]
		r.off++
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		if c&0x80 == 0 {
			return v
		}
	}
	return 0
}

// strings reads a string table: a count, then each string's length and bytes.
func (r *byteReader) strings() []string {
	n := r.uleb()
	if n > uint64(len(r.b)) {
		r.err = errShort
		return nil
	}
	out := make([]string, 0, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		l := int(r.uleb())
		if !r.need(l) {
			break
		}
		out = append(out, string(r.b[r.off:r.off+l]))
		r.off += l
	}
	return out
}

// decodeMeta decodes a meta-data file.
func decodeMeta(b []byte) (*coverMeta, error) {
	r := &byteReader{b: b}
	if !r.need(metaHeaderSize) || [4]byte(b[:4]) != metaMagic {
		return nil, errors.New("not a coverage meta-data file")
	}
	r.off = 4
	if v := r.u32(); v != metaVersion {
		return nil, fmt.Errorf("coverage meta-data file of version %d, where testdex reads version %d", v, metaVersion)
	}
	r.u64() // total length
	entries := r.u64()
	if entries > uint64(len(b)) {
		return nil, errShort
	}
	r.off = metaHeaderSize
	offs := make([]uint64, entries)
	lens := make([]uint64, entries)
	for i := range offs {
		offs[i] = r.u64()
	}
	for i := range lens {
		lens[i] = r.u64()
	}
	m := &coverMeta{pkgs: make([][]coverFunc, entries)}
	for i := range offs {
		if r.err != nil || offs[i]+lens[i] > uint64(len(b)) || offs[i]+lens[i] < offs[i] {
			return nil, errShort
		}
		fns, err := decodePackage(b[offs[i] : offs[i]+lens[i]])
		if err != nil {
			return nil, fmt.Errorf("package %d of the meta-data: %w", i, err)
		}
		m.pkgs[i] = fns
	}
	return m, r.err
}

// decodePackage decodes one package's meta-data: its functions.
func decodePackage(b []byte) ([]coverFunc, error) {
	r := &byteReader{b: b}
	r.off = 4 * 4 // length, name, path, module path
	r.off += 16 + 4
	r.u32() // files
	nfuncs := int(r.u32())
	if r.err != nil || nfuncs > len(b) {
		return nil, errShort
	}
	r.off = pkgHeaderSize + 4*nfuncs
	strs := r.strings()
	str := func(i uint64) string {
		if i >= uint64(len(strs)) {
			r.err = errShort
			return ""
		}
		return strs[i]
	}
	fns := make([]coverFunc, nfuncs)
	for i := range fns {
		r.off = pkgHeaderSize + 4*i
		r.off = int(r.u32())
		nunits := r.uleb()
		if nunits > uint64(len(b)) {
			return nil, errShort
		}
		r.uleb() // function name
		fns[i].file = str(r.uleb())
		fns[i].units = make([]coverUnit, nunits)
		for k := range fns[i].units {
			st := r.uleb()
			r.uleb()
			en := r.uleb()
			r.uleb()
			r.uleb() // statements
			fns[i].units[k] = coverUnit{int(st), int(en)}
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	return fns, nil
}

// counterRecord is what one function ran in a window, as the hook writes
// it (see hookSource): its package (in the meta-data's numbering), its
// index there, its number of counters, and the units that ran.
type counterRecord struct {
	pkg, fn, n uint32
	units      []uint32
}

// decodeSnapshot decodes one snapshot of the hook: records, each its
// package's slot + 1, the function's index, its number of counters, the
// number of units that follow, then each unit's number less the one
// before it, all unsigned varints.
func decodeSnapshot(b []byte) ([]counterRecord, error) {
	r := &byteReader{b: b}
	var out []counterRecord
	for r.off < len(b) && r.err == nil {
		pkg, fn, n, k := r.uleb(), r.uleb(), r.uleb(), r.uleb()
		if pkg == 0 || pkg > 1<<31 || fn >= 1<<32 || n >= 1<<32 || k > n || k > uint64(len(b)) {
			return nil, errors.New("a coverage snapshot of a record testdex's hook does not write")
		}
		rec := counterRecord{pkg: uint32(pkg - 1), fn: uint32(fn), n: uint32(n), units: make([]uint32, k)}
		u := uint64(0)
		for i := range rec.units {
			u += r.uleb()
			if u >= n {
				return nil, errors.New("a coverage snapshot names a unit past its function's counters")
			}
			rec.units[i] = uint32(u)
		}
		out = append(out, rec)
	}
	return out, r.err
}
