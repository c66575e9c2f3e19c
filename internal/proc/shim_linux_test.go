package proc

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/testdex/testdex/internal/testenv"
)

// parentEnv makes the test binary act as a testdex that runs one child
// through Run and prints the PIDs the child started (see TestMain).
const parentEnv = "TESTDEX_PROC_TEST_PARENT"

func TestMain(m *testing.M) {
	if script := os.Getenv(parentEnv); script != "" {
		os.Unsetenv(parentEnv)
		_ = BecomeSubreaper()
		_, _ = Run(context.Background(), Spec{Args: []string{"sh", "-c", script}, Stdout: os.Stdout})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKilledParentTakesEverything kills a running "testdex" with SIGKILL,
// which it cannot catch: every process its child started must die with
// it, those in the child's group and a daemon that left it with setsid,
// however deep.
func TestKilledParentTakesEverything(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		testenv.Missing(t, "setsid is not installed")
	}
	// The child prints the PIDs of a grandchild in its group and of a
	// daemon in a session of its own, then waits.
	script := `sleep 300 & echo $!; setsid sh -c 'sleep 300 & echo $!; wait' & wait`
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), parentEnv+"="+script)
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	var pids []int
	for len(pids) < 2 {
		line, err := r.ReadString('\n')
		if err != nil {
			parent.Process.Kill()
			t.Fatalf("reading the child's PIDs: %v", err)
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(line))
		pids = append(pids, pid)
	}
	for _, pid := range pids {
		if !running(pid) {
			t.Fatalf("process %d is not running before the kill", pid)
		}
	}
	parent.Process.Signal(syscall.SIGKILL)
	parent.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for running(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if running(pid) {
			syscall.Kill(pid, syscall.SIGKILL) // this test started it: do not leave it
			t.Errorf("process %d (%d of %v) outlived its killed parent", pid, slices.Index(pids, pid), pids)
		}
	}
}

// running reports whether pid runs (a zombie does not).
func running(pid int) bool {
	p, ok := readStat(pid)
	return ok && !p.gone()
}
