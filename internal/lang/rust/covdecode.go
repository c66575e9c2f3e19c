package rust

import (
	"fmt"
	"math"
)

// decodeMapping reads one function's mapping (LLVM's
// RawCoverageMappingReader): file IDs, expressions, then per file ID its
// regions. A region's first number is its counter, or, when the counter
// tag is zero, its kind: bit 2 set is an expansion of the file ID in the
// bits above; else the bits above bit 2 are the kind (code, skipped, a
// branch with two counters, MC/DC with more). Then its start line (a
// delta from the previous region's), start column, line count and end
// column, whose bit 31 marks a gap region; columns 0 to 0 cover whole
// lines. An expansion's count is that of the first region of the file it
// expands.
func decodeMapping(data []byte, unitFiles []string) (*covFunc, error) {
	r := &leb{b: data}
	fn := &covFunc{maxCounter: -1}
	nFiles := r.uint()
	if r.err == nil && nFiles > uint64(len(data)) {
		return nil, fmt.Errorf("%w: %d file IDs in %d bytes", errCovmap, nFiles, len(data))
	}
	for i := uint64(0); i < nFiles && r.err == nil; i++ {
		idx := r.uint()
		if idx >= uint64(len(unitFiles)) {
			return nil, fmt.Errorf("%w: file index %d of %d", errCovmap, idx, len(unitFiles))
		}
		fn.files = append(fn.files, unitFiles[idx])
	}
	nExprs := r.uint()
	if r.err == nil && nExprs > uint64(len(data)) {
		return nil, fmt.Errorf("%w: %d expressions in %d bytes", errCovmap, nExprs, len(data))
	}
	fn.exprs = make([][2]uint64, nExprs)
	for i := range fn.exprs {
		fn.exprs[i] = [2]uint64{r.uint(), r.uint()}
	}
	for file := 0; file < len(fn.files) && r.err == nil; file++ {
		if err := fn.decodeRegions(r, file); err != nil {
			return nil, err
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %v", errCovmap, r.err)
	}
	for _, c := range fn.exprs {
		if err := fn.check(c[0]); err != nil {
			return nil, err
		}
		if err := fn.check(c[1]); err != nil {
			return nil, err
		}
	}
	fn.propagateExpansions()
	return fn, nil
}

// decodeRegions reads one file ID's regions.
func (fn *covFunc) decodeRegions(r *leb, file int) error {
	n := r.uint()
	line := uint64(0)
	for i := uint64(0); i < n && r.err == nil; i++ {
		reg := covRegion{file: file, kind: kindCode}
		enc := r.uint()
		if enc > math.MaxUint32 {
			return fmt.Errorf("%w: region counter %d", errCovmap, enc)
		}
		switch {
		case enc&3 != 0:
			reg.counter = enc
		case enc&4 != 0:
			reg.kind, reg.expanded = kindExpansion, int(enc>>3)
			if reg.expanded >= len(fn.files) {
				return fmt.Errorf("%w: expansion of file ID %d of %d", errCovmap, reg.expanded, len(fn.files))
			}
		default:
			switch k := int(enc >> 3); k {
			case kindCode, kindSkipped:
				reg.kind = k
			case kindBranch:
				reg.kind, reg.counter = k, r.uint()
				r.uint() // the false counter: branches give no lines
			default: // MC/DC, or a kind newer than this reader
				return fmt.Errorf("%w: region kind %d (MC/DC coverage is not read)", errCovmap, k)
			}
		}
		delta, col, lines, ecol := r.uint(), r.uint(), r.uint(), r.uint()
		if r.err != nil {
			break
		}
		if col > math.MaxUint32 || lines > math.MaxUint32 || ecol > math.MaxUint32 || line+delta > math.MaxUint32 || line+delta+lines > math.MaxUint32 {
			return fmt.Errorf("%w: region out of range", errCovmap)
		}
		if ecol&(1<<31) != 0 {
			reg.kind, ecol = kindGap, ecol&^(1<<31)
		}
		if col == 0 && ecol == 0 {
			col, ecol = 1, math.MaxUint32
		}
		line += delta
		reg.line, reg.col, reg.eLine, reg.eCol = uint32(line), uint32(col), uint32(line+lines), uint32(ecol)
		if reg.eLine == reg.line && reg.eCol < reg.col {
			return fmt.Errorf("%w: region ends before it starts (line %d)", errCovmap, reg.line)
		}
		if err := fn.check(reg.counter); err != nil {
			return err
		}
		fn.regions = append(fn.regions, reg)
	}
	return nil
}

// check validates an encoded counter and notes the highest counter index.
func (fn *covFunc) check(c uint64) error {
	switch c & 3 {
	case 1:
		if idx := int(c >> 2); idx > fn.maxCounter {
			fn.maxCounter = idx
		}
	case 2, 3:
		if c>>2 >= uint64(len(fn.exprs)) {
			return fmt.Errorf("%w: expression %d of %d", errCovmap, c>>2, len(fn.exprs))
		}
	}
	return nil
}

// propagateExpansions gives each expansion the counter of the first
// region of the file it expands, over as many passes as there are file
// IDs, as LLVM does (an expansion inside an expansion).
func (fn *covFunc) propagateExpansions() {
	for pass := 1; pass < len(fn.files); pass++ {
		byFile := make([]int, len(fn.files))
		for i := range byFile {
			byFile[i] = -1
		}
		for i, reg := range fn.regions {
			if reg.kind == kindExpansion {
				byFile[reg.expanded] = i
			}
		}
		for _, reg := range fn.regions {
			if j := byFile[reg.file]; j >= 0 {
				fn.regions[j].counter = reg.counter
				byFile[reg.file] = -1
			}
		}
	}
}

// counts evaluates each region's count from the function's counters
// (nil: none recorded, all zero). ok is false where LLVM's evaluation
// fails (a counter past those recorded, an expression cycle), which makes
// llvm-cov leave the function out.
func (fn *covFunc) counts(counters []uint64) (out []int64, ok bool) {
	if fn.maxCounter >= 0 && counters != nil && fn.maxCounter >= len(counters) {
		return nil, false
	}
	memo := make([]int64, len(fn.exprs))
	state := make([]uint8, len(fn.exprs)) // 0 new, 1 being evaluated, 2 done
	var eval func(c uint64) (int64, bool)
	eval = func(c uint64) (int64, bool) {
		switch c & 3 {
		case 0:
			return 0, true
		case 1:
			if counters == nil {
				return 0, true
			}
			return int64(counters[c>>2]), true
		}
		i := c >> 2
		switch state[i] {
		case 1:
			return 0, false
		case 2:
			return memo[i], true
		}
		state[i] = 1
		l, ok1 := eval(fn.exprs[i][0])
		r, ok2 := eval(fn.exprs[i][1])
		if !ok1 || !ok2 {
			return 0, false
		}
		if c&3 == 2 {
			memo[i] = l - r
		} else {
			memo[i] = l + r
		}
		state[i] = 2
		return memo[i], true
	}
	out = make([]int64, len(fn.regions))
	for i, reg := range fn.regions {
		if reg.kind == kindSkipped {
			continue
		}
		v, ok := eval(reg.counter)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}
