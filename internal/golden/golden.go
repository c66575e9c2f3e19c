// Package golden compares what a test produced with a file kept under
// testdata, and rewrites that file when the test binary runs with -update:
// the golden-file step of the report views, the all-shapes listings and
// the runner parsers' event streams (see internal/parsertest).
//
// The package owns the -update flag, so that one test binary has one; a
// test package that imports it (or shapes, or parsertest) must not define
// its own. A rewritten file must be checked by hand before it is
// committed: -update records what the code does now, right or wrong.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata with what the code produces now (check each by hand before committing it)")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check compares got with the content of file; under -update it writes got
// to file instead. See Compare.
func Check(t testing.TB, file string, got []byte) {
	t.Helper()
	Compare(t, file, got, *update)
}

// Compare compares got with the content of file, or, with update set,
// writes got to file and returns. A file that cannot be read stops the
// test; a difference is reported with Diff and the test goes on, so that
// later checks still run. Both messages give the command that regenerates
// the file.
func Compare(t testing.TB, file string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatalf("update %s: %v", file, err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read golden file: %v (run %s to create it, then check it by hand)", err, Regenerate(t))
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (check the difference by hand, then run %s):\n%s", file, Regenerate(t), Diff(string(want), string(got)))
	}
}

// Diff lists the lines only one side has, "- " for want and "+ " for got.
func Diff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var out []string
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			out = append(out, "+ "+l)
		}
	}
	if len(out) == 0 {
		return "(same lines, different order or repeats)"
	}
	return strings.Join(out, "\n")
}

// Regenerate returns the command that reruns t's top-level test with
// -update, from the module root (the folder holding go.mod above the
// working directory, which go test sets to the package's folder); "."
// stands for the package when no go.mod is found.
func Regenerate(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("go test %s -run '^%s$' -update", packageDir(), name)
}

// packageDir returns the working directory relative to the module root, as
// a go test package pattern ("./internal/lang/java"), or "." if it is
// unknown.
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
