package cli

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

// goRec is a Go record of file named name, a child of parent ("" for none).
func goRec(file, name, parent string, line int) testdex.Test {
	id := testdex.MakeID(file, name)
	if parent != "" {
		parent = testdex.MakeID(file, parent)
	}
	kind := testdex.KindTest
	if strings.Contains(name, "/") {
		kind = testdex.KindSubtest
	}
	return testdex.Test{ID: id, Framework: testdex.Go, Kind: kind, Scope: "m/p", Name: name, Parent: parent, File: file, Line: line, Tags: []string{}}
}

// TestWriteTree checks the tree view's indentation and labels, where the
// records are a listing's (in path order, each file's together) and where
// they are not: a record appended after the other files (as `list --exact`
// appends the runtime's own) still sits under its parent of an earlier file
// section, and a parent never seen leaves a record at the first level with
// its whole name.
func TestWriteTree(t *testing.T) {
	listing := []testdex.Test{
		goRec("p/a_test.go", "TestA", "", 3),
		goRec("p/a_test.go", "TestA/x", "TestA", 4),
		goRec("p/a_test.go", "TestA/x/y", "TestA/x", 5),
		goRec("p/b_test.go", "TestB", "", 7),
		goRec("p/b_test.go", "TestB/z", "TestB", 8),
	}
	tail := "\n2 tests, 3 subtests in 2 files\n"
	head := "p/a_test.go  go m/p\n  TestA  :3\n    x  :4\n      y  :5\np/b_test.go  go m/p\n  TestB  :7\n    z  :8\n"
	for _, c := range []struct {
		name  string
		tests []testdex.Test
		want  string
	}{
		{"a listing", listing, head + tail},
		{"a record appended after another file", append(cloneTests(listing), goRec("p/a_test.go", "TestA/w", "TestA", 9)),
			head + "p/a_test.go  go m/p\n    w  :9\n\n2 tests, 4 subtests in 3 files\n"},
		{"a parent never listed", append(cloneTests(listing[:3]), goRec("p/a_test.go", "TestC/v", "TestC", 11)),
			"p/a_test.go  go m/p\n  TestA  :3\n    x  :4\n      y  :5\n  TestC/v  :11\n\n1 test, 3 subtests in 1 file\n"},
	} {
		var b bytes.Buffer
		writeTree(&b, c.tests)
		if b.String() != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, b.String(), c.want)
		}
	}
}

func cloneTests(t []testdex.Test) []testdex.Test { return append([]testdex.Test(nil), t...) }

// BenchmarkWriteTreeGOROOT is the tree view of $(go env GOROOT)/src's
// listing (built once, its cache in a temporary folder), to io.Discard:
//
//	go test ./internal/cli -run '^$' -bench WriteTreeGOROOT -benchtime 20x -benchmem
func BenchmarkWriteTreeGOROOT(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	ix, err := index.Build(context.Background(), index.Options{Root: src, CacheDir: b.TempDir()})
	if err != nil {
		b.Skipf("no GOROOT listing: %v", err)
	}
	for b.Loop() {
		writeTree(io.Discard, ix.Tests)
	}
}
