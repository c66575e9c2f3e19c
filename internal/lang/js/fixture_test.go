package js_test

import (
	"context"
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
func buildShapes(t testing.TB) *index.Index {
	t.Helper()
	ix, err := index.Build(context.Background(), index.Options{Root: shapesDir})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestShapes compares the static listing of the fixture with
// testdata/shapes/node.expected.txt, record by record in listing order, and
// checks the framework of each project. Regenerate with
// `go test ./internal/lang/js -run TestShapes -update`.
func TestShapes(t *testing.T) {
	ix := buildShapes(t)
	for _, p := range ix.Problems {
		t.Errorf("unexpected problem: %s", p)
	}
	shapes.Check(t, shapes.Lines(ix.Tests), shapesDir+".expected.txt", golden.Updating())
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
