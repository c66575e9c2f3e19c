//go:build unix

package flock

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestLockWaits: a second Lock of the same file waits until the first is
// released (flock locks open files, so one process holding two opens
// is kept apart as two processes are), says once that it waits, and
// gives up when its context ends.
func TestLockWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.lock")
	unlock, err := Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	waited := 0
	if _, err := Lock(ctx, path, func() { waited++ }); err == nil || waited != 1 {
		t.Fatalf("a held lock was taken again: err %v, waited %d", err, waited)
	}
	done := make(chan error)
	go func() {
		u, err := Lock(context.Background(), path, nil)
		if err == nil {
			u()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("the lock was taken while held: %v", err)
	default:
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
