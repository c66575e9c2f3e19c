package specs

import (
	"fmt"
	"sort"
	"strings"
)

// StableAgreement is the share of --repeat judgements that must agree for
// a scenario's verdict to be stable (and kept): under it, the scenario is
// flagged unstable, as a flaky test is.
const StableAgreement = 0.95

// Agreement returns the share of statuses equal to the most common one,
// and that status (ties go to the worse: error, then fail, then pass, so
// a split never reads as a pass). An empty list agrees fully, on "".
func Agreement(statuses []string) (float64, string) {
	if len(statuses) == 0 {
		return 1, ""
	}
	counts := map[string]int{}
	for _, s := range statuses {
		counts[s]++
	}
	best, n := "", -1
	for _, s := range []string{StatusError, StatusFail, StatusPass} {
		if counts[s] > n {
			best, n = s, counts[s]
		}
	}
	for s, c := range counts { // a status outside the three (none today) still counts
		if c > n {
			best, n = s, c
		}
	}
	return float64(n) / float64(len(statuses)), best
}

// unstableLine says how a scenario's judgements split.
func unstableLine(statuses []string) string {
	agree, _ := Agreement(statuses)
	counts := map[string]int{}
	for _, s := range statuses {
		counts[s]++
	}
	var parts []string
	for s, c := range counts {
		parts = append(parts, fmt.Sprintf("%s ×%d", s, c))
	}
	sort.Strings(parts)
	return fmt.Sprintf("unstable: %.0f%% of %d judgements agree (%s); under %.0f%%, its verdict is not kept\n",
		agree*100, len(statuses), strings.Join(parts, ", "), StableAgreement*100)
}
