package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/testdex/testdex/internal/proc"
)

// The tests run testdex in this process, as main would: a child subreaper,
// so that a test that daemonizes is adopted, found and killed.
func init() { _ = proc.BecomeSubreaper() }

// fixturePIDs gives the run fixtures a file to record the PIDs of their
// processes in (TESTDEX_FIXTURE_PIDS: testdata/run/* append the process
// running the tests and each child they start), and returns its path. The
// tests then check those processes alone, never the machine's (a pgrep
// sees, and kills, another user's "sleep 300").
func fixturePIDs(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "pids")
	t.Setenv("TESTDEX_FIXTURE_PIDS", file)
	return file
}

// checkGone fails the test for each process recorded in file that is still
// running (it kills it), and when fewer than atLeast were recorded (a
// fixture that no longer records would make the check vacuous). A process
// killed a moment ago gets a few seconds to be gone.
func checkGone(t *testing.T, file string, atLeast int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	fields := strings.Fields(string(data))
	if len(fields) < atLeast {
		t.Errorf("the fixtures recorded %d PIDs in %s, want at least %d", len(fields), file, atLeast)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, f := range fields {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("bad PID %q in %s", f, file)
		}
		for running(pid, file) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if running(pid, file) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d, started by a test, is still running", pid)
		}
	}
}

// running reports whether pid is a live process (not a zombie) of this
// test: on Linux, its environment must still name the PID file, so a PID
// the system has since given to another process does not count.
func running(pid int, file string) bool {
	if runtime.GOOS != "linux" {
		return syscall.Kill(pid, 0) == nil
	}
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil { // gone, or not ours to read
		return false
	}
	// A zombie's environment reads empty.
	return bytes.Contains(append(append([]byte{0}, env...), 0), []byte("\x00TESTDEX_FIXTURE_PIDS="+file+"\x00"))
}
