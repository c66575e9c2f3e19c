//go:build !unix

package cache

// openFlags is empty where O_NOFOLLOW does not exist: Load's Lstat and the
// check of the open file's type still refuse anything but a regular file.
const openFlags = 0
