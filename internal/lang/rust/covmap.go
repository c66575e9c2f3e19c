package rust

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
)

// A test binary built with -C instrument-coverage carries its coverage
// mapping in two ELF sections, in LLVM's coverage mapping format
// (llvm/docs/CoverageMappingFormat.rst), read here for the versions
// rustc 1.95's LLVM writes (mapping versions 6 and 7, zero-based 5 and 6):
//
//	__llvm_covmap  per compilation unit: 4 uint32 (0, filenames bytes, 0,
//	               version), the filenames (LEB128 count, uncompressed and
//	               compressed sizes, then LEB128-prefixed names, zlib-
//	               compressed when the compressed size is not 0; the first
//	               is the compilation folder the others are relative to),
//	               padded to 8 bytes; the unit is known by the MD5 of its
//	               encoded filenames
//	__llvm_covfun  per function: name MD5, mapping bytes (uint32),
//	               structural hash, the unit's filenames MD5, the mapping,
//	               padded to 8 bytes
//
// A function's mapping: its file IDs (indexes into the unit's filenames),
// its counter expressions (pairs of counters), and per file ID its regions
// (a counter or a region kind, then line and column deltas). See
// decodeMapping.

// covRegion kinds, as LLVM numbers them (CounterMappingRegion).
const (
	kindCode = iota
	kindExpansion
	kindSkipped
	kindGap
	kindBranch
	kindMCDCDecision
	kindMCDCBranch
)

// A covRegion is one region of a function's mapping. Counter is LLVM's
// encoded counter (tag in the two low bits: zero, a counter, a subtraction
// or an addition of an expression).
type covRegion struct {
	counter                uint64
	file, expanded         int // file IDs
	kind                   int
	line, col, eLine, eCol uint32
}

// A covFunc is one function's mapping.
type covFunc struct {
	name, hash uint64
	files      []string    // per file ID
	exprs      [][2]uint64 // encoded LHS and RHS
	regions    []covRegion
	maxCounter int  // the highest counter index referenced, -1 for none
	cyclic     bool // an expression refers to itself: llvm-cov leaves the function out
}

// errCovmap marks a coverage mapping testdex does not read.
var errCovmap = errors.New("coverage mapping")

// readCovmap reads the coverage mapping of an ELF binary: its functions,
// one per name as llvm-cov keeps them (a dummy record, one zero region
// and no hash, yields to a real one).
func readCovmap(path string) ([]*covFunc, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errCovmap, err)
	}
	defer f.Close()
	if f.Class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB {
		return nil, fmt.Errorf("%w: %s is not a 64-bit little-endian ELF binary", errCovmap, path)
	}
	covmap, covfun := f.Section("__llvm_covmap"), f.Section("__llvm_covfun")
	if covmap == nil || covfun == nil {
		return nil, fmt.Errorf("%w: %s has no __llvm_covmap or __llvm_covfun section (built without -C instrument-coverage?)", errCovmap, path)
	}
	mapData, err := covmap.Data()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errCovmap, err)
	}
	funData, err := covfun.Data()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errCovmap, err)
	}
	return readSections(mapData, funData)
}

// readSections reads the contents of __llvm_covmap and __llvm_covfun.
func readSections(mapData, funData []byte) ([]*covFunc, error) {
	units, err := readUnits(mapData)
	if err != nil {
		return nil, err
	}
	return readFuncs(funData, units)
}

// readUnits reads __llvm_covmap: each unit's filenames by the MD5 of
// their encoding.
func readUnits(data []byte) (map[uint64][]string, error) {
	units := map[uint64][]string{}
	for off := 0; off+16 <= len(data); {
		size := int(binary.LittleEndian.Uint32(data[off+4:]))
		version := binary.LittleEndian.Uint32(data[off+12:])
		if version != 5 && version != 6 {
			return nil, fmt.Errorf("%w: version %d (zero-based); testdex reads 5 and 6 (LLVM 13 to 22)", errCovmap, version)
		}
		start := off + 16
		if size < 0 || start+size > len(data) {
			return nil, fmt.Errorf("%w: a unit's filenames run past __llvm_covmap", errCovmap)
		}
		enc := data[start : start+size]
		names, err := decodeFilenames(enc)
		if err != nil {
			return nil, err
		}
		units[md5Low(enc)] = names
		off = align8(start + size)
	}
	return units, nil
}

