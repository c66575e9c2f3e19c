package run

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/flock"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/plan"
)

// locker runs one command holding the lock file at path.
type locker struct{ path string }

func (l locker) RunCommands(*lang.Project, *lang.Selection, lang.RunOptions) ([]*lang.Command, error) {
	return []*lang.Command{{Args: []string{"true"}, Exclusive: l.path}}, nil
}

func (locker) NewParser(_ *lang.Project, _ *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	return closer(func(int) { emit(lang.RunEvent{Action: testdex.ActionPass, Name: "a"}) })
}

// TestExclusiveCommand: a command with a lock file does not start while
// another process holds the lock (here, this one's other open of it),
// says that it waits, and runs once the lock is released.
func TestExclusiveCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "target", "reports.lock")
	unlock, err := flock.Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &testdex.Test{ID: "f::a", Name: "a", File: "f", Project: ".", Framework: "fake"}
	b := &plan.Batch{Name: ". fake", Dir: ".", Project: &lang.Project{Dir: t.TempDir()}, Setup: &lang.Setup{Framework: "fake", Runner: locker{path}},
		Selection: lang.Selection{Tests: []*testdex.Test{rec}}, Expected: []*testdex.Test{rec}}
	out := &batchOutput{ready: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		runBatch(context.Background(), b, Options{}.withDefaults(), plan.NewNamer(plan.Listing{Tests: []testdex.Test{*rec}}), out)
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("the command ran while the lock was held")
	case <-time.After(300 * time.Millisecond):
	}
	unlock()
	<-done
	var waited, passed bool
	for _, e := range out.events {
		waited = waited || strings.Contains(e.Output, "waiting for another run of this project")
		passed = passed || (e.ID == "f::a" && e.Action == testdex.ActionPass)
	}
	if !waited || !passed {
		t.Errorf("waited %v, passed %v: %+v", waited, passed, out.events)
	}
}
