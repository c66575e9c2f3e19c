package js_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

var updateLoads = flag.Bool("update-loads", false, "rewrite the want and problems sections of testdata/loads/*.txtar from the current output (check them by hand)")

// TestLoads lists each testdata/loads/*.txtar project, whose test files
// load other files (require and import inside describes, readdirSync
// loops), and compares the records and problems with the archive's
// expectations:
//
//	-- want --      one record a line: ID, kind, file:line, flags (dynamic, skip or -), run
//	-- problems --  "path:line: severity: message", sorted as the listing sorts them
//
// It lists twice through one cache folder: the warm listing, which reads
// the loaded files from the cache, must be the same. Regenerate with
// `go test ./internal/lang/js -run TestLoads -update-loads`.
func TestLoads(t *testing.T) {
	files, _ := filepath.Glob("testdata/loads/*.txtar")
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			want := map[string]string{}
			for _, f := range ar.Files {
				if f.Name == "want" || f.Name == "problems" {
					want[f.Name] = string(f.Data)
					continue
				}
				writeFile(t, filepath.Join(root, filepath.FromSlash(f.Name)), f.Data)
			}
			cacheDir := t.TempDir()
			for _, run := range []string{"cold", "warm"} {
				ix, err := index.Build(context.Background(), index.Options{Root: root, CacheDir: cacheDir})
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]string{"want": loadLines(ix.Tests), "problems": problemText(ix.Problems)}
				if *updateLoads {
					for i, f := range ar.Files {
						if g, ok := got[f.Name]; ok {
							ar.Files[i].Data = []byte(g)
						}
					}
					if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				for _, k := range []string{"want", "problems"} {
					if got[k] != want[k] {
						t.Errorf("%s listing, %s:\n--- got\n%s--- want\n%s", run, k, got[k], want[k])
					}
				}
			}
		})
	}
}

func writeFile(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadLines renders records as TestLoads compares them.
func loadLines(tests []testdex.Test) string {
	var b strings.Builder
	for _, r := range tests {
		var flags []string
		if r.Dynamic {
			flags = append(flags, "dynamic")
		}
		if r.Skip {
			flags = append(flags, "skip")
		}
		if len(flags) == 0 {
			flags = []string{"-"}
		}
		fmt.Fprintf(&b, "%s\t%s\t%s:%d\t%s\t%s\n", r.ID, r.Kind, r.File, r.Line, strings.Join(flags, ","), r.Run)
	}
	return b.String()
}

func problemText(ps []testdex.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%s:%d: %s: %s\n", p.Path, p.Line, p.Severity, p.Message)
	}
	return b.String()
}
