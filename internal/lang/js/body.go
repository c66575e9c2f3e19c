package js

import (
	"github.com/testdex/testdex/internal/lang"
)

// bodies is JavaScript's rule for where a function's body lies: after
// the line its body starts on (a block's brace, an arrow's expression),
// up to the line before its last. Its parameter list runs at the call,
// before the body, so it is header: a pattern that throws there
// (`f(null)` into `{a}`) leaves the function uncounted by the recorder,
// and a change to the pattern must be decided by the static evidence,
// on whichever line the pattern is written. Where the body's line is
// the function's first (most functions), this is the default rule.
var bodies = &lang.Bodies{
	Extensions: []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"},
	Prepare:    prepareBodies,
}

// prepareBodies parses one version of a file and returns the rule for
// its functions; nil when it does not parse. A function is found by its
// lines and hash; one the parse does not hold is all header (safe).
func prepareBodies(file string, src []byte) func(lines []string, f lang.FuncSpan) (lo, hi int) {
	spans, starts, err := spansOf(file, src)
	if err != nil {
		return nil
	}
	type key struct {
		start, end int
		hash       uint64
	}
	bodyAt := make(map[key]int, len(spans))
	for i, s := range spans {
		k := key{s.Start, s.End, s.Hash}
		bodyAt[k] = max(bodyAt[k], starts[i])
	}
	return func(_ []string, f lang.FuncSpan) (lo, hi int) {
		at, ok := bodyAt[key{f.Start, f.End, f.Hash}]
		if !ok {
			return f.End, f.End - 1
		}
		return at + 1, f.End - 1
	}
}
