package run

import (
	"fmt"
	"testing"
	"time"

	"github.com/testdex/testdex/plan"
)

// TestStartOrder checks the batches start longest predicted first, ties
// and a run without predictions in plan order.
func TestStartOrder(t *testing.T) {
	batches := []*plan.Batch{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}
	secs := map[string]time.Duration{"a": 1, "b": 5, "c": 1, "d": 9}
	predict := func(b *plan.Batch) time.Duration { return secs[b.Name] * time.Second }
	if got := fmt.Sprint(startOrder(batches, predict)); got != "[3 1 0 2]" {
		t.Errorf("longest first: %s, want [3 1 0 2]", got)
	}
	if got := fmt.Sprint(startOrder(batches, nil)); got != "[0 1 2 3]" {
		t.Errorf("without predictions: %s, want plan order", got)
	}
}
