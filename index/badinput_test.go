package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testdex/testdex"
)

// TestBadInput builds a tree of everything that must not break a listing
// and checks that the good tests are all listed and every bad file is
// reported with its path.
func TestBadInput(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                 "module example.com/bad\n",
		"good/good_test.go":      "package good\n\nimport \"testing\"\n\nfunc TestGood(t *testing.T) {}\n",
		"bin/binary_test.go":     "\x00\x01\x02\x03\xff\xfe",
		"utf/latin1_test.go":     "package utf\n\nimport \"testing\"\n\nfunc TestCaf\xe9(t *testing.T) {}\n",
		"cut/unfinished_test.go": "package cut\n\nimport \"testing\"\n\nfunc TestCut(t *testing.T) {\n\tt.Run(\"a\", func(t *testing.T) {\n",
		"spec/binary.spec.md":    "\x00\x00",
		"spec/bad.spec.md":       "---\ntags: [\n---\n",
	}
	// A 10 MB generated test file with 100,000 test functions.
	var big strings.Builder
	big.WriteString("package big\n\nimport \"testing\"\n\n")
	for i := 0; big.Len() < 10<<20; i++ {
		fmt.Fprintf(&big, "func TestGen%06d(t *testing.T) { t.Run(\"case\", func(t *testing.T) {}) }\n", i)
	}
	files["big/big_test.go"] = big.String()
	// A tree 200 folders deep with a test at the bottom.
	deep := strings.Repeat("d/", 200)
	files[deep+"deep_test.go"] = "package d\n\nimport \"testing\"\n\nfunc TestDeep(t *testing.T) {}\n"
	writeTree(t, root, files)
	// Symlink loops and a broken link.
	must(t, os.Symlink(".", filepath.Join(root, "good", "self")))
	must(t, os.Symlink("..", filepath.Join(root, "good", "up")))
	must(t, os.Symlink("nowhere", filepath.Join(root, "good", "broken_test.go")))

	ix, err := Build(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]bool{}
	for _, r := range ix.Tests {
		byName[r.Name] = true
	}
	for _, want := range []string{"TestGood", "TestDeep", "TestCut", "TestGen000000", "TestGen000000/case", "bad.spec.md"} {
		if !byName[want] {
			t.Errorf("missing %s", want)
		}
	}
	reported := map[string]testdex.Severity{}
	for _, p := range ix.Problems {
		reported[p.Path] = p.Severity
	}
	for path, sev := range map[string]testdex.Severity{
		"bin/binary_test.go":     testdex.SevError,
		"utf/latin1_test.go":     testdex.SevError,
		"cut/unfinished_test.go": testdex.SevError,
		"spec/binary.spec.md":    testdex.SevError,
		"spec/bad.spec.md":       testdex.SevWarning,
		"good/broken_test.go":    testdex.SevWarning,
	} {
		if reported[path] != sev {
			t.Errorf("%s: reported %q, want %q; problems: %v", path, reported[path], sev, ix.Problems)
		}
	}
	var loops int
	for _, p := range ix.Problems {
		if strings.HasPrefix(p.Path, "good/self") || strings.HasPrefix(p.Path, "good/up") {
			loops++
		}
	}
	if loops == 0 {
		t.Errorf("symlink loops not reported: %v", ix.Problems)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
