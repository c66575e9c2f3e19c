//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package watch

import "golang.org/x/sys/unix"

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
