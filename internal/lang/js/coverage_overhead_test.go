package js

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// TestCoverageOverhead measures a whole run of a real project with and
// without coverage (opt-in; docs/coverage.md's figures came from it):
//
//	TESTDEX_COVERAGE_BENCH=vitest:$HOME/.cache/testdex-mutbench/zod \
//	  go test ./internal/lang/js -run TestCoverageOverhead -v -count=1
func TestCoverageOverhead(t *testing.T) {
	fw, dir, ok := strings.Cut(os.Getenv("TESTDEX_COVERAGE_BENCH"), ":")
	if !ok {
		t.Skip("set TESTDEX_COVERAGE_BENCH=FRAMEWORK:DIR to measure")
	}
	for round := 0; round < 2; round++ {
		for _, cover := range []bool{false, true} {
			start := time.Now()
			evs := runFixture(t, testdex.Framework(fw), dir, cover)
			took := time.Since(start)
			tests, covered, lines := 0, map[string]bool{}, 0
			for _, e := range evs {
				switch e.Action {
				case testdex.ActionPass, testdex.ActionFail:
					tests++
				case lang.ActionCovered:
					covered[e.Scope+"::"+e.Name] = true
					for _, f := range e.Covered {
						for _, s := range f.Lines {
							lines += s.End - s.Start + 1
						}
					}
				}
			}
			t.Logf("coverage=%v: %v, %d tests passed or failed, %d with coverage, %d line records", cover, took.Round(10*time.Millisecond), tests, len(covered), lines)
		}
	}
}
