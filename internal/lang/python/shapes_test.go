package python_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

var update = flag.Bool("update", false, "rewrite testdata/shapes/python.expected.txt (check it by hand first)")

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

// expectedLine renders a record as python.expected.txt does.
func expectedLine(r testdex.Test) string {
	var flags []string
	if r.Dynamic {
		flags = append(flags, "dynamic")
	}
	if r.Skip {
		flags = append(flags, "skip")
	}
	f := "-"
	if len(flags) > 0 {
		f = strings.Join(flags, ",")
	}
	return strings.Join([]string{r.ID, string(r.Kind), r.Name, r.Scope, f}, "\t")
}

// TestShapes lists the fixture with index.Build and compares every record
// with the expected file, in listing order. Regenerate with
// `go test ./internal/lang/python -run TestShapes -update`.
func TestShapes(t *testing.T) {
	ix := buildShapes(t)
	var b strings.Builder
	for _, r := range ix.Tests {
		b.WriteString(expectedLine(r) + "\n")
	}
	for _, p := range ix.Problems {
		t.Errorf("unexpected problem: %s", p)
	}
	file := shapesDir + ".expected.txt"
	if *update {
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	wl := strings.Split(string(want), "\n")
	for i := 0; i < max(len(got), len(wl)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, g, w)
		}
	}
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
