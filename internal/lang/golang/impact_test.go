package golang_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang/golang"
	"github.com/testdex/testdex/internal/testenv"
)

// TestImpact runs testdata/impact/*.txtar: each archive is a tree, and its
// comment carries the expectations inline, one case per "change" line
// followed by every test file the change must select and its reason:
//
//	change b/b.go [more files...]        (a missing file is a deleted one)
//	edit NAME                            (the files of the sections "@NAME/path"
//	                                      written over a git work tree: the
//	                                      change is git's, narrowed by Diff)
//	a/a_test.go: a/a_test.go → (import) go:example.com/m/b → (changed) b/b.go
//	a/a_test.go::TestA: go:example.com/m/a.TestA → (uses) ... (one test of
//	                                      the file, not all: lang.Graph.Tests)
//	none                                 (nothing selected)
//	problem SUBSTRING                    (a Problem of the graph says it)
//
// Lines starting with "#" are comments. The listing and the selection are
// the real ones (index.Build, changes.Build, Graph.Select). Each archive
// runs twice: without a cache, and "cached": with the cache folder, each
// build as a new process (the tree's files dated an hour ago, so that
// size and time vouch for them; the edited ones by their hash).
func TestImpact(t *testing.T) {
	files, _ := filepath.Glob("testdata/impact/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/impact/*.txtar")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) { impactCase(t, file, false) })
		t.Run(name+"/cached", func(t *testing.T) { impactCase(t, file, true) })
	}
}

func impactCase(t *testing.T, file string, cached bool) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write := func(prefix string) {
		for _, f := range ar.Files {
			name, ok := strings.CutPrefix(f.Name, prefix)
			if !ok || prefix == "" && strings.HasPrefix(f.Name, "@") {
				continue
			}
			abs := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("")
	cacheDir := ""
	if cached {
		cacheDir = t.TempDir()
		backdate(t, root)
	}
	comment := string(ar.Comment)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if strings.Contains(comment, "\nedit ") {
		if _, err := exec.LookPath("git"); err != nil {
			testenv.Missing(t, "git is not installed")
		}
		git("init", "-q")
		git("add", "-A")
		git("commit", "-q", "-m", "base")
	}
	var ix *index.Index
	var g *changes.Graph
	var problems []string
	build := func() {
		if cached {
			golang.ClearMemo()
		}
		if ix, err = index.Build(context.Background(), index.Options{Root: root, CacheDir: cacheDir}); err != nil {
			t.Fatal(err)
		}
		g = changes.Build(ix)
		problems = nil
		for _, p := range g.Problems {
			problems = append(problems, p.String())
		}
	}
	build()
	var set changes.Set
	var want []string
	edited := false
	// selected renders the selection: whole files, or their tests.
	selected := func() []string {
		var got []string
		for _, a := range g.Select(ix, set) {
			if a.Whole() {
				got = append(got, a.File+": "+a.Reason.String())
				continue
			}
			for i, t := range a.Tests {
				if t.Parent == "" {
					got = append(got, t.ID+": "+a.ReasonOf(i).String())
				}
			}
		}
		if len(got) == 0 {
			got = []string{"none"}
		}
		sort.Strings(got)
		return got
	}
	check := func() {
		if set == nil {
			return
		}
		got := selected()
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("change %v:\n got:\n\t%s\nwant:\n\t%s", set, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
		if cached { // the same again, from what this run cached
			if err := g.SaveCache(); err != nil {
				t.Fatal(err)
			}
			build()
			if again := selected(); !slices.Equal(again, got) {
				t.Errorf("change %v, from the cache:\n got:\n\t%s\nfirst:\n\t%s", set, strings.Join(again, "\n\t"), strings.Join(got, "\n\t"))
			}
		}
	}
	reset := func() {
		if edited {
			git("checkout", "-q", "--", ".")
			git("clean", "-fdq")
			edited = false
			build()
		}
	}
	for _, line := range strings.Split(comment, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "change "):
			check()
			reset()
			set = changes.FromFiles(strings.Fields(strings.TrimPrefix(line, "change ")), func(p string) bool {
				_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
				return err == nil
			})
			want = nil
		case strings.HasPrefix(line, "edit "):
			check()
			reset()
			write("@" + strings.TrimPrefix(line, "edit ") + "/")
			edited = true
			build()
			if set, err = changes.FromGit(context.Background(), changes.GitOptions{Root: root, Env: os.Environ()}); err != nil {
				t.Fatal(err)
			}
			want = nil
		case strings.HasPrefix(line, "problem "):
			if s := strings.TrimPrefix(line, "problem "); !strings.Contains(strings.Join(problems, "\n"), s) {
				t.Errorf("no problem says %q; problems:\n\t%s", s, strings.Join(problems, "\n\t"))
			}
		default:
			want = append(want, line)
		}
	}
	check()
}

// backdate dates every file below root an hour ago.
func backdate(t *testing.T, root string) {
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = os.Chtimes(p, old, old)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
