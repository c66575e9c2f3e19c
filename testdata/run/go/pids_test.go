package runfixture

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// TestMain records the test process's PID (a hanging test is this
// process) before running the tests.
func TestMain(m *testing.M) {
	recordPID(os.Getpid())
	os.Exit(m.Run())
}

// startRecorded starts cmd and records its PID.
func startRecorded(cmd *exec.Cmd) error {
	err := cmd.Start()
	if err == nil {
		recordPID(cmd.Process.Pid)
	}
	return err
}

// recordPID appends pid to the file TESTDEX_FIXTURE_PIDS names, when it is
// set, so that the test driving this fixture can check by PID that testdex
// left none of its processes running.
func recordPID(pid int) {
	name := os.Getenv("TESTDEX_FIXTURE_PIDS")
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strconv.Itoa(pid) + "\n"); err != nil {
		panic(err)
	}
}
