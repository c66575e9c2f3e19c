// Package impacttest holds what the languages' tests share: a tree written
// from a map, and the selection `testdex affected --files` makes in it,
// through the real listing and the real impact graph (the same path the
// CLI and the MCP server take). Only tests import it.
package impacttest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
)

// WriteTree writes files (root-relative path -> content) into a new
// temporary folder and returns it.
func WriteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Affected lists the tree's tests of framework fw and selects for the
// changed files (root-relative; a missing one counts as deleted): the
// selected files that declare tests, with their reasons. A problem the
// graph reports fails the test.
func Affected(t testing.TB, root string, fw testdex.Framework, changed ...string) map[string]string {
	t.Helper()
	ix, err := index.Build(context.Background(), index.Options{Root: root, Frameworks: []testdex.Framework{fw}})
	if err != nil {
		t.Fatal(err)
	}
	g := changes.Build(ix)
	for _, p := range g.Problems {
		t.Errorf("graph problem: %s", p)
	}
	set := changes.FromFiles(changed, func(rel string) bool {
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	})
	out := map[string]string{}
	for _, a := range g.Select(ix, set) {
		if len(a.Tests) > 0 {
			out[a.File] = a.Reason.String()
		}
	}
	return out
}
