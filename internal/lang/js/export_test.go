package js

// SetHostHTTPMethods makes http.METHODS of the host ms (nil: no node
// answered) for a test, and returns what restores the host's.
func SetHostHTTPMethods(ms []string) (restore func()) {
	saved := hostHTTPMethods
	hostHTTPMethods = func() []string { return ms }
	return func() { hostHTTPMethods = saved }
}

// Parses is how many files the package has parsed so far.
func Parses() int64 { return parses.Load() }
