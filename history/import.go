package history

import (
	"slices"
	"strconv"

	"github.com/zeebo/xxh3"
)

// ImportRunID is the run ID of imported reports: the hash of their
// contents' hashes in sorted order, so that importing the same files
// again, in any order or on another machine, adds nothing.
func ImportRunID(files ...[]byte) string {
	sums := make([]uint64, len(files))
	for i, f := range files {
		sums[i] = xxh3.Hash(f)
	}
	slices.Sort(sums)
	var all []byte
	for _, s := range sums {
		all = strconv.AppendUint(all, s, 16)
		all = append(all, ' ')
	}
	return "import-" + strconv.FormatUint(xxh3.Hash(all), 16)
}

// Unmapped is a result of a report no test ID names, and why.
type Unmapped struct {
	Reported
	Why string
}

// FromReport returns the history of rep as (part of) the run r: each
// result named by name (its test ID, or "" and why not), its tries
// attempts numbered per ID in the report's order, after those next holds
// of the run's earlier reports (next is updated; nil starts at 0). The
// results name does not name are returned, not guessed.
func FromReport(rep *Report, r Run, name func(Reported) (id, why string), next map[string]int) (*History, []Unmapped) {
	h := &History{Version: Version}
	var lost []Unmapped
	if next == nil {
		next = map[string]int{}
	}
	for _, res := range rep.Results {
		id, why := name(res)
		if id == "" {
			lost = append(lost, Unmapped{Reported: res, Why: why})
			continue
		}
		for _, t := range res.Tries {
			h.Attempts = append(h.Attempts, Attempt{Run: r.ID, ID: id, Attempt: next[id], Outcome: t.Outcome, Duration: t.Duration, Untimed: t.Untimed})
			next[id]++
		}
	}
	if len(h.Attempts) > 0 {
		h.Runs = []Run{r}
	}
	return h, lost
}
