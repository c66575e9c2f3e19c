package rust_test

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

var update = flag.Bool("update", false, "rewrite testdata/shapes/cargo.expected.txt (check it by hand first)")

// shapesDir is the all-shapes fixture: a cargo workspace (virtual root,
// members shapes and member) holding every shape the package recognises.
const shapesDir = "../../../testdata/shapes/cargo"

// buildShapes lists the fixture with the core, as `testdex list` does.
func buildShapes(t *testing.T) *index.Index {
	t.Helper()
	root, err := filepath.Abs(shapesDir)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.Build(context.Background(), index.Options{Root: root, Frameworks: []testdex.Framework{testdex.Cargo}})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// recordLine renders a record as the expected file holds it.
func recordLine(r testdex.Test) string {
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

// TestShapes compares the fixture's listing with cargo.expected.txt
// exactly, record by record in listing order, and checks the one warning
// (the orphan file).
func TestShapes(t *testing.T) {
	ix := buildShapes(t)
	var b strings.Builder
	for _, r := range ix.Tests {
		b.WriteString(recordLine(r) + "\n")
	}
	want := shapesDir + ".expected.txt"
	if *update {
		if err := os.WriteFile(want, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatalf("%v (run go test -run TestShapes -update, then check the file by hand)", err)
	}
	got, exp := strings.Split(b.String(), "\n"), strings.Split(string(data), "\n")
	for i := 0; i < len(got) || i < len(exp); i++ {
		var g, e string
		if i < len(got) {
			g = got[i]
		}
		if i < len(exp) {
			e = exp[i]
		}
		if g != e {
			t.Errorf("line %d:\n got  %q\n want %q", i+1, g, e)
		}
	}
	var probs []string
	for _, p := range ix.Problems {
		probs = append(probs, p.String())
	}
	wantProb := "warning: shapes/src/orphan.rs: not in the module tree of any target (no `mod` declares it), so its 1 tests are not listed; cargo does not compile it"
	if len(probs) != 1 || probs[0] != wantProb {
		t.Errorf("problems = %q, want [%q]", probs, wantProb)
	}
}
