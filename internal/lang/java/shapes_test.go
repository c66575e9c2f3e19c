package java_test

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

var update = flag.Bool("update", false, "rewrite testdata/shapes/junit.expected.txt (check it by hand first)")

// shapesDir is the all-shapes Maven project; its expected listing lies
// beside it in junit.expected.txt.
const shapesDir = "../../../testdata/shapes/junit"

// TestShapes lists the fixture with index.Build and compares every record
// with the expected file: ID, kind, name, scope and flags, in listing order.
func TestShapes(t *testing.T) {
	ix := buildShapes(t)
	var b strings.Builder
	for _, r := range ix.Tests {
		b.WriteString(expectedLine(r))
	}
	for _, p := range ix.Problems {
		t.Errorf("unexpected problem: %v", p)
	}
	want := filepath.Join(filepath.Dir(shapesDir), "junit.expected.txt")
	if *update {
		if err := os.WriteFile(want, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatalf("read %s: %v (run go test -run TestShapes -update to create it)", want, err)
	}
	if got := b.String(); got != string(data) {
		t.Errorf("listing differs from %s (rerun with -update after checking it by hand):\n%s", want, diffLines(string(data), got))
	}
}

func buildShapes(t *testing.T) *index.Index {
	t.Helper()
	ix, err := index.Build(context.Background(), index.Options{Root: shapesDir})
	if err != nil {
		t.Fatalf("index.Build: %v", err)
	}
	return ix
}

// expectedLine renders one record as ID, kind, name, scope and flags.
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
	return strings.Join([]string{r.ID, string(r.Kind), r.Name, r.Scope, f}, "\t") + "\n"
}

// diffLines lists the lines only one side has.
func diffLines(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	if b.Len() == 0 {
		return "(same lines, different order)"
	}
	return b.String()
}
