package shapes

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check compares got, a listing rendered by Lines, with the expectations in
// file, the golden-file step every language's TestShapes shares. With update
// set (the test's -update flag) it writes got to file instead and returns:
// the run records the current listing, which must be checked by hand before
// it is committed. A file that cannot be read stops the test; a difference is
// reported with Diff and the test goes on, so that later checks still run.
// Both messages give the command that regenerates the file.
func Check(t testing.TB, got, file string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatalf("update %s: %v", file, err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read expectations: %v (run %s to create it, then check it by hand)", err, regenerate(t))
	}
	if got != string(want) {
		t.Errorf("listing differs from %s (check it by hand, then run %s):\n%s", file, regenerate(t), Diff(string(want), got))
	}
}

// regenerate returns the command that reruns t's top-level test with
// -update, from the module root (the folder holding go.mod above the working
// directory, which go test sets to the package's folder); "." stands for the
// package when no go.mod is found.
func regenerate(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("go test %s -run '^%s$' -update", packageDir(), name)
}

// packageDir returns the working directory relative to the module root, as a
// go test package pattern ("./internal/lang/java"), or "." if it is unknown.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for root := wd; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "."
		}
		root = parent
	}
}
