//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package watch

import "golang.org/x/sys/unix"

const ioctlGetTermios, ioctlSetTermios = unix.TIOCGETA, unix.TIOCSETA
