package workspace

import (
	"fmt"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
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
// the files out in turn instead (plan.RoundRobin, the baseline a
// benchmark compares with).
func SplitPlan(p *plan.Plan, n int, d plan.Durations, roundRobin bool) (*plan.Sharding, error) {
	if n < 1 {
		return nil, &UsageError{fmt.Errorf("%d shards: at least 1", n)}
	}
	if roundRobin {
		return plan.RoundRobin(p, n, d)
	}
	return plan.Split(p, n, d)
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
// them (`testdex merge`): every event goes to h, in stream order, and to
// the summary it returns; the merged run's failures are kept for
// `testdex failures` and `run --failed`. A test reported by two streams,
// or, when full (the plan the shards were split from) is given, a test it
// expects that no stream reported, is a *MergeError returned with the
// summary: the merged run is not green.
func (w *Workspace) Merge(streams []Stream, full *plan.Plan, h run.Handler) (*run.Summary, error) {
	sum := run.NewSummary()
	all := run.MultiHandler(sum, h)
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

// missing lists the leaf records full expects that the merged run has no
// result for, itself or under it (a dynamic record's rows are known only
// when it runs: one of them reported is enough), in ID order.
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
		parents := map[string]bool{}
		for _, t := range b.Expected {
			parents[t.Parent] = true
		}
		for _, t := range b.Expected {
			if !parents[t.ID] && !reported[t.ID] && !(t.Dynamic && reported[t.Parent]) {
				out = append(out, t.ID)
			}
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
