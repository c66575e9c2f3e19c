package rust_test

import (
	"path/filepath"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/golden"
	"github.com/testdex/testdex/internal/shapes"
)

// shapesDir is the all-shapes fixture: a cargo workspace (virtual root,
// members shapes and member) holding every shape the package recognises.
const shapesDir = "../../../testdata/shapes/cargo"

// buildShapes lists the fixture with the core, as `testdex list` does
// (its testdex.toml turns the feature "ext" on).
func buildShapes(t *testing.T) *index.Index {
	t.Helper()
	root, err := filepath.Abs(shapesDir)
	if err != nil {
		t.Fatal(err)
	}
	return shapes.Build(t, index.Options{Root: root, Frameworks: []testdex.Framework{testdex.Cargo}})
}

// TestShapes compares the fixture's listing with cargo.expected.txt
// exactly, record by record in listing order, and checks the one warning
// (the orphan file). Regenerate with
// `go test ./internal/lang/rust -run TestShapes -update`.
func TestShapes(t *testing.T) {
	ix := buildShapes(t)
	shapes.Check(t, shapes.Lines(ix.Tests), shapesDir+".expected.txt", golden.Updating())
	var probs []string
	for _, p := range ix.Problems {
		probs = append(probs, p.String())
	}
	wantProb := "warning: shapes/src/orphan.rs: not in the module tree of any target (no `mod` declares it), so its 1 tests are not listed; cargo does not compile it"
	if len(probs) != 1 || probs[0] != wantProb {
		t.Errorf("problems = %q, want [%q]", probs, wantProb)
	}
}
