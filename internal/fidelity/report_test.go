package fidelity

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// report collects the discrepancy report, one section per project.
type report struct {
	mu       sync.Mutex
	sections []*strings.Builder
}

func (r *report) section(p Project) *strings.Builder {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := &strings.Builder{}
	fmt.Fprintf(b, "## %s (%s)\n\n", p.Version, p.Framework)
	r.sections = append(r.sections, b)
	return b
}

func (r *report) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	b.WriteString("# testdex run fidelity report\n\n")
	for _, s := range r.sections {
		b.WriteString(s.String())
	}
	return b.String()
}

// writeSection adds one comparison to a project's section: both sides'
// counts and wall times, what testdex reported besides test results, and
// the differences with a few examples each.
func writeSection(b *strings.Builder, what string, native Results, run *Run, d Diff, nt, tt time.Duration) {
	fmt.Fprintf(b, "### %s\n\n", what)
	fmt.Fprintf(b, "- native:  %s (%.1f s)\n", native.Counts(), nt.Seconds())
	fmt.Fprintf(b, "- testdex: %s (%.1f s, list and run)\n", run.Results.Counts(), tt.Seconds())
	if n := len(run.Unreported); n > 0 {
		fmt.Fprintf(b, "- testdex `unreported`: %d (e.g. %s)\n", n, examples(run.Unreported, 3))
	}
	if run.RuntimeOnly > 0 {
		fmt.Fprintf(b, "- testdex results marked seen: [runtime]: %d\n", run.RuntimeOnly)
	}
	if run.Derived > 0 {
		fmt.Fprintf(b, "- events without scope/name, named from the listing by ID: %d\n", run.Derived)
	}
	if n := len(run.Unnamed); n > 0 {
		fmt.Fprintf(b, "- events without scope/name whose ID the listing lacks: %d (e.g. %s)\n", n, examples(run.Unnamed, 3))
	}
	for _, e := range run.Errors {
		fmt.Fprintf(b, "- batch error: %s\n", e)
	}
	if kinds := kindCounts(d.OnlyTestdex, run.Kinds); kinds != "" {
		fmt.Fprintf(b, "- only-testdex results by record kind: %s\n", kinds)
		var other []string
		for _, k := range d.OnlyTestdex {
			if run.Kinds[k] != "suite" {
				other = append(other, fmt.Sprintf("%s [%s: %s]", k, run.Kinds[k], run.Results[k]))
			}
		}
		if len(other) > 0 {
			fmt.Fprintf(b, "- only-testdex results that are not suites: %d (e.g. %s)\n", len(other), examples(other, 6))
		}
	}
	if d.Empty() {
		b.WriteString("\nidentical.\n\n")
		return
	}
	fmt.Fprintf(b, "\n```\n%s```\n\n", d.Format(6))
}

func examples(ids []string, n int) string {
	if len(ids) > n {
		ids = ids[:n]
	}
	return "`" + strings.Join(ids, "`, `") + "`"
}

func kindCounts(ks []Key, kinds map[Key]string) string {
	count := map[string]int{}
	for _, k := range ks {
		kind := kinds[k]
		if kind == "" {
			kind = "unknown"
		}
		count[kind]++
	}
	var parts []string
	for kind, n := range count {
		parts = append(parts, fmt.Sprintf("%s %d", kind, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
