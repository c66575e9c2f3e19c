//go:build !unix

package history

// lock opens the lock file path and takes no lock: off Unix, two runs
// appending to one history at the same moment may lose one's records.
func lock(path string) (func(), error) {
	f, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
