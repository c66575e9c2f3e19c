package markdown_test

import (
	"reflect"
	"sort"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/impacttest"
)

// specTree holds specs of every paths shape: a root-relative glob, a
// comma-separated string mixing a literal file and a spec-relative glob,
// a folder, a broken field, and none (floating).
var specTree = map[string]string{
	"specs/api.spec.md":      "---\npaths: [src/api/**]\n---\n# API\n",
	"specs/docs.spec.md":     "---\npaths: \"docs/guide.md, ./fixtures/**\"\n---\n# Docs\n",
	"specs/folder.spec.md":   "---\npaths:\n  - lib\n---\n# Lib\n",
	"specs/broken.spec.md":   "---\npaths: {a: 1}\n---\n# Broken\n",
	"specs/floating.spec.md": "# Floating\n",
	"src/api/routes.go":      "package api\n",
	"src/web/page.go":        "package web\n",
	"docs/guide.md":          "# Guide\n",
	"specs/fixtures/in.json": "{}\n",
	"lib/a/b.txt":            "b\n",
}

func writeTree(t *testing.T, files map[string]string) string { return impacttest.WriteTree(t, files) }

// affected selects the specs a change of the named files affects.
func affected(t *testing.T, root string, changed ...string) map[string]string {
	return impacttest.Affected(t, root, testdex.Semtest, changed...)
}

func TestGraphPaths(t *testing.T) {
	root := writeTree(t, specTree)
	const broken = "specs/broken.spec.md" // any change selects it
	for _, c := range []struct {
		name    string
		changed []string
		want    []string
	}{
		{"a root-relative glob", []string{"src/api/routes.go"}, []string{"specs/api.spec.md", broken}},
		{"a literal file of a comma-separated string", []string{"docs/guide.md"}, []string{"specs/docs.spec.md", broken}},
		{"a spec-relative glob", []string{"specs/fixtures/in.json"}, []string{"specs/docs.spec.md", broken}},
		{"below a folder", []string{"lib/a/b.txt"}, []string{"specs/folder.spec.md", broken}},
		{"a file no spec names", []string{"src/web/page.go"}, []string{broken}},
		{"a floating spec: its own change only", []string{"specs/floating.spec.md"}, []string{"specs/floating.spec.md", broken}},
		// No node says "a deleted path matching src/api/**": every spec
		// with a glob is selected by a deletion.
		{"a deleted file", []string{"src/api/gone.go"}, []string{"specs/api.spec.md", "specs/docs.spec.md", "specs/folder.spec.md", broken}},
	} {
		got := affected(t, root, c.changed...)
		var files []string
		for f := range got {
			files = append(files, f)
		}
		sort.Strings(files)
		want := append([]string{}, c.want...)
		sort.Strings(want)
		if !reflect.DeepEqual(files, want) {
			t.Errorf("%s: selected\n  %q\nwant\n  %q", c.name, files, want)
		}
	}
	got := affected(t, root, "src/api/routes.go")
	if want := "specs/api.spec.md → (paths) src/api/** → (changed) src/api/routes.go"; got["specs/api.spec.md"] != want {
		t.Errorf("reason %q, want %q", got["specs/api.spec.md"], want)
	}
}
