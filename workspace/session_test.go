package workspace

import (
	"errors"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
)

// TestWarnerEvents: each warning goes to Warn and, as a warning event
// naming its batch when it has one, to the handler; a handler error is
// kept and stops further events.
func TestWarnerEvents(t *testing.T) {
	var said []string
	var evs []testdex.Event
	now := time.Unix(1700000000, 0)
	w := &warner{warn: func(s string) { said = append(said, s) }, now: func() time.Time { return now },
		h: run.HandlerFunc(func(e testdex.Event) error {
			evs = append(evs, e)
			if len(evs) == 2 {
				return errors.New("stdout closed")
			}
			return nil
		})}
	b := &plan.Batch{Name: "web jest", Framework: testdex.Jest}
	w.say(nil, "a failure no longer listed")
	w.say(b, "project web (jest): no coverage recorded")
	w.say(b, "a third")
	if len(said) != 3 || len(evs) != 2 || w.err == nil {
		t.Fatalf("said %q, events %+v, err %v", said, evs, w.err)
	}
	if e := evs[0]; e.Action != testdex.ActionWarning || e.Batch != "" || e.Message != "a failure no longer listed" || !e.Time.Equal(now) {
		t.Errorf("event 0: %+v", e)
	}
	if e := evs[1]; e.Action != testdex.ActionWarning || e.Batch != "web jest" || e.Framework != testdex.Jest || e.Message != said[1] {
		t.Errorf("event 1: %+v", e)
	}
}
