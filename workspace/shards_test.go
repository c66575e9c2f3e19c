package workspace

import (
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// stream is a saved shard stream of the given events.
func stream(name string, events ...testdex.Event) Stream {
	return Stream{Name: name, Read: func(handle func(testdex.Event) error) error {
		for _, e := range events {
			if err := handle(e); err != nil {
				return err
			}
		}
		return nil
	}}
}

// TestMerge merges shard streams: one run's summary and failures; a test
// in two streams, or one the plan expects that none reported, is a
// MergeError naming it; a parent whose children report, a dynamic record,
// an unnamed benchmark and a test the run itself said was unreported owe
// no further result.
func TestMerge(t *testing.T) {
	full := &plan.Plan{Batches: []*plan.Batch{{Name: ". go", Expected: []*testdex.Test{
		{ID: "a_test.go::TestA"}, {ID: "a_test.go::TestA/sub", Parent: "a_test.go::TestA"},
		{ID: "a_test.go::TestDyn/{name}", Dynamic: true},
		{ID: "a_test.go::BenchmarkA", Kind: testdex.KindBenchmark},
		{ID: "b_test.go::TestB"}, {ID: "b_test.go::TestGone"}, {ID: "c_test.go::TestC"},
	}}}}
	s1 := stream("1.jsonl",
		testdex.Event{Action: testdex.ActionPass, ID: "a_test.go::TestA/sub", Parent: "a_test.go::TestA"},
		testdex.Event{Action: testdex.ActionPass, ID: "a_test.go::TestA"})
	s2 := stream("2.jsonl",
		testdex.Event{Action: testdex.ActionFail, ID: "b_test.go::TestB", Message: "no"},
		testdex.Event{Action: testdex.ActionUnreported, ID: "b_test.go::TestGone"})
	s3 := stream("3.jsonl", testdex.Event{Action: testdex.ActionPass, ID: "c_test.go::TestC"})
	w := &Workspace{Root: t.TempDir(), CacheDir: t.TempDir()}

	sum, err := w.Merge([]Stream{s1, s2, s3}, full, run.HandlerFunc(func(testdex.Event) error { return nil }))
	if err != nil || sum.Passed != 3 || sum.Failed != 1 || run.ExitCode(sum) != run.ExitFailed {
		t.Fatalf("all shards: %v, %+v", err, sum)
	}
	if fs, ran, _ := w.Failures(nil); !ran || len(fs) != 1 || fs[0].ID != "b_test.go::TestB" {
		t.Errorf("the merged run's failures: %v %v", fs, ran)
	}

	_, err = w.Merge([]Stream{s1, s2}, full, nil)
	if me, ok := err.(*MergeError); !ok || strings.Join(me.Missing, ",") != "c_test.go::TestC" {
		t.Errorf("shard 3 lost: %v", err)
	}
	_, err = w.Merge([]Stream{s1, s2, s3, s3}, nil, nil)
	if me, ok := err.(*MergeError); !ok || len(me.Twice) != 1 || !strings.Contains(me.Error(), "c_test.go::TestC (3.jsonl and 3.jsonl)") {
		t.Errorf("shard 3 twice: %v", err)
	}
}
