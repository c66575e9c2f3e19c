package java_test

import (
	"path/filepath"
	"testing"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/shapes"
)

// shapesDir is the all-shapes Maven project; its expected listing lies
// beside it in junit.expected.txt.
const shapesDir = "../../../testdata/shapes/junit"

// TestShapes lists the fixture with index.Build and compares every record
// with the expected file: ID, kind, name, scope and flags, in listing order.
// Regenerate with `go test ./internal/lang/java -run TestShapes -update`.
func TestShapes(t *testing.T) {
	shapes.CheckFixture(t, index.Options{Root: shapesDir}, filepath.Join(filepath.Dir(shapesDir), "junit.expected.txt"))
}

func buildShapes(t *testing.T) *index.Index { return shapes.Build(t, index.Options{Root: shapesDir}) }
