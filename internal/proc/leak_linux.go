package proc

import (
	"errors"
	"maps"
	"os"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// finishRounds bounds the freeze-and-look rounds of finish: each round
// stops what it found, so only a process forked during the previous round
// is new in the next.
const finishRounds = 8

// finish runs once the batch's runner has been waited for: it finds what
// the batch left behind, kills it and returns it, reaps the adopted orphans
// that exited by themselves, and unregisters the batch.
//
// What a batch left behind is every live process that is one of:
//   - in the runner's process group (the runner's PID is its group ID);
//   - recorded as a descendant of the runner while it ran (the poller:
//     this attributes exactly, even among batches running at once);
//   - an orphan adopted by testdex (see [BecomeSubreaper]) that is the
//     batch's by its start time (see adopts);
//
// and every descendant of those. They are first stopped (SIGSTOP, round
// after round until no new one appears, so none can fork away while the
// others die), then killed (SIGKILL), each through a pidfd after checking
// its start time, so that a PID the system has reused is never signalled.
// Nothing else is touched: each of them descends from the runner.
func (b *batch) finish() []Leak {
	defer func() {
		reg.mu.Lock()
		reg.remove(b)
		reg.mu.Unlock()
	}()
	self, group := os.Getpid(), unix.Getpgrp()
	if b.quiet(self) {
		return nil
	}
	stopped := map[procKey]procInfo{}
	for range finishRounds {
		all, err := scanAll()
		if err != nil { // no /proc: the process group at least
			_ = unix.Kill(-b.runner.pid, unix.SIGKILL)
			return nil
		}
		reg.mu.Lock()
		mine := b.claim(all, self, group)
		reg.mu.Unlock()
		fresh := false
		for _, p := range mine {
			_, done := stopped[p.procKey]
			switch {
			case p.gone() && p.ppid == self:
				reap(p.pid)
			case !p.gone() && !done:
				signal(p.procKey, unix.SIGSTOP)
				stopped[p.procKey] = p
				fresh = true
			}
		}
		if !fresh {
			break
		}
	}
	for k := range stopped {
		signal(k, unix.SIGKILL)
	}
	reapKilled(stopped, self)
	leaks := make([]Leak, 0, len(stopped))
	for _, p := range stopped {
		leaks = append(leaks, Leak{PID: p.pid, Command: p.comm})
	}
	slices.SortFunc(leaks, func(a, b Leak) int { return a.PID - b.PID })
	if len(leaks) == 0 {
		return nil
	}
	return leaks
}

// quiet reports, without reading every process of the machine, that the
// batch left nothing behind: its process group is empty, nothing the poller
// saw is alive, and testdex has no child but the registered runners. When
// it cannot tell (no children files), it says false.
func (b *batch) quiet(self int) bool {
	if !childrenFiles() || !errors.Is(unix.Kill(-b.runner.pid, 0), unix.ESRCH) {
		return false
	}
	reg.mu.Lock()
	seen := slices.Collect(maps.Keys(b.seen))
	reg.mu.Unlock()
	for _, k := range seen {
		if exists(k) {
			return false
		}
	}
	kids := childrenOf(self)
	reg.mu.Lock()
	defer reg.mu.Unlock()
	for _, c := range kids {
		if !reg.runs(c, nil) {
			return false
		}
	}
	return true
}

// claim returns the processes of all that b left behind (see finish), by
// PID; the caller holds reg.mu.
func (b *batch) claim(all map[int]procInfo, self, group int) map[int]procInfo {
	var roots []int
	// The runner is reaped: should its PID already be another batch's
	// runner, the group with that ID is the other batch's.
	ownGroup := !reg.runs(b.runner.pid, b)
	for pid, p := range all {
		if reg.runs(pid, nil) {
			continue // a batch's runner, proc's own child: its batch waits for it
		}
		if ownGroup && p.pgrp == b.runner.pid || b.seen[p.procKey] || p.ppid == self && b.adopts(p, group) {
			roots = append(roots, pid)
		}
	}
	return subtrees(all, roots)
}

// runs reports whether pid is the runner of a registered batch other than
// except; the caller holds mu.
func (r *registry) runs(pid int, except *batch) bool {
	for _, b := range r.batches {
		if b != except && b.runner.pid == pid {
			return true
		}
	}
	return false
}

// adopts reports whether p, an orphan testdex adopted as a subreaper, is
// b's; the caller holds reg.mu.
//
// Once adopted, an orphan no longer says which process started it, so it is
// attributed by its start time: a process that started after b's runner,
// when no other batch still registered had started, can only descend from
// b's runner (proc starts every child of testdex; the running ones are
// registered, and a finished batch already took its own). When another
// registered batch could also be its origin, it stays alive: killing a
// daemon another running test still uses would fail that test. It is
// claimed by whichever of those batches finishes last (the reported batch
// may then be the wrong one of them; the process is still killed), unless
// the poller saw it under one runner, which settles it. A process in
// testdex's own process group is never adopted: proc starts every child in
// a group of its own, so such a process is a direct child started by other
// code in this program.
func (b *batch) adopts(p procInfo, group int) bool {
	if p.pgrp == group || p.start < b.runner.start {
		return false
	}
	for _, o := range reg.batches {
		if o != b && (o.seen[p.procKey] || o.runner.start <= p.start) {
			return false
		}
	}
	return true
}

// signal sends sig to the process k if it still is that process: through a
// pidfd opened before the start time is checked, so the PID cannot be
// reused in between; where pidfds are missing (Linux before 5.3, some
// seccomp profiles), through kill after the same check.
func signal(k procKey, sig unix.Signal) {
	fd, err := unix.PidfdOpen(k.pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if p, ok := readStat(k.pid); !ok || p.start != k.start {
		if err == nil {
			_ = unix.Close(fd)
		}
		return
	}
	if err != nil {
		_ = unix.Kill(k.pid, sig)
		return
	}
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
	_ = unix.Close(fd)
}

// reap collects the exit status of pid, a child of testdex that has exited;
// it never blocks, and never takes a child someone else waits for (the
// caller checked that pid is an adopted orphan).
func reap(pid int) {
	var ws unix.WaitStatus
	_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
}

// reapKilled waits, up to a couple of seconds, for the killed processes to
// die, reaping those that are (or become, as their parents die) testdex's
// children, so that none lingers as a zombie in a long-running server.
func reapKilled(killed map[procKey]procInfo, self int) {
	left := map[procKey]bool{}
	for k := range killed {
		left[k] = true
	}
	for deadline := time.Now().Add(2 * time.Second); len(left) > 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		for k := range left {
			p, ok := readStat(k.pid)
			switch {
			case !ok || p.start != k.start:
				delete(left, k)
			case p.gone() && p.ppid == self:
				reap(k.pid)
			case p.gone() && !killedParent(killed, p.ppid):
				delete(left, k) // its own, living parent reaps it
			}
		}
	}
}

// killedParent reports whether pid is one of the killed processes.
func killedParent(killed map[procKey]procInfo, pid int) bool {
	for k := range killed {
		if k.pid == pid {
			return true
		}
	}
	return false
}
