package rust

import (
	"sort"

	"github.com/testdex/testdex/internal/lang"
)

// cRegion is a region of one file with its count (LLVM's CountedRegion).
type cRegion struct {
	line, col, eLine, eCol uint32
	kind                   int
	count                  uint64
}

type loc struct{ line, col uint32 }

func (r *cRegion) start() loc { return loc{r.line, r.col} }
func (r *cRegion) end() loc   { return loc{r.eLine, r.eCol} }
func (a loc) le(b loc) bool   { return a.line < b.line || a.line == b.line && a.col <= b.col }
func (a loc) less(b loc) bool { return a.line < b.line || a.line == b.line && a.col < b.col }

// combineRegions merges regions (sorted) that cover the same range, as
// llvm-cov does: the first stays, and adds the counts of those of its
// kind.
func combineRegions(regions []cRegion) []cRegion {
	if len(regions) == 0 {
		return regions
	}
	active := 0
	for i := 1; i < len(regions); i++ {
		if regions[i].start() != regions[active].start() || regions[i].end() != regions[active].end() {
			active++
			regions[active] = regions[i]
			continue
		}
		if regions[i].kind == regions[active].kind {
			regions[active].count += regions[i].count
		}
	}
	return regions[:active+1]
}

// A segment starts at a location and holds until the next (LLVM's
// CoverageSegment).
type segment struct {
	loc
	count           uint64
	hasCount, entry bool
	gap             bool
}

// segBuilder is LLVM's SegmentBuilder.
type segBuilder struct {
	segs  []segment
	stack []*cRegion // the active regions
}

// buildSegments turns a file's combined regions into segments.
func buildSegments(regions []cRegion) []segment {
	b := &segBuilder{segs: make([]segment, 0, len(regions)+1)}
	var done []*cRegion // scratch
	for i := range regions {
		cr := &regions[i]
		cur := cr.start()
		// A stable partition: the regions still active, then those that
		// end before cur.
		active := b.stack[:0]
		done = done[:0]
		for _, r := range b.stack {
			if r.end().le(cur) {
				done = append(done, r)
			} else {
				active = append(active, r)
			}
		}
		if len(done) > 0 {
			b.stack = append(active, done...)
			b.complete(&cur, len(active))
		}
		gap := cr.kind == kindGap
		if cur == cr.end() { // zero-length: never active
			skipped := i+1 == len(regions) || cr.kind == kindSkipped
			from := cr
			if len(b.stack) > 0 {
				from = b.stack[len(b.stack)-1]
			}
			b.start(from, cur, !gap, skipped)
			if skipped && len(b.stack) > 0 {
				b.start(b.stack[len(b.stack)-1], cur, false, false)
			}
			continue
		}
		if i+1 == len(regions) || cur != regions[i+1].start() {
			b.start(cr, cur, !gap, false)
		}
		b.stack = append(b.stack, cr)
	}
	if len(b.stack) > 0 {
		b.complete(nil, 0)
	}
	return b.segs
}

// start emits a segment with r's count at at, unless it would change
// nothing.
func (b *segBuilder) start(r *cRegion, at loc, entry, skipped bool) {
	hasCount := !skipped && r.kind != kindSkipped
	if n := len(b.segs); n > 0 && !entry && !skipped {
		last := b.segs[n-1]
		if last.hasCount == hasCount && last.count == r.count && !last.gap {
			return
		}
	}
	if hasCount {
		b.segs = append(b.segs, segment{loc: at, count: r.count, hasCount: true, entry: entry, gap: r.kind == kindGap})
	} else {
		b.segs = append(b.segs, segment{loc: at, entry: entry})
	}
}

// complete emits the segments of the active regions from first on,
// which end before next (nil: all of them), and pops them.
func (b *segBuilder) complete(next *loc, first int) {
	done := b.stack[first:]
	sort.SliceStable(done, func(i, j int) bool { return done[i].end().less(done[j].end()) })
	for i := first + 1; i < len(b.stack); i++ {
		cr, prev := b.stack[i], b.stack[i-1]
		if prev.end() == cr.end() {
			continue
		}
		for j := i + 1; j < len(b.stack); j++ {
			if cr.end() == b.stack[j].end() {
				cr = b.stack[j]
			}
		}
		b.start(cr, prev.end(), false, false)
	}
	last := b.stack[len(b.stack)-1]
	if first > 0 && next != nil && last.end() != *next {
		b.start(b.stack[first-1], last.end(), false, false)
	} else if first == 0 && (next == nil || *next != last.end()) {
		b.start(last, last.end(), false, true)
	}
	b.stack = b.stack[:first]
}

// executedSpans are the lines llvm-cov counts as executed (mapped, with
// a count that is not 0), by LLVM's LineCoverageStats: a line's count is
// the largest of the segment it starts inside (the last of the line
// before that has one) and of the regions starting on it; a line that
// starts a skipped region is not mapped. A line without segments is as
// the segment it lies inside says.
func executedSpans(segs []segment) []lang.Span {
	var out []lang.Span
	var wrapped *segment
	add := func(from, to uint32) {
		if n := len(out); n > 0 && out[n-1].End+1 >= int(from) {
			out[n-1].End = int(to)
			return
		}
		out = append(out, lang.Span{Start: int(from), End: int(to)})
	}
	line := uint32(1)
	for i := 0; i < len(segs); {
		if segs[i].line < line { // a line 0: not a line llvm-cov reaches
			i++
			continue
		}
		if segs[i].line > line { // lines inside the wrapped segment
			if wrapped != nil && wrapped.hasCount && wrapped.count > 0 {
				add(line, segs[i].line-1)
			}
			line = segs[i].line
		}
		j := i
		for j < len(segs) && segs[j].line == line {
			j++
		}
		if lineExecuted(segs[i:j], wrapped) {
			add(line, line)
		}
		wrapped = &segs[j-1]
		i = j
		line++
	}
	return out
}

// lineExecuted is LineCoverageStats for a line with segments.
func lineExecuted(on []segment, wrapped *segment) bool {
	starts := 0
	entryWithCount := false
	for k := range on {
		s := &on[k]
		if !s.gap && s.hasCount && s.entry {
			starts++
		}
		entryWithCount = entryWithCount || s.entry && s.hasCount
	}
	startSkipped := len(on) > 0 && !on[0].hasCount && on[0].entry
	mapped := !startSkipped && (wrapped != nil && wrapped.hasCount || starts > 0)
	if !mapped && !entryWithCount {
		return false
	}
	var count uint64
	if wrapped != nil {
		count = wrapped.count
	}
	for k := range on {
		if s := &on[k]; !s.gap && s.hasCount && s.entry && s.count > count {
			count = s.count
		}
	}
	return count > 0
}
