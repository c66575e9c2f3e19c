package js_test

import (
	"path/filepath"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/golden"
	"github.com/testdex/testdex/internal/shapes"
)

// shapesDir is the all-shapes fixture: one real npm project per framework.
const shapesDir = "../../../testdata/shapes/node"

// buildShapes lists the fixture statically.
func buildShapes(t testing.TB) *index.Index { return shapes.Build(t, index.Options{Root: shapesDir}) }

// TestShapes compares the static listing of the fixture with
// testdata/shapes/node.expected.txt, record by record in listing order, and
// checks the framework of each project. Regenerate with
// `go test ./internal/lang/js -run TestShapes -update`.
func TestShapes(t *testing.T) {
	ix := shapes.CheckFixture(t, index.Options{Root: shapesDir}, shapesDir+".expected.txt")
	if golden.Updating() {
		return
	}
	wantProjects := map[string][]testdex.Framework{"jest": {testdex.Jest}, "mocha": {testdex.Mocha}, "node-test": {testdex.NodeTest}, "vitest": {testdex.Vitest}}
	for _, p := range ix.Projects {
		if w := wantProjects[filepath.ToSlash(p.Dir)]; len(w) != len(p.Frameworks) || w[0] != p.Frameworks[0] {
			t.Errorf("project %s: frameworks %v, want %v", p.Dir, p.Frameworks, w)
		}
	}
}
