//go:build unix

package cache

import "syscall"

// openFlags make opening the snapshot refuse a symbolic link and not wait
// on a FIFO; the file type is checked again once it is open.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
