package watch

import (
	"sort"
	"time"

	"github.com/testdex/testdex/workspace"
)

// fileEvent is one file event as the Watcher passes it on: the
// root-relative path, and whether the file was known to exist before it
// (a file the first walk saw, or one an earlier event created).
type fileEvent struct {
	Path    string
	Existed bool
}

// Debouncer coalesces file events into one change: it fires Quiet after
// the last event (an editor's save is several events: a write, a rename,
// a backup removed), or Max after the first when events never stop (a
// build writing files, a checkout), so a change is never held back for
// long. A path keeps what was known of it at its first event, and Take
// compares that with what is on disk now: so a save by rename (x renamed
// away, x created) is a modification, and a file that came and went
// within the window (a swap file) no change at all.
//
// It is owned by one goroutine; C is nil while nothing is pending, so a
// select on it sleeps.
type Debouncer struct {
	Quiet, Max time.Duration
	Now        func() time.Time // nil means time.Now

	existed map[string]bool // path -> known before its first event
	first   time.Time
	timer   *time.Timer
}

// NewDebouncer returns a Debouncer with the given quiet window and a limit
// of ten windows (at least a second).
func NewDebouncer(quiet time.Duration) *Debouncer {
	return &Debouncer{Quiet: quiet, Max: max(10*quiet, time.Second)}
}

func (d *Debouncer) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// Add records an event and arms the timer.
func (d *Debouncer) Add(e fileEvent) {
	if d.existed == nil {
		d.existed = map[string]bool{}
	}
	if _, seen := d.existed[e.Path]; !seen {
		d.existed[e.Path] = e.Existed
	}
	wait := d.Quiet
	if d.timer == nil {
		d.first = d.now()
		d.timer = time.NewTimer(wait)
		return
	}
	if left := d.Max - d.now().Sub(d.first); left < wait {
		wait = max(left, 0)
	}
	d.timer.Reset(wait)
}

// C fires when the pending change is due; nil when nothing is pending.
func (d *Debouncer) C() <-chan time.Time {
	if d.timer == nil {
		return nil
	}
	return d.timer.C
}

// Pending reports whether events wait to be taken.
func (d *Debouncer) Pending() bool { return len(d.existed) > 0 }

// Take returns the pending change, sorted by path, and the time of its
// first event, and empties the Debouncer. exists reports whether a
// root-relative path exists now. A path that existed and exists is
// modified, one that is new added, one that is gone deleted; one that
// neither existed nor exists is dropped.
func (d *Debouncer) Take(exists func(string) bool) (workspace.ChangeSet, time.Time) {
	var set workspace.ChangeSet
	for p, existed := range d.existed {
		now := exists(p)
		switch {
		case existed && now:
			set = append(set, workspace.Change{Path: p, Status: workspace.Modified})
		case now:
			set = append(set, workspace.Change{Path: p, Status: workspace.Added})
		case existed:
			set = append(set, workspace.Change{Path: p, Status: workspace.Deleted})
		}
	}
	sort.Slice(set, func(i, j int) bool { return set[i].Path < set[j].Path })
	first := d.first
	if d.timer != nil {
		d.timer.Stop()
	}
	d.existed, d.timer = nil, nil
	return set, first
}
