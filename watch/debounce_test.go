package watch

import (
	"reflect"
	"testing"
	"time"

	"github.com/testdex/testdex/changes"
)

// fire waits for the Debouncer's timer, failing after a generous bound.
func fire(t *testing.T, d *Debouncer) {
	t.Helper()
	select {
	case <-d.C():
	case <-time.After(10 * time.Second):
		t.Fatal("the debouncer never fired")
	}
}

func TestDebouncerCoalesces(t *testing.T) {
	onDisk := map[string]bool{"a.go": true, "new.py": true, "renamed.go": true}
	exists := func(p string) bool { return onDisk[p] }
	for _, tc := range []struct {
		name   string
		events []fileEvent
		want   changes.Set
	}{
		{"writes of one save are one change", []fileEvent{{"a.go", true}, {"a.go", true}, {"a.go", true}},
			changes.Set{{Path: "a.go", Status: changes.Modified}}},
		{"a save by rename (gone, then created) is a modification",
			[]fileEvent{{"a.go", true}, {"a.go", false}},
			changes.Set{{Path: "a.go", Status: changes.Modified}}},
		{"a new file is added", []fileEvent{{"new.py", false}, {"new.py", true}},
			changes.Set{{Path: "new.py", Status: changes.Added}}},
		{"a removed file is deleted", []fileEvent{{"gone.js", true}},
			changes.Set{{Path: "gone.js", Status: changes.Deleted}}},
		{"a file that came and went is no change", []fileEvent{{"scratch.go", false}, {"scratch.go", true}}, nil},
		{"several files, sorted", []fileEvent{{"renamed.go", false}, {"gone.js", true}, {"a.go", true}},
			changes.Set{{Path: "a.go", Status: changes.Modified}, {Path: "gone.js", Status: changes.Deleted}, {Path: "renamed.go", Status: changes.Added}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDebouncer(5 * time.Millisecond)
			if d.C() != nil || d.Pending() {
				t.Fatal("an empty debouncer is armed")
			}
			for _, e := range tc.events {
				d.Add(e)
			}
			fire(t, d)
			got, first := d.Take(exists)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if first.IsZero() {
				t.Error("the first event's time is not kept")
			}
			if d.C() != nil || d.Pending() {
				t.Error("Take left the debouncer armed")
			}
		})
	}
}

// TestDebouncerWaitsForQuiet feeds events more often than the quiet
// window: the debouncer fires only after they stop, or at Max.
func TestDebouncerWaitsForQuiet(t *testing.T) {
	d := NewDebouncer(200 * time.Millisecond)
	d.Max = time.Hour
	start := time.Now()
	for i := 0; i < 5; i++ {
		d.Add(fileEvent{Path: "a.go", Existed: true})
		select {
		case <-d.C():
			t.Fatalf("fired after %v while events kept coming", time.Since(start))
		case <-time.After(50 * time.Millisecond):
		}
	}
	fire(t, d)
	if since := time.Since(start); since < 250*time.Millisecond+200*time.Millisecond-100*time.Millisecond {
		t.Errorf("fired %v after the first event, before the window after the last one closed", since)
	}

	// An endless stream is cut at Max.
	d = NewDebouncer(time.Hour)
	d.Max = 50 * time.Millisecond
	d.Add(fileEvent{Path: "a.go", Existed: true})
	d.Add(fileEvent{Path: "b.go", Existed: true})
	fire(t, d)
}

// TestDebouncerClock checks that Max counts from the first event on the
// injected clock.
func TestDebouncerClock(t *testing.T) {
	now := time.Unix(1000, 0)
	d := NewDebouncer(time.Hour)
	d.Max = time.Minute
	d.Now = func() time.Time { return now }
	d.Add(fileEvent{Path: "a.go", Existed: true})
	now = now.Add(2 * time.Minute) // past Max: the next event fires at once
	d.Add(fileEvent{Path: "b.go", Existed: true})
	fire(t, d)
	if set, first := d.Take(func(string) bool { return true }); len(set) != 2 || !first.Equal(time.Unix(1000, 0)) {
		t.Errorf("Take = %v, %v", set, first)
	}
}