// decodeFilenames reads a unit's encoded filenames, resolving relative
// ones against the first (the compilation folder).
func decodeFilenames(enc []byte) ([]string, error) {
	r := &leb{b: enc}
	n, ulen, clen := r.uint(), r.uint(), r.uint()
	if r.err != nil || n == 0 || clen > uint64(len(r.b)) || ulen > 1<<30 {
		return nil, fmt.Errorf("%w: a unit's filenames header is malformed", errCovmap)
	}
	raw := r.b
	if clen > 0 {
		zr, err := zlib.NewReader(bytes.NewReader(r.b[:clen]))
		if err != nil {
			return nil, fmt.Errorf("%w: filenames: %v", errCovmap, err)
		}
		raw, err = io.ReadAll(io.LimitReader(zr, int64(ulen)+1))
		if err != nil || uint64(len(raw)) != ulen {
			return nil, fmt.Errorf("%w: filenames do not inflate to their %d bytes", errCovmap, ulen)
		}
	}
	fr := &leb{b: raw}
	names := make([]string, 0, n)
	for i := uint64(0); i < n; i++ {
		name := fr.str()
		if fr.err != nil {
			return nil, fmt.Errorf("%w: filenames: %v", errCovmap, fr.err)
		}
		if i > 0 && !filepath.IsAbs(name) {
			name = filepath.Join(names[0], name)
		}
		names = append(names, name)
	}
	return names, nil
}

// readFuncs reads __llvm_covfun.
func readFuncs(data []byte, units map[uint64][]string) ([]*covFunc, error) {
	byName := map[uint64]int{}
	var funcs []*covFunc
	for off := 0; off+28 <= len(data); {
		name := binary.LittleEndian.Uint64(data[off:])
		size := int(binary.LittleEndian.Uint32(data[off+8:]))
		hash := binary.LittleEndian.Uint64(data[off+12:])
		unit := binary.LittleEndian.Uint64(data[off+20:])
		start := off + 28
		if size < 0 || start+size > len(data) {
			return nil, fmt.Errorf("%w: function %#x's mapping runs past __llvm_covfun", errCovmap, name)
		}
		off = align8(start + size)
		files, ok := units[unit]
		if !ok {
			return nil, fmt.Errorf("%w: no filenames for function %#x (unit %#x)", errCovmap, name, unit)
		}
		fn, err := decodeMapping(data[start:start+size], files)
		if err != nil {
			return nil, fmt.Errorf("function %#x: %w", name, err)
		}
		fn.name, fn.hash = name, hash
		if i, seen := byName[name]; seen {
			if funcs[i].dummy() && !fn.dummy() {
				funcs[i] = fn
			}
			continue
		}
		byName[name] = len(funcs)
		funcs = append(funcs, fn)
	}
	return funcs, nil
}

// dummy reports whether fn is a placeholder: no hash, one file, no
// expressions, one region with a zero counter.
func (fn *covFunc) dummy() bool {
	return fn.hash == 0 && len(fn.files) == 1 && len(fn.exprs) == 0 && len(fn.regions) == 1 && fn.regions[0].counter&3 == 0
}

func align8(n int) int { return (n + 7) &^ 7 }

// md5Low is LLVM's IndexedInstrProf::ComputeHash: the first 8 bytes of
// the MD5, little-endian.
func md5Low(b []byte) uint64 {
	sum := md5.Sum(b)
	return binary.LittleEndian.Uint64(sum[:8])
}

// leb reads LEB128 numbers and strings, keeping the first error.
type leb struct {
	b   []byte
	err error
}

func (r *leb) uint() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if r.err != nil {
			return 0
		}
		if len(r.b) == 0 || shift > 63 {
			r.err = errors.New("truncated or overlong LEB128")
			return 0
		}
		c := r.b[0]
		r.b = r.b[1:]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
}

func (r *leb) str() string {
	n := r.uint()
	if r.err == nil && n > uint64(len(r.b)) {
		r.err = errors.New("string runs past its data")
	}
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
