package lang_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocMaps: the doc.go of each language package maps its files by role
// ("Files by role:"), and the map names every source file of the package
// (tests and testdata aside), so that it cannot fall behind a new file.
func TestDocMaps(t *testing.T) {
	for _, pkg := range []string{"golang", "java", "js", "python", "rust", "skilltest"} {
		doc, err := os.ReadFile(filepath.Join(pkg, "doc.go"))
		if err != nil {
			t.Errorf("%s: %v (each language package has a doc.go with a map of its files)", pkg, err)
			continue
		}
		_, m, ok := strings.Cut(string(doc), "// Files by role:")
		if !ok {
			t.Errorf("%s/doc.go has no \"Files by role:\" map", pkg)
			continue
		}
		named := map[string]bool{}
		for _, w := range regexp.MustCompile(`[\w.]+\.(?:go|py|cjs|mjs)\b|[\w]+/`).FindAllString(m, -1) {
			named[w] = true
		}
		entries, err := os.ReadDir(pkg)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			switch {
			case e.IsDir() && name != "testdata":
				name += "/"
			case strings.HasSuffix(name, "_test.go"), name == "doc.go", name == "testdata":
				continue
			case !regexp.MustCompile(`\.(go|py|cjs|mjs)$`).MatchString(name):
				continue
			}
			if !named[name] {
				t.Errorf("%s/doc.go: the map does not name %s", pkg, name)
			}
		}
	}
}
