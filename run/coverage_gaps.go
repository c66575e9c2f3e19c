package run

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/plan"
)

// Coverage that records nothing is never silent: after a `run --coverage`,
// each batch whose tests ran (passed or failed) is checked. One that
// recorded no line of a file under the root for any of them gets one
// warning, naming the project, the framework and the reason (the runner's
// notes, lang.ActionCovered without a test, where it knows; else what the
// core saw), and a coverage.Gap in the index, which `testdex covering`
// gives as the reason a file of that project has no record. A batch that
// recorded something clears its gap, unless the runner left notes: then
// coverage is partial, warned about and kept as a partial gap. A batch that could not record at all
// (newCoverRun's warning, said before the run) keeps that reason as its
// gap. A batch that recorded nothing keeps no record either (see gaps).
// None of it changes the exit code: coverage is no test result.

// batchWarning is a warning about one batch, given after the run.
type batchWarning struct {
	b   *plan.Batch
	msg string
}

// gaps returns the gap to put or clear for each batch of plan whose tests
// ran, and the warnings to give. It drops what a batch that recorded
// nothing gathered (tests with no line under the root): such records would
// vouch that its tests executed nothing, when the recording failed.
func (c *coverRun) gaps(p *plan.Plan, root string, sum *Summary, when time.Time) ([]coverage.Gap, []batchWarning) {
	if c == nil {
		return nil, nil
	}
	ran := map[string]int{}
	for _, e := range sum.Results() {
		if e.Action == testdex.ActionPass || e.Action == testdex.ActionFail {
			ran[e.Batch]++
		}
	}
	reported, recorded := map[*plan.Batch]int{}, map[*plan.Batch]int{}
	for _, tc := range c.tests {
		reported[tc.batch]++
		for f := range tc.files {
			if within(root, f) {
				recorded[tc.batch]++
				break
			}
		}
	}
	var gaps []coverage.Gap
	var warns []batchWarning
	for _, b := range p.Batches {
		n := ran[b.Name]
		if n == 0 {
			continue
		}
		g := coverage.Gap{Project: label(b.Dir), Framework: string(b.Setup.Framework), Tests: n, Recorded: when}
		notes := strings.Join(c.notes[b], "; ")
		switch {
		case c.off[b] != "":
			g.Reason = c.off[b]
		case recorded[b] > 0:
			if notes != "" {
				g.Reason, g.Partial = notes, true
				warns = append(warns, batchWarning{b, fmt.Sprintf("%s: coverage recorded for %d of the %d %s that ran, not all of what they executed: %s",
					batchLabel(b), recorded[b], n, plural(n, "test", "tests"), notes)})
			}
		default:
			g.Reason = notes
			if g.Reason == "" {
				g.Reason = unexplained(reported[b])
			}
			warns = append(warns, batchWarning{b, fmt.Sprintf("%s: no coverage recorded for the %d %s that ran: %s",
				batchLabel(b), n, plural(n, "test", "tests"), g.Reason)})
			for id, tc := range c.tests {
				if tc.batch == b {
					delete(c.tests, id)
				}
			}
		}
		gaps = append(gaps, g)
	}
	return gaps, warns
}

// unexplained is the reason of a batch that recorded nothing and whose
// runner gave none: what the core saw.
func unexplained(reported int) string {
	if reported == 0 {
		return "the runner reported no coverage for any of them, and did not say why (its recorder never reached the tests)"
	}
	return "they executed no line that the coverage tool measures in a file under the root (Go never measures _test.go files)"
}

// label is a project folder as warnings and gaps name it: "." for the root.
func label(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// within reports whether the absolute file lies under root.
func within(root, file string) bool {
	rel, err := filepath.Rel(root, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
