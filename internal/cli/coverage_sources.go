package cli

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/walk"
	"github.com/testdex/testdex/run"
)

// coverageReport reads the root's coverage index into a report of the
// files under within: the recorded ones, and the source files of the
// same kinds that no test loaded (see sourceFiles), each cut into its
// functions as it is now by its project's Spanner.
func coverageReport(cmd *cobra.Command, ix *index.Index, cache string, within []string) (*coverage.Report, error) {
	if cache == "" {
		return nil, coverage.ErrNoData
	}
	cix, err := coverage.Open(coverage.Path(cache, ix.Root), coverage.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer cix.Close()
	recorded, err := cix.RecordedFiles()
	if err != nil {
		return nil, err
	}
	projects := ix.ProjectFiles()
	tests := testFiles(ix)
	extra, err := sourceFiles(cmd.Context(), ix.Root, projects, tests, recorded, within)
	if err != nil {
		return nil, err
	}
	current := func(rel string) ([]byte, []coverage.Func, bool) {
		src, ok := readFile(ix.Root, rel)
		if !ok {
			return nil, nil, false
		}
		var funcs []coverage.Func
		if p := index.InnermostProject(projects, rel); p != nil {
			funcs = run.FuncsOf(p.Spanner, filepath.Join(ix.Root, filepath.FromSlash(rel)), src)
		}
		return src, funcs, true
	}
	// Test files are left out: a test function is no function under
	// test (coverage.py records the test files themselves).
	keep := func(p string) bool { return underAny(within, p) && !tests[p] }
	return cix.Report(coverage.ReportOptions{Current: current, Files: extra, Match: keep})
}

// testFiles are the index's test files, root-relative and slash-separated.
func testFiles(ix *index.Index) map[string]bool {
	tests := map[string]bool{}
	for _, f := range ix.Files {
		tests[filepath.ToSlash(f.Path)] = true
	}
	return tests
}

// sourceFiles lists the files no test may have loaded, so that they
// appear wholly untested: under within, the files of each project with
// the extensions of the files recorded in that project (the kinds its
// coverage tool measures: a project nothing was recorded in adds none),
// test files, testdata folders and what the walk ignores
// (.gitignore, dependency and cache folders) left out. It asks no
// language which files it compiles: a Go file excluded by a build
// constraint is listed too.
func sourceFiles(ctx context.Context, root string, projects []index.ProjectFiles, tests map[string]bool, recorded, within []string) ([]string, error) {
	exts := map[*lang.Project]map[string]bool{}
	for _, rel := range recorded {
		p := index.InnermostProject(projects, rel)
		if p == nil || p.Spanner == nil || path.Ext(rel) == "" {
			continue
		}
		if exts[p] == nil {
			exts[p] = map[string]bool{}
		}
		exts[p][path.Ext(rel)] = true
	}
	if len(exts) == 0 {
		return nil, nil
	}
	var mu sync.Mutex
	var out []string
	_, err := walk.Walk(ctx, root, walk.Options{Within: walkFolders(root, within)}, func(rel string, d fs.DirEntry) error {
		rel = filepath.ToSlash(rel)
		if d.IsDir() || tests[rel] || !underAny(within, rel) || inTestdata(rel) {
			return nil
		}
		if p := index.InnermostProject(projects, rel); p != nil && exts[p][path.Ext(rel)] {
			mu.Lock()
			out = append(out, rel)
			mu.Unlock()
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// walkFolders are the folders to walk for within: each path's own folder
// when it is a file; nil for the whole root.
func walkFolders(root string, within []string) []string {
	var out []string
	for _, w := range within {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(w))); err != nil || !fi.IsDir() {
			w = path.Dir(w)
		}
		if w == "" || w == "." {
			return nil
		}
		out = append(out, w)
	}
	return out
}

func inTestdata(rel string) bool {
	return strings.HasPrefix(rel, "testdata/") || strings.Contains(rel, "/testdata/")
}
