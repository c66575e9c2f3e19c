package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
)

// TestSpecCorpus judges the repository's own specs (specs/*.spec.md, 56
// scenarios about testdex) with the fake Claude Code, in a copy of the
// files they name: the second run on an unchanged tree makes no agent
// call, and after a one-file edit exactly the scenarios whose inputs
// hold that file are judged again, in one call per spec. The fake reads
// the files a scenario names in backticks; paths: in a spec's
// frontmatter adds files to all its scenarios.
func TestSpecCorpus(t *testing.T) {
	root := corpusCopy(t)
	s := newSpecRun(t, root)
	code, out, errs := s.run(nil, "run", "--json", "specs")
	if code != 0 {
		t.Fatalf("first run: exit %d\n%s", code, errs)
	}
	first := s.calls(t)
	passed := 0
	for _, e := range events(t, out) {
		if e.ID != "" && e.Action == testdex.ActionPass {
			passed++
		}
	}
	if passed < 50 || len(first) != 11 {
		t.Fatalf("first run: %d scenarios passed in %d calls, want at least 50 in 11 (one per spec file)", passed, len(first))
	}

	code, text, _ := s.run(nil, "run", "specs")
	if n := len(s.calls(t)); code != 0 || n != 0 {
		t.Errorf("second run: exit %d, %d agent calls, want 0", code, n)
	}
	want := "specs: 56 scenarios: 0 judged by 0 agent calls, 56 verdicts reused (11 calls saved)"
	if !strings.Contains(text, want) {
		t.Errorf("second run's cost line: want %q in\n%s", want, text)
	}
	t.Logf("corpus: first run %d calls for %d scenarios; second run 0 calls (%s)", len(first), passed, want)

	for _, c := range []struct {
		file string
		want []string // the scenarios judged again, per call
	}{
		// store.go: specs.spec.md's paths (internal/specs/*.go) hold it,
		// and state.spec.md's verdict-state names it.
		{"internal/specs/store.go", []string{"presets,retries,chatter,no-false-green,agreement,verdict-key", "verdict-state"}},
		// impact.go: markdown.spec.md's paths (internal/lang/markdown/*.go),
		// and affected.spec.md's spec-reads names it.
		{"internal/lang/markdown/impact.go", []string{"convention,default-patterns,lenient-frontmatter,scenarios,validation", "spec-reads"}},
		// escape.go: named by report.spec.md's escape alone.
		{"internal/report/escape.go", []string{"escape"}},
	} {
		p := filepath.Join(root, c.file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, append(data, "\n// edited\n"...), 0o644)
		_, text, _ := s.run(nil, "run", "specs")
		got := asked(s.calls(t))
		want := append([]string{}, c.want...)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("after editing %s, judged again %q, want %q", c.file, got, want)
		}
		t.Logf("after editing %s: %s", c.file, costLine(text))
	}
	code, _, _ = s.run(nil, "run", "--no-cache", "specs")
	if n := len(s.calls(t)); code != 0 || n != 11 {
		t.Errorf("--no-cache: exit %d, %d calls, want 11", code, n)
	}
	if code, _, _ := s.run(nil, "run", "specs"); code != cli.ExitOK || len(s.calls(t)) != 0 {
		t.Errorf("after --no-cache, the fresh verdicts are kept")
	}
}

// costLine is the "specs: ..." line of a text run.
func costLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "specs: ") {
			return l
		}
	}
	return ""
}

// backticked finds the `paths` a spec names.
var backticked = regexp.MustCompile("`([^`\\s]+)`")

// corpusCopy copies specs/ and every file its specs name (in backticks,
// or by their frontmatter's paths) to a temp folder.
func corpusCopy(t *testing.T) string {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "corpus")
	specs, _ := filepath.Glob(filepath.Join(repo, "specs", "*.spec.md"))
	if len(specs) == 0 {
		t.Fatal("no specs/*.spec.md in the repository")
	}
	want := map[string]bool{}
	for _, sp := range specs {
		data, _ := os.ReadFile(sp)
		want["specs/"+filepath.Base(sp)] = true
		for _, m := range backticked.FindAllStringSubmatch(string(data), -1) {
			want[m[1]] = true
		}
		if m := regexp.MustCompile(`(?m)^paths: (.*)$`).FindStringSubmatch(string(data)); m != nil {
			for _, g := range strings.Split(strings.Trim(m[1], "[]"), ",") {
				g = strings.Trim(strings.TrimSpace(g), `"`)
				matches, _ := doublestar.Glob(os.DirFS(repo), strings.TrimSuffix(g, "/")+"{,/**}")
				for _, f := range matches {
					want[f] = true
				}
			}
		}
	}
	for rel := range want {
		src := filepath.Join(repo, filepath.FromSlash(rel))
		st, err := os.Stat(src)
		if err != nil || st.IsDir() {
			continue // not a file (a flag, a name in backticks)
		}
		copyFile(t, src, filepath.Join(root, filepath.FromSlash(rel)))
	}
	return root
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, fs.FileMode(0o644)); err != nil {
		t.Fatal(err)
	}
}
