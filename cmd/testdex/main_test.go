package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestCollectFrom checks that collectFrom turns the collector off under a
// memory limit of the floor, and that the first collection gives it back
// at the percent asked, without a limit.
func TestCollectFrom(t *testing.T) {
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
	collectFrom(1<<40, 250)
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("before the first collection GOGC is %d, want off (-1)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != 1<<40 {
		t.Fatalf("before the first collection the limit is %d, want the floor", l)
	}
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p := debug.SetGCPercent(-1)
		if p == 250 {
			debug.SetGCPercent(p)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a collection GOGC is %d, want 250", p)
		}
		time.Sleep(time.Millisecond)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Fatalf("after the first collection the limit is %d, want none", l)
	}
}
