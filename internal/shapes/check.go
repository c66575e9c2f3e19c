package shapes

import (
	"testing"

	"github.com/testdex/testdex/internal/golden"
)

// Check compares got, a listing rendered by Lines, with the expectations in
// file, the golden-file step every language's TestShapes shares: see
// golden.Compare. With update set (golden.Updating(), the test binary's
// -update flag) it writes got to file instead and returns: the run records
// the current listing, which must be checked by hand before it is
// committed.
func Check(t testing.TB, got, file string, update bool) {
	t.Helper()
	golden.Compare(t, file, []byte(got), update)
}
