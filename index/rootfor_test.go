package index

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRootFor: the working folder stays the root unless every existing
// named path lies outside it; then the nearest .git (folder or file) at or
// above the first, else its folder.
func TestRootFor(t *testing.T) {
	w := t.TempDir()
	for _, d := range []string{"here/in", "repo/.git", "repo/a/b", "wt/x", "plain/p"} {
		if err := os.MkdirAll(filepath.Join(w, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"wt/.git", "repo/a/b/f_test.go", "plain/p/g_test.go"} {
		if err := os.WriteFile(filepath.Join(w, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	here := filepath.Join(w, "here")
	for _, c := range []struct {
		named []string
		want  string
	}{
		{nil, ""},
		{[]string{"in"}, ""},
		{[]string{"pkg/x_test.go::TestX"}, ""}, // an ID, no path
		{[]string{"in", "../repo"}, ""},        // one inside keeps the root here
		{[]string{"../repo"}, filepath.Join(w, "repo")},
		{[]string{"../repo/a/b"}, filepath.Join(w, "repo")},
		{[]string{"nope", filepath.Join(w, "repo/a/b/f_test.go")}, filepath.Join(w, "repo")},
		{[]string{"../wt/x"}, filepath.Join(w, "wt")},                   // a worktree's .git file
		{[]string{"../plain/p"}, filepath.Join(w, "plain/p")},           // no .git: the folder
		{[]string{"../plain/p/g_test.go"}, filepath.Join(w, "plain/p")}, // a file: its folder
	} {
		if got := RootFor(here, c.named); got != c.want {
			t.Errorf("RootFor(here, %q) = %q, want %q", c.named, got, c.want)
		}
	}
}
