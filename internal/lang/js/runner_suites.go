package js

import (
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// settleSuites gives each ancestor of a reported test, from the selected
// record down, a result when the framework reported none for it (Jest,
// Vitest and Mocha report tests only): fail when a descendant failed,
// else pass when one passed, else skip. The failure has no message of its
// own, so a failed suite is left to the test that failed.
func (ps *parser) settleSuites() {
	agg := map[string]testdex.Action{}
	var keys []string
	for _, k := range ps.order {
		scope, name, _ := strings.Cut(k, "\x00")
		a := ps.results[k]
		for i := strings.LastIndex(name, " > "); i > 0; i = strings.LastIndex(name[:i], " > ") {
			parent := name[:i]
			if !ps.selected(scope, parent) {
				break
			}
			pk := scope + "\x00" + parent
			if _, own := ps.results[pk]; own {
				continue
			}
			if _, ok := agg[pk]; !ok {
				keys = append(keys, pk)
			}
			agg[pk] = worse(agg[pk], a)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		scope, name, _ := strings.Cut(k, "\x00")
		ps.emit(lang.RunEvent{Action: agg[k], Scope: scope, Name: name})
	}
}

// worse combines two outcomes: fail over pass over skip.
func worse(a, b testdex.Action) testdex.Action {
	rank := map[testdex.Action]int{"": 0, testdex.ActionSkip: 1, testdex.ActionPass: 2, testdex.ActionFail: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}
