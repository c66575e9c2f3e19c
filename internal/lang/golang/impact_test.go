package golang_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
)

// TestImpact runs testdata/impact/*.txtar: each archive is a tree, and its
// comment carries the expectations inline, one case per "change" line
// followed by every test file the change must select and its reason:
//
//	change b/b.go [more files...]        (a missing file is a deleted one)
//	a/a_test.go: a/a_test.go → (import) go:example.com/m/b → (changed) b/b.go
//	none                                 (nothing selected)
//	problem SUBSTRING                    (a Problem of the graph says it)
//
// Lines starting with "#" are comments. The listing and the selection are
// the real ones (index.Build, changes.Build, Graph.Select).
func TestImpact(t *testing.T) {
	files, _ := filepath.Glob("testdata/impact/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/impact/*.txtar")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) { impactCase(t, file) })
	}
}

func impactCase(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range ar.Files {
		abs := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := index.Build(context.Background(), index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	g := changes.Build(ix)
	var problems []string
	for _, p := range g.Problems {
		problems = append(problems, p.String())
	}
	var set changes.Set
	var want []string
	check := func() {
		if set == nil {
			return
		}
		var got []string
		for _, a := range g.Select(ix, set) {
			got = append(got, a.File+": "+a.Reason.String())
		}
		if len(got) == 0 {
			got = []string{"none"}
		}
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("change %v:\n got:\n\t%s\nwant:\n\t%s", set, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
	}
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "change "):
			check()
			set = changes.FromFiles(strings.Fields(strings.TrimPrefix(line, "change ")), func(p string) bool {
				_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
				return err == nil
			})
			want = nil
		case strings.HasPrefix(line, "problem "):
			if s := strings.TrimPrefix(line, "problem "); !strings.Contains(strings.Join(problems, "\n"), s) {
				t.Errorf("no problem says %q; problems:\n\t%s", s, strings.Join(problems, "\n\t"))
			}
		default:
			want = append(want, line)
		}
	}
	check()
}
