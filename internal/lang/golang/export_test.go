package golang

// ClearMemo forgets the scans memoized by this process, so that a test's
// next graph reads the persistent cache as a new process would.
func ClearMemo() {
	memo.Clear()
	stdMemo.Clear()
}
