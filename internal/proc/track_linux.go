package proc

import (
	"maps"
	"os/exec"
	"slices"
	"sync"
	"time"
)

// pollEvery is how often the descendants of running batches are recorded.
// Walking the children files costs a few reads per descendant, so this can
// be frequent; the shorter it is, the fewer short-lived parents of a daemon
// go unseen.
const pollEvery = 250 * time.Millisecond

// reg holds the batches proc is running. All its state is guarded by mu.
var reg = &registry{}

type registry struct {
	mu      sync.Mutex
	batches []*batch
	polling bool
}

// batch is one child proc started, from its start until finish has
// cleaned up after it.
type batch struct {
	runner procKey
	seen   map[procKey]bool // descendants recorded while the runner ran
}

// startTracked starts cmd and registers it. The registry is locked across
// the start so that no other batch's finish judges an orphan between the
// child's start and its registration.
func startTracked(cmd *exec.Cmd) (*batch, error) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	b := &batch{runner: procKey{pid: cmd.Process.Pid}, seen: map[procKey]bool{}}
	if p, ok := readStat(b.runner.pid); ok { // not reaped yet: it is there
		b.runner.start = p.start
	}
	reg.batches = append(reg.batches, b)
	if !reg.polling {
		reg.polling = true
		go reg.poll()
	}
	return b, nil
}

// remove unregisters b; the caller holds mu.
func (r *registry) remove(b *batch) {
	for i, o := range r.batches {
		if o == b {
			r.batches = append(r.batches[:i], r.batches[i+1:]...)
			return
		}
	}
}

// poll records, every pollEvery, the descendants of each running batch's
// runner, and stops when no batch is left. What a batch saw stays recorded
// while it lives, wherever it has moved (an escaped daemon); a process
// that has exited is forgotten, so the record stays the size of what is
// alive.
func (r *registry) poll() {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for range t.C {
		r.mu.Lock()
		if len(r.batches) == 0 {
			r.polling = false
			r.mu.Unlock()
			return
		}
		bs := append([]*batch(nil), r.batches...)
		old := make([][]procKey, len(bs))
		for i, b := range bs {
			old[i] = slices.Collect(maps.Keys(b.seen))
		}
		r.mu.Unlock()
		next := make([]map[procKey]bool, len(bs))
		for i, b := range bs {
			next[i] = map[procKey]bool{}
			for _, p := range descendants(b.runner) {
				next[i][p.procKey] = true
			}
			for _, k := range old[i] {
				if !next[i][k] && exists(k) {
					next[i][k] = true
				}
			}
		}
		r.mu.Lock()
		for i, b := range bs {
			b.seen = next[i] // poll is the only writer of seen
		}
		r.mu.Unlock()
	}
}

// exists reports whether the process k still exists (a zombie counts: it
// has not been reaped, so its PID is not reused).
func exists(k procKey) bool {
	p, ok := readStat(k.pid)
	return ok && p.start == k.start
}
