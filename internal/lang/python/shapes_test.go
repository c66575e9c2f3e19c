package python_test

import (
	"path/filepath"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/shapes"
)

// shapesDir is the all-shapes fixture: a pytest project and a unittest
// project with every shape the extractor knows.
var shapesDir = filepath.Join("..", "..", "..", "testdata", "shapes", "python")

func buildShapes(t *testing.T) *index.Index { return shapes.Build(t, index.Options{Root: shapesDir}) }

// TestShapes lists the fixture with index.Build and compares every record
// with the expected file, in listing order. Regenerate with
// `go test ./internal/lang/python -run TestShapes -update`.
func TestShapes(t *testing.T) {
	shapes.CheckFixture(t, index.Options{Root: shapesDir}, shapesDir+".expected.txt")
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
