package proc

import "golang.org/x/sys/unix"

// BecomeSubreaper makes the calling process a child subreaper: a process
// orphaned anywhere below it (a test that daemonized with setsid and a
// double fork, a child whose runner exited) is reparented to it rather than
// to init, where Run finds it when its batch ends, kills it and reports it
// in Result.Leaked. It is process-wide and lasts for the process's life, so
// the program calls it, once, from main; a library must not (an embedding
// program that starts its own children in new process groups would have
// their orphans adopted too). Without it, Run still finds what stayed in the
// batch's process group and what it saw descend from the runner.
func BecomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}
