package rust

import (
	"path/filepath"
	"regexp"
	"slices"
	"sort"

	"github.com/testdex/testdex/internal/lang"
)

// A covBinary is a test binary's coverage mapping, read once, with the
// regions of each file under the project sorted as llvm-cov sorts them;
// lines turns one test's raw profile into its executed lines as
// `llvm-cov export -format=lcov` tells them (its DA lines with a count
// that is not 0): the same regions, counts, segments and line rules
// (llvm/lib/ProfileData/Coverage/CoverageMapping.cpp: combineRegions,
// SegmentBuilder, LineCoverageStats).
type covBinary struct {
	funcs []*covFunc
	files map[string][]regionRef // by the mapping's file name
}

// regionRef is region idx of function fn.
type regionRef struct{ fn, idx int32 }

// ignoredFiles are the files llvm-cov export was told to leave out (the
// standard library, the registry's and git dependencies).
var ignoredFiles = regexp.MustCompile(`/\.cargo/registry/|/\.cargo/git/|^/rustc/|/\.rustup/`)

// loadCovBinary reads a binary's mapping and keeps the regions of files
// under root.
func loadCovBinary(path, root string) (*covBinary, error) {
	funcs, err := readCovmap(path)
	if err != nil {
		return nil, err
	}
	return newCovBinary(funcs, root), nil
}

// newCovBinary files the regions of funcs by file, those under root.
func newCovBinary(funcs []*covFunc, root string) *covBinary {
	b := &covBinary{funcs: funcs, files: map[string][]regionRef{}}
	keep := map[string]bool{}
	for fi, fn := range funcs {
		_, ok := fn.counts(nil)
		fn.cyclic = !ok
		for ri, reg := range fn.regions {
			if reg.kind == kindBranch {
				continue
			}
			name := fn.files[reg.file]
			k, seen := keep[name]
			if !seen {
				clean := filepath.Clean(name)
				k = filepath.IsAbs(clean) && within(clean, root) && !ignoredFiles.MatchString(name)
				keep[name] = k
			}
			if k {
				b.files[name] = append(b.files[name], regionRef{int32(fi), int32(ri)})
			}
		}
	}
	for _, refs := range b.files {
		sort.Slice(refs, func(i, j int) bool { return b.regionLess(refs[i], refs[j]) })
	}
	return b
}

// regionLess is llvm-cov's order: by start, the enclosing region first,
// then by kind (code before expansion before skipped).
func (b *covBinary) regionLess(x, y regionRef) bool {
	r, s := &b.funcs[x.fn].regions[x.idx], &b.funcs[y.fn].regions[y.idx]
	if c := cmpLoc(r.line, r.col, s.line, s.col); c != 0 {
		return c < 0
	}
	if c := cmpLoc(r.eLine, r.eCol, s.eLine, s.eCol); c != 0 {
		return c > 0
	}
	return r.kind < s.kind
}

func cmpLoc(l1, c1, l2, c2 uint32) int {
	switch {
	case l1 != l2:
		return cmpU(l1, l2)
	default:
		return cmpU(c1, c2)
	}
}

func cmpU(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// lines returns the lines one test executed, per file under the root
// (absolute, cleaned, sorted).
func (b *covBinary) lines(p profile) []lang.CoveredFile {
	counts := make([][]uint64, len(b.funcs)) // nil: no counts (left out, or all zero)
	excluded := make([]bool, len(b.funcs))
	for i, fn := range b.funcs {
		counts[i], excluded[i] = fn.profileCounts(p)
	}
	byFile := map[string][]lang.Span{}
	for name, refs := range b.files {
		touched := false
		for _, ref := range refs {
			if counts[ref.fn] != nil {
				touched = true
				break
			}
		}
		if !touched { // every count 0: no line ran
			continue
		}
		regions := make([]cRegion, 0, len(refs))
		for _, ref := range refs {
			if excluded[ref.fn] {
				continue
			}
			reg := &b.funcs[ref.fn].regions[ref.idx]
			var n uint64
			if c := counts[ref.fn]; c != nil {
				n = c[ref.idx]
			}
			regions = append(regions, cRegion{reg.line, reg.col, reg.eLine, reg.eCol, reg.kind, n})
		}
		if spans := executedSpans(buildSegments(combineRegions(regions))); len(spans) > 0 {
			clean := filepath.Clean(name)
			byFile[clean] = append(byFile[clean], spans...)
		}
	}
	out := make([]lang.CoveredFile, 0, len(byFile))
	for f, spans := range byFile {
		out = append(out, lang.CoveredFile{File: f, Lines: lang.MergeSpans(spans)})
	}
	slices.SortFunc(out, func(x, y lang.CoveredFile) int {
		if x.File < y.File {
			return -1
		}
		if x.File > y.File {
			return 1
		}
		return 0
	})
	return out
}

// profileCounts finds fn's counters in p, as llvm-cov does: a function
// missing from the profile counts zero everywhere (counts nil); one whose
// name is there with other hashes only, whose counters are too few for
// its mapping, or that is a one-region placeholder of a function that ran
// is left out (excluded). Else counts holds its regions' counts.
func (fn *covFunc) profileCounts(p profile) (counts []uint64, excluded bool) {
	recs, ok := p[fn.name]
	if !ok {
		return nil, fn.cyclic
	}
	i := slices.IndexFunc(recs, func(r profRecord) bool { return r.hash == fn.hash })
	if i < 0 {
		return nil, true
	}
	c := recs[i].counts
	if len(fn.regions) == 1 && fn.regions[0].counter&3 == 0 && len(c) > 0 && c[0] > 0 {
		return nil, true
	}
	v, ok := fn.counts(c)
	if !ok {
		return nil, true
	}
	out := make([]uint64, len(v))
	for j, x := range v {
		out[j] = uint64(x) // llvm-cov keeps counts unsigned
	}
	return out, false
}
