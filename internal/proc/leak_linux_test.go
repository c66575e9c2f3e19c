package proc

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/testdex/testdex/internal/testenv"
)

// subreaper makes the test process a child subreaper, as main does.
func subreaper(t *testing.T) {
	t.Helper()
	if err := BecomeSubreaper(); err != nil {
		t.Skipf("cannot become a child subreaper: %v", err)
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		testenv.Missing(t, "setsid is not installed")
	}
}

// pids parses the PIDs a child printed, one a line.
func pids(t *testing.T, out []byte) []int {
	t.Helper()
	var ps []int
	for _, f := range strings.Fields(string(out)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("child printed %q, want PIDs", out)
		}
		ps = append(ps, pid)
	}
	if len(ps) == 0 {
		t.Fatal("child printed no PID")
	}
	return ps
}

// gone reports whether pid names no process at all, not even a zombie:
// the leak was killed and reaped.
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// leakedPIDs returns the PIDs of res.Leaked.
func leakedPIDs(res *Result) []int {
	var ps []int
	for _, l := range res.Leaked {
		ps = append(ps, l.PID)
	}
	return ps
}

// cleanup kills the PIDs a failed test may have left behind.
func cleanup(t *testing.T, ps ...int) {
	t.Cleanup(func() {
		for _, pid := range ps {
			if !gone(pid) {
				t.Errorf("%d survived; killing it", pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
}

// TestSetsidDaemonIsKilled: a test that daemonizes with setsid leaves its
// runner's process group; it is adopted, killed when its batch ends, and
// reported by PID, as is the daemon's own child.
func TestSetsidDaemonIsKilled(t *testing.T) {
	subreaper(t)
	for _, c := range []struct{ name, script string }{
		{"setsid", `setsid sleep 300 >/dev/null 2>&1 & echo $!`},
		{"setsid with child", `setsid sh -c 'sleep 301 & echo $$ $!; wait' 2>/dev/null & sleep 0.2`},
		{"double fork", `(setsid sleep 302 >/dev/null 2>&1 & echo $!) ; sleep 0.1`},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Grace shortens the wait for the stdout the daemon holds open.
			res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", c.script}, Grace: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			want := pids(t, res.Stdout)
			cleanup(t, want...)
			got := leakedPIDs(res)
			for _, pid := range want {
				if !slices.Contains(got, pid) {
					t.Errorf("daemon %d not reported: leaked %+v", pid, res.Leaked)
				}
			}
		})
	}
}

// TestSetsidDaemonKilledOnTimeout: a batch that times out has its escaped
// daemon killed and reported too.
func TestSetsidDaemonKilledOnTimeout(t *testing.T) {
	subreaper(t)
	res, err := Run(context.Background(), Spec{
		Args:    []string{"sh", "-c", `setsid sleep 300 >/dev/null 2>&1 & echo $!; exec sleep 30`},
		Timeout: 300 * time.Millisecond,
		Grace:   200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := pids(t, res.Stdout)
	cleanup(t, want...)
	if !res.TimedOut || !slices.Equal(leakedPIDs(res), want) {
		t.Errorf("timed out %v, leaked %+v; want the daemon %v", res.TimedOut, res.Leaked, want)
	}
}

// lineWriter signals once a child wrote its first line.
type lineWriter struct {
	once  sync.Once
	ready chan struct{}
}

func (w *lineWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "\n") {
		w.once.Do(func() { close(w.ready) })
	}
	return len(p), nil
}

// runAsync starts a batch that prints a line when ready and returns, once
// that line arrived, a function that waits for its result; the test waits
// for it in any case, so that no batch outlives its test.
func runAsync(t *testing.T, script string) (wait func() *Result) {
	t.Helper()
	w := &lineWriter{ready: make(chan struct{})}
	done := make(chan *Result, 1)
	go func() {
		res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", script}, Stdout: w})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	wait = sync.OnceValue(func() *Result { return <-done })
	t.Cleanup(func() { wait() })
	select {
	case <-w.ready:
	case <-time.After(10 * time.Second):
		t.Fatal("batch never became ready")
	}
	return wait
}

// TestConcurrentBatchesAttribution: with two batches running, a daemon whose
// parent the poller saw is its batch's, and the other batch reports
// nothing; a daemon whose parent exited at once could be either batch's, so
// it is not killed while the other batch still runs, and is killed and
// reported when that one ends.
func TestConcurrentBatchesAttribution(t *testing.T) {
	subreaper(t)
	t.Run("seen", func(t *testing.T) {
		other := runAsync(t, `echo ready; sleep 2`)
		res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", `setsid sleep 304 >/dev/null 2>&1 & echo $!; sleep 1`}})
		if err != nil {
			t.Fatal(err)
		}
		want := pids(t, res.Stdout)
		cleanup(t, want...)
		if !slices.Equal(leakedPIDs(res), want) {
			t.Errorf("leaked %+v, want the daemon %v", res.Leaked, want)
		}
		if o := other(); o.Leaked != nil {
			t.Errorf("the other batch reported %+v", o.Leaked)
		}
	})
	t.Run("ambiguous", func(t *testing.T) {
		other := runAsync(t, `echo ready; sleep 1.5`)
		res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", `setsid sleep 305 >/dev/null 2>&1 & echo $!`}})
		if err != nil {
			t.Fatal(err)
		}
		want := pids(t, res.Stdout)
		cleanup(t, want...)
		if slices.Equal(leakedPIDs(res), want) {
			t.Log("the poller saw the daemon under its batch: attributed exactly")
			return
		}
		if res.Leaked != nil || gone(want[0]) {
			t.Fatalf("leaked %+v, daemon gone %v: want it left alive while the other batch runs", res.Leaked, gone(want[0]))
		}
		if o := other(); !slices.Equal(leakedPIDs(o), want) {
			t.Errorf("the last batch reported %+v, want the daemon %v", o.Leaked, want)
		}
	})
}

// TestOnlyDescendantsAreTouched: a process of testdex's own that proc did
// not start, and a process that is no descendant at all, survive a batch
// that leaks a daemon.
func TestOnlyDescendantsAreTouched(t *testing.T) {
	subreaper(t)
	mine := exec.Command("sleep", "306")
	if err := mine.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = mine.Process.Kill(); _ = mine.Wait() }()
	orphan, err := exec.Command("sh", "-c", `sleep 307 >/dev/null 2>&1 & echo $!`).Output()
	if err != nil {
		t.Fatal(err)
	}
	adopted := pids(t, orphan)[0]
	defer func() {
		_ = syscall.Kill(adopted, syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(adopted, &ws, 0, nil)
	}()
	res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", `setsid sleep 308 >/dev/null 2>&1 & echo $!`}})
	if err != nil {
		t.Fatal(err)
	}
	cleanup(t, pids(t, res.Stdout)...)
	for _, l := range res.Leaked {
		if l.PID == mine.Process.Pid || l.PID == adopted {
			t.Errorf("reported %d, which proc did not start", l.PID)
		}
	}
	if gone(mine.Process.Pid) || gone(adopted) {
		t.Errorf("a process proc did not start was killed")
	}
}
