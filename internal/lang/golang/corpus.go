package golang

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// addCorpus adds the seed corpus of each fuzz target of one file: every
// file in testdata/fuzz/FuzzX beside it is run by go test as the subtest
// FuzzX/FILENAME (the file name as it is, not rewritten), after the f.Add
// seeds. Only a folder listing is read. Entries go right after the
// target's last descendant so the records stay in tree order.
func addCorpus(projectDir string, f *lang.Linked) {
	tests := f.Result.Tests
	hasFuzz := false
	for _, t := range tests {
		hasFuzz = hasFuzz || t.Kind == testdex.KindFuzz
	}
	if !hasFuzz {
		return
	}
	var out []lang.Test
	for i := 0; i < len(tests); i++ {
		out = append(out, tests[i])
		t := tests[i]
		if t.Kind != testdex.KindFuzz || t.Parent != "" {
			continue
		}
		for i+1 < len(tests) && strings.HasPrefix(tests[i+1].Name, t.Name+"/") {
			i++
			out = append(out, tests[i])
		}
		dir := filepath.Join(projectDir, filepath.FromSlash(path.Dir(f.Rel)), "testdata", "fuzz", t.Name)
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			name := t.Name + "/" + e.Name()
			out = append(out, lang.Test{Kind: testdex.KindSubtest, Name: name, Parent: t.Name, Line: t.Line,
				Tags: []string{"corpus"}, Run: runPattern(name)})
		}
	}
	f.Result.Tests = out
}
