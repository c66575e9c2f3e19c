package golang

import (
	"go/build/constraint"
	"slices"
	"strings"
)

// buildFilter decides which Go files the graph reads: those some platform
// could build with the project's configured tags. The platform's tags
// (GOOS, GOARCH, unix, cgo, the compiler, release, goexperiment, race,
// msan, asan) are free: a file for another platform counts, since a
// change there is a change for whoever builds it. Other tags are the
// run's own: set when testdex.toml's [go] tags set them, else unset, as
// the extractor has them. So `//go:build ignore` (generators) and
// `//go:build purego` (unless configured) are left out, and file name
// suffixes (_windows.go) never exclude. With all_platforms every file
// counts. An excluded file is still in its package's folder: a change to
// it selects the package's users (the folder's owner); only its imports
// are not followed.
type buildFilter struct {
	tags map[string]bool // the configured build tags
	all  bool
}

// maxFree bounds the brute-force satisfiability check: a constraint with
// more free tags than this is taken as satisfiable (more edges).
const maxFree = 12

// keep reports whether some platform builds a file of this header.
func (bf buildFilter) keep(src []byte) bool {
	if bf.all {
		return true
	}
	x := headerExpr(src)
	if x == nil {
		return true
	}
	var free []string
	collectFree(x, &free)
	if len(free) > maxFree {
		return true
	}
	index := map[string]int{}
	for i, t := range free {
		index[t] = i
	}
	for mask := 0; mask < 1<<len(free); mask++ {
		ok := x.Eval(func(tag string) bool {
			if i, isFree := index[tag]; isFree {
				return mask&(1<<i) != 0
			}
			return bf.tags[tag]
		})
		if ok {
			return true
		}
	}
	return false
}

// collectFree lists the distinct platform tags of an expression.
func collectFree(x constraint.Expr, free *[]string) {
	switch x := x.(type) {
	case *constraint.TagExpr:
		if platformTag(x.Tag) && !slices.Contains(*free, x.Tag) {
			*free = append(*free, x.Tag)
		}
	case *constraint.NotExpr:
		collectFree(x.X, free)
	case *constraint.AndExpr:
		collectFree(x.X, free)
		collectFree(x.Y, free)
	case *constraint.OrExpr:
		collectFree(x.X, free)
		collectFree(x.Y, free)
	}
}

// platformTag reports whether a tag is set by the platform or the way
// the tests are built rather than by the project's configuration.
func platformTag(tag string) bool {
	switch tag {
	case "unix", "cgo", "gc", "gccgo", "race", "msan", "asan", "boringcrypto":
		return true
	}
	return knownOS[tag] || knownArch[tag] || strings.HasPrefix(tag, "go1.") || strings.HasPrefix(tag, "goexperiment.")
}
