package js_test

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

var update = flag.Bool("update", false, "rewrite testdata/shapes/node.expected.txt from the current output (check it by hand first)")

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

// expectedLine renders a record as the expected file does:
// ID<TAB>kind<TAB>name<TAB>scope<TAB>flags.
func expectedLine(r testdex.Test) string {
	var flags []string
	if r.Dynamic {
		flags = append(flags, "dynamic")
	}
	if r.Skip {
		flags = append(flags, "skip")
	}
	f := strings.Join(flags, ",")
	if f == "" {
		f = "-"
	}
	return strings.Join([]string{r.ID, string(r.Kind), r.Name, r.Scope, f}, "\t")
}

// TestShapes compares the static listing of the fixture with
// testdata/shapes/node.expected.txt, line by line.
func TestShapes(t *testing.T) {
	ix := buildShapes(t)
	var got []string
	for _, r := range ix.Tests {
		got = append(got, expectedLine(r))
	}
	for _, p := range ix.Problems {
		t.Errorf("unexpected problem: %s", p)
	}
	file := shapesDir + ".expected.txt"
	if *update {
		if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -run TestShapes -update to create it)", err)
	}
	want := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("line %d:\n got: %q\nwant: %q", i+1, g, w)
		}
	}
	wantProjects := map[string][]testdex.Framework{"jest": {testdex.Jest}, "mocha": {testdex.Mocha}, "node-test": {testdex.NodeTest}, "vitest": {testdex.Vitest}}
	for _, p := range ix.Projects {
		if w := wantProjects[filepath.ToSlash(p.Dir)]; len(w) != len(p.Frameworks) || w[0] != p.Frameworks[0] {
			t.Errorf("project %s: frameworks %v, want %v", p.Dir, p.Frameworks, w)
		}
	}
}
