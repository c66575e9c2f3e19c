package shapes

import (
	"context"
	"testing"

	"github.com/testdex/testdex/index"
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

// Build lists the all-shapes fixture opts.Root statically with
// index.Build, as `testdex list` does; an error stops the test.
func Build(t testing.TB, opts index.Options) *index.Index {
	t.Helper()
	ix, err := index.Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("index.Build %s: %v", opts.Root, err)
	}
	return ix
}

// CheckFixture lists the fixture opts.Root (Build), reports each problem
// of the listing as an error, and compares the records with the expected
// file (Check, with golden's -update flag). It returns the listing for
// the test's own checks.
func CheckFixture(t testing.TB, opts index.Options, expected string) *index.Index {
	t.Helper()
	ix := Build(t, opts)
	for _, p := range ix.Problems {
		t.Errorf("unexpected problem: %v", p)
	}
	Check(t, Lines(ix.Tests), expected, golden.Updating())
	return ix
}
