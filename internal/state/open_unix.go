//go:build unix

package state

import "syscall"

// openFlags make opening a state file refuse a symbolic link and not wait
// on a FIFO; the file type is checked again once it is open.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
