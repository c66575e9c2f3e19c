//go:build unix

package proc

import "syscall"

// sysProcAttr puts the child in a new process group and, on Linux, asks
// the kernel to kill it if testdex dies first.
func sysProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setPdeathsig(a)
	return a
}
