//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package watch

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// cbreak clears ICANON and ECHO on the terminal fd: one byte at a time,
// not echoed; output processing and signals unchanged.
func cbreak(fd int) error {
	t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	t.Lflag &^= unix.ICANON | unix.ECHO
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	return unix.IoctlSetTermios(fd, ioctlSetTermios, t)
}

// reapplyOnResume puts the terminal back in cbreak mode whenever the
// process resumes after a stop (Ctrl-Z, then fg): the shell restored its
// own mode meanwhile. The returned function stops it.
func reapplyOnResume(fd int) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGCONT)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				_ = cbreak(fd)
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}
