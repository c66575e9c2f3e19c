package workspace

import (
	"fmt"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/languages"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// Shards splits the plan of running req over ix into n shards with the
// durations d (nil: the defaults of plan.Split): `testdex plan --shards`,
// and `testdex run --shard k/N`, which runs one of them with RunPlan.
// Every machine that lists the same tree with the same request and
// durations gets the same shards, without talking to the others.
func (w *Workspace) Shards(ix *index.Index, req run.Request, n int, d plan.Durations) (*plan.Sharding, error) {
	p, err := w.Plan(ix, req)
	if err != nil {
		return nil, err
	}
	return SplitPlan(p, n, d, false)
}

// SplitPlan splits a plan made here or read from a document (`run --plan
// FILE --shard k/N`) into n shards with the durations d; roundRobin deals
// the files out in turn instead (SplitOptions.RoundRobin, the baseline a
// benchmark compares with).
func SplitPlan(p *plan.Plan, n int, d plan.Durations, roundRobin bool) (*plan.Sharding, error) {
	if n < 1 {
		return nil, &UsageError{fmt.Errorf("%d shards: at least 1", n)}
	}
	return plan.Split(p, n, plan.SplitOptions{Durations: d, RoundRobin: roundRobin,
		FolderRuns: func(fw testdex.Framework) bool {
			f := languages.Framework(fw)
			return f != nil && f.FolderRuns
		},
		SetupPerFile: func(fw testdex.Framework) bool {
			f := languages.Framework(fw)
			return f != nil && f.SetupPerFile
		}})
}

// Stream is one shard's saved event stream for Merge: Read hands its
// events, in order, to handle.
type Stream struct {
	Name string
	Read func(handle func(testdex.Event) error) error
}

// MergeError is what makes shards' streams not one run: a test reported
// by two of them (a shard run twice, two splits that disagree), or a
// test the full plan expected that none reported (a shard lost). Merge
// returns it with the summary; it fails the merged run.
type MergeError struct {
	Twice   []string // "ID (A.jsonl and B.jsonl)"
	Missing []string // IDs
}

func (e *MergeError) Error() string {
	var parts []string
	if len(e.Twice) > 0 {
		parts = append(parts, fmt.Sprintf("%d test(s) reported by two shards: %s", len(e.Twice), clip(e.Twice)))
	}
	if len(e.Missing) > 0 {
		parts = append(parts, fmt.Sprintf("%d planned test(s) reported by no shard (a shard's stream is missing or cut short): %s", len(e.Missing), clip(e.Missing)))
	}
	return strings.Join(parts, "; ")
}

func clip(ids []string) string {
	if len(ids) > 10 {
		return strings.Join(ids[:10], ", ") + fmt.Sprintf(", and %d more", len(ids)-10)
	}
	return strings.Join(ids, ", ")
}

// Merge makes the shards' streams one run, as if one run had produced
// them (`testdex merge`): every event goes, in stream order, to h (when
// not nil) and to the summary it returns; the merged run's failures are
// kept for `testdex failures` and `run --failed`. A test reported by two streams,
// or, when full (the plan the shards were split from) is given, a test it
// expects that no stream reported, is a *MergeError returned with the
// summary: the merged run is not green.
func (w *Workspace) Merge(streams []Stream, full *plan.Plan, h run.Handler) (*run.Summary, error) {
	sum := run.NewSummary()
	all := run.Handler(sum)
	if h != nil {
		all = run.MultiHandler(sum, h)
	}
	from := map[string]int{} // test ID and occurrence → the stream that reported it
	merr := &MergeError{}
	for i, s := range streams {
		err := s.Read(func(e testdex.Event) error {
			if e.ID != "" && e.Action.Final() {
				key := fmt.Sprintf("%s\x00%d", e.ID, e.Occurrence)
				if other, ok := from[key]; ok && other != i {
					merr.Twice = append(merr.Twice, fmt.Sprintf("%s (%s and %s)", e.ID, streams[other].Name, s.Name))
				} else if !ok {
					from[key] = i
				}
			}
			return all.Event(e)
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	sum.Finish()
	if full != nil {
		merr.Missing = missing(full, sum)
	}
	if w.CacheDir != "" {
		if err := run.SaveFailures(w.CacheDir, w.Root, sum.Failures); err != nil {
			return sum, err
		}
	}
	if len(merr.Twice)+len(merr.Missing) > 0 {
		return sum, merr
	}
	return sum, nil
}

// missing lists the records full expects a result for that the merged
// run has none for, itself or under it, in ID order: as a run ends its
// own records unreported, a record with listed children leaves it to
// them, a dynamic record's rows are known only when it runs (one
// reported under its parent is enough), and a benchmark runs only when
// named by ID.
func missing(full *plan.Plan, sum *run.Summary) []string {
	reported := map[string]bool{}
	for _, e := range sum.Results() {
		reported[e.ID] = true
		if e.Parent != "" {
			reported[e.Parent] = true
		}
	}
	var out []string
	for _, b := range full.Batches {
		byID := map[string]*testdex.Test{}
		hasChild := map[string]bool{}
		for _, t := range b.Expected {
			byID[t.ID] = t
			if !t.Dynamic {
				hasChild[t.Parent] = true
			}
		}
		named := map[string]bool{}
		for _, t := range b.Selection.Tests {
			named[t.ID] = true
		}
		for _, t := range b.Expected {
			if hasChild[t.ID] || reported[t.ID] || t.Dynamic || benchmarkUnnamed(t, byID, named) {
				continue
			}
			out = append(out, t.ID)
		}
	}
	for _, t := range full.Unrunnable {
		if !reported[t.ID] {
			out = append(out, t.ID)
		}
	}
	sort.Strings(out)
	return out
}

// benchmarkUnnamed reports whether t is or lies under a benchmark that
// neither it nor the benchmark is named by ID: a run without --bench does
// not run it.
func benchmarkUnnamed(t *testdex.Test, byID map[string]*testdex.Test, named map[string]bool) bool {
	for a, depth := t, 0; a != nil && depth < 64; a, depth = byID[a.Parent], depth+1 {
		if named[a.ID] {
			return false
		}
		if a.Kind == testdex.KindBenchmark {
			return true
		}
	}
	return false
}
