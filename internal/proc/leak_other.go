//go:build !linux

package proc

import (
	"errors"
	"os/exec"
	"syscall"
)

// batch is one child proc started; off Linux only its process group is
// known.
type batch struct{ pgid int }

// startTracked starts cmd.
func startTracked(cmd *exec.Cmd) (*batch, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &batch{pgid: cmd.Process.Pid}, nil
}

// finish kills whatever is left in the batch's process group; off Linux
// the leftovers are not listed.
func (b *batch) finish() []Leak {
	_ = syscall.Kill(-b.pgid, syscall.SIGKILL)
	return nil
}

// BecomeSubreaper is Linux only; elsewhere it returns
// errors.ErrUnsupported and an orphan goes to init as usual.
func BecomeSubreaper() error { return errors.ErrUnsupported }
