//go:build unix

package history

import "golang.org/x/sys/unix"

// lock takes an exclusive advisory lock (flock) on the file path, waiting
// for another process that holds it; the function returned releases it.
func lock(path string) (func(), error) {
	f, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, nil
}
