//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package watch

import "errors"

// cbreak is not available here: watch runs without keys.
func cbreak(int) error { return errors.New("no cbreak mode on this system") }

func reapplyOnResume(int) func() { return func() {} }
