package rust

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A raw profile (PROFILE.profraw) is what an instrumented process writes
// at exit: LLVM's raw instrumentation profile, read here for the one
// layout rustc 1.95's LLVM writes (version 10, 64-bit little-endian, 8-byte
// counters, no variant flags), as llvm/include/llvm/ProfileData/
// InstrProfData.inc lays it out:
//
//	header       16 uint64: magic, version, binary-ID bytes, data records,
//	             padding, counters, padding, bitmap bytes, padding, names
//	             bytes, counters delta, bitmap delta, names delta, vtables,
//	             vtable-names bytes, last value kind
//	binary IDs
//	data         per function (64 bytes): name MD5, structural hash,
//	             counters pointer (relative to the record), bitmap pointer,
//	             function pointer, values pointer, counter count, value
//	             sites (3 uint16), bitmap bytes
//	counters     uint64 each
//	...          bitmap, names, vtables, value data: not read
//
// Any other layout is refused (errProfraw), and the caller falls back to
// LLVM's own tools.

const (
	profrawMagic   = 0xff6c70726f667281
	profrawVersion = 10
	profrawHeader  = 16 * 8
	profrawData    = 64
)

// errProfraw marks a raw profile testdex does not read (another version
// or layout): LLVM's tools must.
var errProfraw = errors.New("raw profile")

// profRecord is one function's counters in a raw profile.
type profRecord struct {
	hash   uint64
	counts []uint64
}

// profile holds a raw profile's functions by name MD5. As llvm-profdata
// merge -sparse does, records whose counters are all zero are left out,
// and records of the same name and hash are added up.
type profile map[uint64][]profRecord

// readProfraw reads one raw profile.
func readProfraw(data []byte) (profile, error) {
	if len(data) < profrawHeader {
		return nil, fmt.Errorf("%w: %d bytes, shorter than a header", errProfraw, len(data))
	}
	h := make([]uint64, 16)
	for i := range h {
		h[i] = binary.LittleEndian.Uint64(data[i*8:])
	}
	if h[0] != profrawMagic {
		return nil, fmt.Errorf("%w: magic %#x is not LLVM's 64-bit little-endian one", errProfraw, h[0])
	}
	if h[1] != profrawVersion {
		return nil, fmt.Errorf("%w: version %#x; testdex reads version %d (rustc 1.95's LLVM) only", errProfraw, h[1], profrawVersion)
	}
	idBytes, numData, padBefore, numCounters := h[2], h[3], h[4], h[5]
	countersDelta := int64(h[10])
	dataOff, ok := add(profrawHeader, idBytes)
	size, ok2 := mul(numData, profrawData)
	cntOff, ok3 := add(dataOff, size)
	cntOff, ok4 := add(cntOff, padBefore)
	cntSize, ok5 := mul(numCounters, 8)
	cntEnd, ok6 := add(cntOff, cntSize)
	if !(ok && ok2 && ok3 && ok4 && ok5 && ok6) || cntEnd > uint64(len(data)) {
		return nil, fmt.Errorf("%w: the header's sizes (%d records, %d counters) run past its %d bytes", errProfraw, numData, numCounters, len(data))
	}
	p := profile{}
	for i := uint64(0); i < numData; i++ {
		rec := data[dataOff+i*profrawData:]
		name, hash := binary.LittleEndian.Uint64(rec), binary.LittleEndian.Uint64(rec[8:])
		rel := int64(binary.LittleEndian.Uint64(rec[16:]))
		n := uint64(binary.LittleEndian.Uint32(rec[48:]))
		// The record's counter pointer is relative to the record itself;
		// the header's delta is the counters' start relative to the first
		// record, less a record's size for each record before this one.
		base := rel - (countersDelta - int64(i)*profrawData)
		if base < 0 || base%8 != 0 || uint64(base)+n*8 > cntSize {
			return nil, fmt.Errorf("%w: record %d's %d counters lie outside the counters", errProfraw, i, n)
		}
		counts := make([]uint64, n)
		zero := true
		for j := range counts {
			counts[j] = binary.LittleEndian.Uint64(data[cntOff+uint64(base)+uint64(j)*8:])
			zero = zero && counts[j] == 0
		}
		if zero {
			continue
		}
		if err := p.add(name, hash, counts); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// add files one record, adding it to one of the same name and hash.
func (p profile) add(name, hash uint64, counts []uint64) error {
	for i, r := range p[name] {
		if r.hash != hash {
			continue
		}
		if len(r.counts) != len(counts) {
			return fmt.Errorf("%w: function %#x has records of %d and %d counters", errProfraw, name, len(r.counts), len(counts))
		}
		for j, c := range counts {
			p[name][i].counts[j] += c
		}
		return nil
	}
	p[name] = append(p[name], profRecord{hash: hash, counts: counts})
	return nil
}

// add and mul are overflow-checked.
func add(a, b uint64) (uint64, bool) { return a + b, a+b >= a }
func mul(a, b uint64) (uint64, bool) {
	if a != 0 && (a*b)/a != b {
		return 0, false
	}
	return a * b, true
}
