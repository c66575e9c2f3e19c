package python_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/golden"
	"github.com/testdex/testdex/internal/shapes"
)

// shapesDir is the all-shapes fixture: a pytest project and a unittest
// project with every shape the extractor knows.
var shapesDir = filepath.Join("..", "..", "..", "testdata", "shapes", "python")

func buildShapes(t *testing.T) *index.Index {
	t.Helper()
	ix, err := index.Build(context.Background(), index.Options{Root: shapesDir})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestShapes lists the fixture with index.Build and compares every record
// with the expected file, in listing order. Regenerate with
// `go test ./internal/lang/python -run TestShapes -update`.
func TestShapes(t *testing.T) {
	ix := buildShapes(t)
	for _, p := range ix.Problems {
		t.Errorf("unexpected problem: %s", p)
	}
	shapes.Check(t, shapes.Lines(ix.Tests), shapesDir+".expected.txt", golden.Updating())
}

// TestShapesProjects checks the framework each fixture project gets.
func TestShapesProjects(t *testing.T) {
	ix := buildShapes(t)
	got := map[string]testdex.Framework{}
	for _, p := range ix.Projects {
		if p.Ecosystem == "python" && len(p.Frameworks) == 1 {
			got[p.Dir] = p.Frameworks[0]
		}
	}
	if got["pytestproj"] != testdex.Pytest || got["unittestproj"] != testdex.Unittest {
		t.Errorf("projects = %v, want pytestproj pytest and unittestproj unittest", got)
	}
}
