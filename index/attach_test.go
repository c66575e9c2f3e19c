package index

import (
	"bytes"
	"context"
	"reflect"
	"testing"
)

// TestAttachProjectsPlansLikeBuild: a listing saved as metadata and read
// back, its projects detected again from the manifests, plans the same
// batches as the built index, without parsing a test file.
func TestAttachProjectsPlansLikeBuild(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, monorepo)
	built, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := built.WriteMetadata(&buf); err != nil {
		t.Fatal(err)
	}
	saved, err := ReadMetadata(&buf, "m.json", root)
	if err != nil {
		t.Fatal(err)
	}
	if err := saved.AttachProjects(Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	shape := func(ix *Index, ids, paths []string) []string {
		sel, err := ix.Resolve(ids, paths)
		if err != nil {
			t.Fatal(err)
		}
		p := ix.Plan(sel)
		var out []string
		for _, b := range p.Batches {
			out = append(out, b.Name)
			for _, ps := range b.Selection.Paths {
				out = append(out, "  path "+ps.Path)
			}
			for _, t := range b.Selection.Tests {
				out = append(out, "  id "+t.ID)
			}
			for _, t := range b.Expected {
				out = append(out, "  expects "+t.ID)
			}
		}
		for _, t := range p.Unrunnable {
			out = append(out, "unrunnable "+t.ID)
		}
		return out
	}
	for _, sel := range [][2][]string{{nil, nil}, {{"svc/a_test.go::TestA/x_y"}, {"lib"}}} {
		want, got := shape(built, sel[0], sel[1]), shape(saved, sel[0], sel[1])
		if !reflect.DeepEqual(got, want) || len(want) == 0 {
			t.Errorf("selection %q: plan from metadata\n%q\nwant\n%q", sel, got, want)
		}
	}
}

// TestResolveRunsFilesWithoutListedTests: test files whose tests the
// static listing could not see (compiled code, tests made by a helper)
// still run when everything is asked for: the runner says what they hold.
func TestResolveRunsFilesWithoutListedTests(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":    "module m\n",
		"a_test.go": "package m\n\nimport \"testing\"\n\nvar _ = testing.Verbose\n",
	})
	ix, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Tests) != 0 || len(ix.Files) != 1 {
		t.Fatalf("%d tests, %d files; want a test file without listed tests", len(ix.Tests), len(ix.Files))
	}
	sel, err := ix.Resolve(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := ix.Plan(sel); len(p.Batches) != 1 || !p.Batches[0].Selection.Whole() {
		t.Errorf("plan %+v: want the project run whole", p.Batches)
	}
}
