// Package shapes reads and writes the expectations of the all-shapes
// fixtures (testdata/shapes/ECO with testdata/shapes/ECO.expected.txt), the
// one contract that the library, the CLI and the runtime-method tests of
// every language check against (seed 001's shared all-shapes fixture).
//
// The format is one line a record, in listing order:
//
//	ID <TAB> kind <TAB> name <TAB> scope <TAB> flags
//
// where flags is a comma list of dynamic, skip, only and the variant (each
// or pick), or "-".
package shapes

import (
	"strings"

	"github.com/testdex/testdex"
)

// Line renders one record.
func Line(r testdex.Test) string {
	var flags []string
	if r.Dynamic {
		flags = append(flags, "dynamic")
	}
	if r.Skip {
		flags = append(flags, "skip")
	}
	if r.Only {
		flags = append(flags, "only")
	}
	if r.Variant != "" {
		flags = append(flags, r.Variant)
	}
	f := strings.Join(flags, ",")
	if f == "" {
		f = "-"
	}
	return strings.Join([]string{r.ID, string(r.Kind), r.Name, r.Scope, f}, "\t") + "\n"
}

// Lines renders records.
func Lines(rs []testdex.Test) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(Line(r))
	}
	return b.String()
}
