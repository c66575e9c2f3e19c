package java_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/golden"
	"github.com/testdex/testdex/internal/shapes"
)

// shapesDir is the all-shapes Maven project; its expected listing lies
// beside it in junit.expected.txt.
const shapesDir = "../../../testdata/shapes/junit"

// TestShapes lists the fixture with index.Build and compares every record
// with the expected file: ID, kind, name, scope and flags, in listing order.
// Regenerate with `go test ./internal/lang/java -run TestShapes -update`.
func TestShapes(t *testing.T) {
	ix := buildShapes(t)
	for _, p := range ix.Problems {
		t.Errorf("unexpected problem: %v", p)
	}
	want := filepath.Join(filepath.Dir(shapesDir), "junit.expected.txt")
	shapes.Check(t, shapes.Lines(ix.Tests), want, golden.Updating())
}

func buildShapes(t *testing.T) *index.Index {
	t.Helper()
	ix, err := index.Build(context.Background(), index.Options{Root: shapesDir})
	if err != nil {
		t.Fatalf("index.Build: %v", err)
	}
	return ix
}
