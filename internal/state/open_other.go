//go:build !unix

package state

// openFlags: elsewhere the type checks before and after opening stand alone.
const openFlags = 0
