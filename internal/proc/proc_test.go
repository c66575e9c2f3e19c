package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunCapturesAndExits(t *testing.T) {
	res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", "echo out; echo err >&2; exit 3"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "out\n" || string(res.Stderr) != "err\n" || res.ExitCode != 3 || res.TimedOut {
		t.Errorf("got %+v", res)
	}
}

// TestTimeoutKillsTheGroup starts a child that ignores SIGTERM and leaves a
// grandchild behind: the run must end shortly after the timeout plus grace,
// and the grandchild must be gone.
func TestTimeoutKillsTheGroup(t *testing.T) {
	start := time.Now()
	res, err := Run(context.Background(), Spec{
		Args:    []string{"sh", "-c", `trap "" TERM; sleep 30 & echo $!; wait`},
		Timeout: 200 * time.Millisecond,
		Grace:   300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.ExitCode != -1 {
		t.Errorf("got %+v, want a timeout", res)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	pid := strings.TrimSpace(string(res.Stdout))
	if pid == "" {
		t.Fatal("no grandchild pid printed")
	}
	time.Sleep(100 * time.Millisecond)
	if alive(pid) {
		syscall.Kill(atoi(pid), syscall.SIGKILL)
		t.Errorf("grandchild %s survived", pid)
	}
}

// alive reports whether a process exists and is not a zombie (a killed
// process whose parent died waits for PID 1 to reap it).
func alive(pid string) bool {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return exec.Command("kill", "-0", pid).Run() == nil
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestCap(t *testing.T) {
	res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", "head -c 5000 /dev/zero"}, Cap: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stdout) != 1000+len(Truncated) || !strings.HasSuffix(string(res.Stdout), Truncated) {
		t.Errorf("stdout is %d bytes", len(res.Stdout))
	}
}

func TestMissingProgram(t *testing.T) {
	_, err := Run(context.Background(), Spec{Args: []string{"no-such-program-testdex"}})
	var m *MissingError
	if !errors.As(err, &m) || !strings.Contains(err.Error(), "no-such-program-testdex not found") {
		t.Errorf("err = %v", err)
	}
}

// TestLeakedProcessIsReported: a child that exits normally but leaves a
// daemon behind gets it reported and killed.
func TestLeakedProcessIsReported(t *testing.T) {
	res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 || len(res.Leaked) != 1 || res.Leaked[0].Command != "sleep" {
		t.Fatalf("got %+v", res)
	}
	time.Sleep(100 * time.Millisecond)
	if pid := strings.TrimSpace(string(res.Stdout)); alive(pid) {
		t.Errorf("leaked %s still alive", pid)
	}
}

func TestStreamingTee(t *testing.T) {
	var sb strings.Builder
	res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", "echo a; echo b"}, Stdout: &sb, Cap: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sb.String() != "a\nb\n" || !strings.HasSuffix(string(res.Stdout), Truncated) {
		t.Errorf("tee %q, captured %q", sb.String(), res.Stdout)
	}
}

// TestLookPathUsesTheChildsPATH: a program is looked up in the PATH the
// child gets, not testdex's own.
func TestLookPathUsesTheChildsPATH(t *testing.T) {
	_, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", "true"}, Env: []string{"PATH=/nonexistent"}})
	var m *MissingError
	if !errors.As(err, &m) {
		t.Errorf("sh found without a PATH that holds it: err = %v", err)
	}
	res, err := Run(context.Background(), Spec{Args: []string{"sh", "-c", "exit 4"}, Env: []string{"PATH=/usr/bin:/bin"}})
	if err != nil || res.ExitCode != 4 {
		t.Errorf("sh in the child's PATH: %v, %+v", err, res)
	}
}
