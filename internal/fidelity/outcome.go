// Package fidelity checks that `testdex run` reports exactly what each
// native test runner reports, on real projects nobody here wrote.
//
// Each project (see projects.go) is run twice: natively, with the runner's
// own machine-readable report, and through `testdex run --json`. Both runs
// become a Results: one Outcome per test, keyed in the runner's own terms
// (framework, scope, name: docs/contract.md's "scope and name per framework"),
// and Compare tells the tests only one side reported and the tests whose
// outcome differs.
//
//	native runner --report--> parse*  --> Results --+
//	                                                +--> Compare --> Diff
//	testdex run --json -----> Events  --> Results --+
//
// The projects are installed by scripts/setup/fidelity.sh into Dir().
package fidelity

import (
	"fmt"
	"sort"
	"strings"
)

// Outcome is a test's final result in the vocabulary both sides share.
type Outcome string

// The outcomes. Expected failures (pytest's xfail, unittest's
// expectedFailure) count as skip, as JUnit XML counts them.
const (
	Pass Outcome = "pass"
	Fail Outcome = "fail"
	Skip Outcome = "skip"
)

// Key names one test in the runner's own terms.
type Key struct {
	Framework string `json:"framework"`
	Scope     string `json:"scope"`
	Name      string `json:"name"`
}

// String renders k for a report line.
func (k Key) String() string {
	if k.Scope == "" {
		return k.Name
	}
	return k.Scope + " :: " + k.Name
}

// Results holds one outcome per test. A test reported twice keeps its worst
// outcome (fail over skip over pass), as a runner's summary does.
type Results map[Key]Outcome

// Add records o for k, keeping the worse of o and an earlier outcome.
func (r Results) Add(k Key, o Outcome) {
	if prev, ok := r[k]; ok && rank(prev) >= rank(o) {
		return
	}
	r[k] = o
}

func rank(o Outcome) int {
	switch o {
	case Fail:
		return 3
	case Skip:
		return 2
	case Pass:
		return 1
	}
	return 0
}

// Counts is how many tests ended in each outcome.
type Counts struct {
	Pass, Fail, Skip int
}

// Total is the number of tests counted.
func (c Counts) Total() int { return c.Pass + c.Fail + c.Skip }

// String renders c as a runner's closing line does.
func (c Counts) String() string {
	return fmt.Sprintf("%d tests: %d passed, %d failed, %d skipped", c.Total(), c.Pass, c.Fail, c.Skip)
}

// Counts counts r's outcomes.
func (r Results) Counts() Counts {
	var c Counts
	for _, o := range r {
		switch o {
		case Pass:
			c.Pass++
		case Fail:
			c.Fail++
		case Skip:
			c.Skip++
		}
	}
	return c
}

// Failed returns the keys whose outcome is Fail, sorted.
func (r Results) Failed() []Key {
	var ks []Key
	for k, o := range r {
		if o == Fail {
			ks = append(ks, k)
		}
	}
	sortKeys(ks)
	return ks
}

func sortKeys(ks []Key) {
	sort.Slice(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.Scope != b.Scope {
			return a.Scope < b.Scope
		}
		return a.Name < b.Name
	})
}

// Differ is one test both sides reported with different outcomes.
type Differ struct {
	Key             Key
	Native, Testdex Outcome
}

// Diff is what Compare found. The zero Diff means the two sides agree.
type Diff struct {
	OnlyNative  []Key // reported by the runner, not by testdex
	OnlyTestdex []Key // reported by testdex, not by the runner
	Differ      []Differ
}

// Empty reports whether the sides agree on every test.
func (d Diff) Empty() bool {
	return len(d.OnlyNative) == 0 && len(d.OnlyTestdex) == 0 && len(d.Differ) == 0
}

// Compare compares the native results with testdex's.
func Compare(native, testdex Results) Diff {
	var d Diff
	for k, o := range native {
		t, ok := testdex[k]
		switch {
		case !ok:
			d.OnlyNative = append(d.OnlyNative, k)
		case t != o:
			d.Differ = append(d.Differ, Differ{k, o, t})
		}
	}
	for k := range testdex {
		if _, ok := native[k]; !ok {
			d.OnlyTestdex = append(d.OnlyTestdex, k)
		}
	}
	sortKeys(d.OnlyNative)
	sortKeys(d.OnlyTestdex)
	sort.Slice(d.Differ, func(i, j int) bool { return d.Differ[i].Key.String() < d.Differ[j].Key.String() })
	return d
}

// Format renders d with at most max examples per kind of difference
// (max <= 0: all of them).
func (d Diff) Format(max int) string {
	var b strings.Builder
	section := func(title string, n int, line func(i int) string) {
		if n == 0 {
			return
		}
		fmt.Fprintf(&b, "%s: %d\n", title, n)
		for i := 0; i < n && (max <= 0 || i < max); i++ {
			fmt.Fprintf(&b, "  %s\n", line(i))
		}
		if max > 0 && n > max {
			fmt.Fprintf(&b, "  ... and %d more\n", n-max)
		}
	}
	section("only native", len(d.OnlyNative), func(i int) string { return d.OnlyNative[i].String() })
	section("only testdex", len(d.OnlyTestdex), func(i int) string { return d.OnlyTestdex[i].String() })
	section("differing outcome (native -> testdex)", len(d.Differ), func(i int) string {
		x := d.Differ[i]
		return fmt.Sprintf("%s: %s -> %s", x.Key, x.Native, x.Testdex)
	})
	return b.String()
}
