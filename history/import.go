package history

import (
	"strconv"

	"github.com/zeebo/xxh3"
)

// ImportRunID is the run ID of an imported report: its content's hash, so
// that importing one file twice, or on two machines, adds nothing.
func ImportRunID(data []byte) string {
	return "import-" + strconv.FormatUint(xxh3.Hash(data), 16)
}

// Unmapped is a result of a report no test ID names, and why.
type Unmapped struct {
	Reported
	Why string
}

// FromReport returns the history of rep as the run r: each result named
// by name (its test ID, or "" and why not), its tries attempts
// numbered per ID in the report's order. The results name does not name
// are returned, not guessed.
func FromReport(rep *Report, r Run, name func(Reported) (id, why string)) (*History, []Unmapped) {
	h := &History{Version: Version}
	var lost []Unmapped
	next := map[string]int{}
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
