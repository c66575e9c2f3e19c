// Package proc is the one place testdex starts child processes: a test
// framework's listing command now, its test runs later. Every child runs in
// its own process group, so that a timeout stops the child and everything it
// started: SIGTERM to the group, a grace period, then SIGKILL. Output streams
// are captured separately and capped.
//
// When the child has exited, whatever it left behind is killed and reported
// as leaked: what stayed in its group, and on Linux what left the group
// (setsid) but descends from it, which a process made a child subreaper
// ([BecomeSubreaper], called from main) adopts when its parent exits. When
// several children run at once, an adopted orphan is attributed by what a
// poller saw descend from each child while it ran, else by its start time;
// one that could be either of two running children's is killed when the
// last of them ends (the reasons are at batch.adopts). A process that does
// not descend from a child proc started is never touched.
//
// The seeds killed the direct child with SIGTERM only, which leaves
// grandchildren running and cannot stop a child that ignores SIGTERM.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultCap is the default limit of each captured stream.
const DefaultCap = 500 << 10

// Truncated is appended to a stream that hit its cap.
const Truncated = "\n[TRUNCATED]\n"

// Spec describes one child process.
type Spec struct {
	Args []string
	Dir  string
	// Env is the complete environment; nil inherits the parent's.
	Env []string
	// Timeout bounds the run; 0 means none (the context still applies).
	Timeout time.Duration
	// Grace is the time between SIGTERM and SIGKILL; 0 means 2 s.
	Grace time.Duration
	// Cap limits each captured stream; 0 means DefaultCap.
	Cap int
	// Stdout and Stderr, when set, also receive everything the child
	// writes, uncapped and as it is written (a streaming parser).
	Stdout, Stderr io.Writer
	// Stdin, when set, is the child's standard input; nil gives it none
	// (the null device).
	Stdin io.Reader
}

// Result is what a child did. ExitCode is -1 when it did not exit by itself
// (killed on timeout or cancellation).
type Result struct {
	Stdout, Stderr []byte
	ExitCode       int
	TimedOut       bool
	Elapsed        time.Duration
	// Leaked lists, by PID, the processes the child left alive when it
	// exited or was killed (a test that spawned a daemon): those still in
	// its process group and, on Linux, those that left the group (setsid)
	// but descend from it (see BecomeSubreaper). They were killed. Nil
	// when there were none.
	Leaked []Leak
}

// Leak is one leftover process.
type Leak struct {
	PID     int
	Command string
}

// MissingError reports a program that is not installed.
type MissingError struct{ Program string }

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s not found in PATH (install it, or check PATH)", e.Program)
}

// Run starts the child, waits for it and returns its result. The error is
// non-nil only when the child could not be started (a *MissingError for a
// missing program); a non-zero exit or a timeout is a normal Result.
func Run(ctx context.Context, s Spec) (*Result, error) {
	if len(s.Args) == 0 {
		return nil, errors.New("run: empty command")
	}
	path, err := lookPath(s.Args[0], s.Env)
	if err != nil {
		return nil, &MissingError{Program: s.Args[0]}
	}
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	grace := s.Grace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	limit := s.Cap
	if limit <= 0 {
		limit = DefaultCap
	}
	stdout, stderr := &capped{max: limit}, &capped{max: limit}
	cmd := exec.CommandContext(ctx, path, s.Args[1:]...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	cmd.Stdout, cmd.Stderr = tee(stdout, s.Stdout), tee(stderr, s.Stderr)
	cmd.Stdin = s.Stdin
	cmd.SysProcAttr = sysProcAttr()
	armed := &killTimer{}
	cmd.Cancel = func() error { return terminate(cmd, grace, armed) }
	// WaitDelay bounds the wait for pipes held open by processes that outlive
	// the child (a daemon that left its group); finish kills them next.
	cmd.WaitDelay = grace + time.Second
	keep, child, shim := shimmed(cmd) // everything the child starts dies with testdex (shim_linux.go)
	if shim {
		defer keep.Close() // after the wait: the shim has exited by then
	}
	start := time.Now()
	b, err := startTracked(cmd)
	if shim {
		child.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", s.Args[0], err)
	}
	err = cmd.Wait()
	res := &Result{Stdout: stdout.bytes(), Stderr: stderr.bytes(), ExitCode: cmd.ProcessState.ExitCode(), Elapsed: time.Since(start)}
	res.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	res.Leaked = b.finish() // anything the child left behind, killed
	armed.stop()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) && !errors.Is(err, exec.ErrWaitDelay) && ctx.Err() == nil {
		return res, fmt.Errorf("run %s: %w", s.Args[0], err)
	}
	return res, nil
}

// lookPath finds a program the way the child's environment would: in the
// PATH of env when it sets one, else in testdex's own.
func lookPath(prog string, env []string) (string, error) {
	if strings.Contains(prog, "/") {
		return exec.LookPath(prog)
	}
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "PATH="); ok {
			for _, dir := range filepath.SplitList(v) {
				if dir == "" {
					dir = "."
				}
				p := filepath.Join(dir, prog)
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
					return p, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	return exec.LookPath(prog)
}

// terminate sends SIGTERM to the child's group and arms a SIGKILL for
// after grace; Run disarms it once the child has been waited for and the
// group cleaned up, so the signal never reaches a process group ID the
// system has since reused.
func terminate(cmd *exec.Cmd, grace time.Duration, armed *killTimer) error {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	armed.set(time.AfterFunc(grace, func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }))
	return nil
}

// killTimer holds the pending SIGKILL, if any; safe for concurrent use.
type killTimer struct {
	mu sync.Mutex
	t  *time.Timer
}

func (k *killTimer) set(t *time.Timer) {
	k.mu.Lock()
	k.t = t
	k.mu.Unlock()
}

func (k *killTimer) stop() {
	k.mu.Lock()
	if k.t != nil {
		k.t.Stop()
	}
	k.mu.Unlock()
}

func tee(w, also io.Writer) io.Writer {
	if also == nil {
		return w
	}
	return io.MultiWriter(w, also)
}

// capped is a buffer that keeps the first max bytes and marks truncation.
type capped struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		if len(p) > room {
			c.buf.Write(p[:room])
			c.truncated = true
		} else {
			c.buf.Write(p)
		}
	} else if len(p) > 0 {
		c.truncated = true
	}
	return len(p), nil
}

func (c *capped) bytes() []byte {
	if c.truncated {
		return append(c.buf.Bytes(), Truncated...)
	}
	return c.buf.Bytes()
}
