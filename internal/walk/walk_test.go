package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testdex/testdex"
)

// makeTree creates the entries under root: a key ending in "/" is a
// folder, a value starting with "->" a symlink to the rest, anything else
// a file with that content.
func makeTree(t *testing.T, root string, entries map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := filepath.Join(root, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch v := entries[k]; {
		case strings.HasSuffix(k, "/"):
			err = os.MkdirAll(p, 0o755)
		case strings.HasPrefix(v, "->"):
			err = os.Symlink(v[2:], p)
		default:
			err = os.WriteFile(p, []byte(v), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// collect walks root and returns the sorted visited paths and the problems.
func collect(t *testing.T, root string, opts Options) ([]string, []testdex.Problem) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	probs, err := Walk(context.Background(), root, opts, func(rel string, d fs.DirEntry) error {
		mu.Lock()
		got = append(got, rel)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
	slices.Sort(got)
	return got, probs
}

// sample is a tree exercising every kind of skip.
var sample = map[string]string{
	"a.go":                "",
	".hidden.go":          "",
	".hid/x.go":           "",
	"node_modules/x.js":   "",
	"vendor/y.go":         "",
	"build/z.go":          "",
	".gitignore":          "*.log\nign/\n!ign/keep.go\n/top.txt\n[bad\n",
	"top.txt":             "",
	"sub/top.txt":         "",
	"sub/.gitignore":      "!keep.log\n",
	"sub/x.log":           "",
	"sub/keep.log":        "",
	"ign/keep.go":         "",
	".git/info/exclude":   "*.tmp\n",
	"a.tmp":               "",
	"nested/.git/HEAD":    "",
	"nested/x.log":        "",
	"nested/.gitignore":   "*.go\n",
	"nested/n.go":         "",
	"nested/deeper/m.txt": "",
}

func TestWalkDefaults(t *testing.T) {
	root := t.TempDir()
	makeTree(t, root, sample)
	got, probs := collect(t, root, Options{})
	want := []string{"a.go", "build/z.go", "nested/deeper/m.txt", "nested/x.log", "sub/keep.log", "sub/top.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("visited %q\nwant    %q", got, want)
	}
	if len(probs) != 1 || probs[0].Path != ".gitignore" || probs[0].Line != 5 {
		t.Errorf("problems %v, want the bad line 5 of .gitignore", probs)
	}
}

func TestWalkOptions(t *testing.T) {
	root := t.TempDir()
	makeTree(t, root, sample)
	tests := []struct {
		name string
		opts Options
		has  []string
		not  []string
	}{
		{"hidden", Options{Hidden: true}, []string{".hidden.go", ".hid/x.go", ".gitignore", "sub/.gitignore"}, []string{".git/HEAD", "sub/x.log"}},
		{"no ignore", Options{NoIgnore: true}, []string{"sub/x.log", "ign/keep.go", "a.tmp", "top.txt", "nested/n.go"}, []string{".hidden.go", "vendor/y.go"}},
		{"empty skip list", Options{SkipDirs: []string{}, Hidden: true}, []string{"node_modules/x.js", "vendor/y.go", ".git/info/exclude"}, nil},
		{"own skip list", Options{SkipDirs: []string{"sub", "build"}}, []string{"vendor/y.go", "node_modules/x.js"}, []string{"sub/keep.log", "build/z.go"}},
		{"one worker", Options{Workers: 1}, []string{"a.go", "sub/keep.log"}, []string{"sub/x.log"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := collect(t, root, tt.opts)
			for _, p := range tt.has {
				if !slices.Contains(got, p) {
					t.Errorf("%s not visited; got %q", p, got)
				}
			}
			for _, p := range tt.not {
				if slices.Contains(got, p) {
					t.Errorf("%s visited; got %q", p, got)
				}
			}
		})
	}
}

func TestWalkSymlinks(t *testing.T) {
	root := t.TempDir()
	makeTree(t, root, map[string]string{
		"real/f.go":       "",
		"real/up":         "->..",
		"linkdir":         "->real",
		"linkfile.go":     "->real/f.go",
		"broken":          "->nowhere",
		"self":            "->self",
		"ignored/f.go":    "",
		".gitignore":      "ignored\n",
		"real/ignoredlnk": "->../ignored",
	})
	got, probs := collect(t, root, Options{})
	want := []string{"linkdir/f.go", "linkdir/ignoredlnk/f.go", "linkfile.go", "real/f.go", "real/ignoredlnk/f.go"}
	if !slices.Equal(got, want) {
		t.Errorf("visited %q\nwant    %q", got, want)
	}
	var saw []string
	for _, p := range probs {
		if p.Severity != testdex.SevWarning {
			t.Errorf("%v: want a warning", p)
		}
		saw = append(saw, p.Path+" "+p.Message[:strings.IndexByte(p.Message, ':')])
	}
	wantProbs := []string{"broken broken symlink", "linkdir/up symlink loop", "real/up symlink loop", "self symlink loop"}
	if !slices.Equal(saw, wantProbs) {
		t.Errorf("problems %q\nwant     %q\n%v", saw, wantProbs, probs)
	}
}

// TestWalkSymlinkLeavingTheRoot: a symlink to "/" and one to a folder
// beside the root are warnings and not followed, the test file beside them
// is listed, a link inside the root still works, and a symlinked root is
// judged by its real path. A regression walks the whole machine, so the walk
// runs under a deadline and fails rather than hangs.
func TestWalkSymlinkLeavingTheRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	makeTree(t, base, map[string]string{
		"outside/o_test.go":    "",
		"repo/a_test.go":       "",
		"repo/slash":           "->/",
		"repo/beside":          "->../outside",
		"repo/sub/inner":       "->../pkg",
		"repo/pkg/p_test.go":   "",
		"repo/pkg/via/outside": "->../../beside",
		"repo/passwd_test.go":  "->../outside/o_test.go",
		"link":                 "->repo",
	})
	want := []string{"a_test.go", "pkg/p_test.go", "sub/inner/p_test.go"}
	wantProbs := []string{
		"beside: symlink to " + filepath.Join(realBase(t, base), "outside") + " leaves the root; not followed",
		"passwd_test.go: symlink to " + filepath.Join(realBase(t, base), "outside", "o_test.go") + " leaves the root; not read",
		"pkg/via/outside: symlink to " + filepath.Join(realBase(t, base), "outside") + " leaves the root; not followed",
		"slash: symlink to / leaves the root; not followed",
		"sub/inner/via/outside: symlink to " + filepath.Join(realBase(t, base), "outside") + " leaves the root; not followed",
	}
	for _, r := range []string{root, filepath.Join(base, "link")} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		var mu sync.Mutex
		var got, escaped []string
		o := Options{Escaped: func(rel string, dir bool) {
			mu.Lock()
			defer mu.Unlock()
			escaped = append(escaped, fmt.Sprintf("%s %v", rel, dir))
		}}
		probs, err := Walk(ctx, r, o, func(rel string, d fs.DirEntry) error {
			mu.Lock()
			got = append(got, rel)
			mu.Unlock()
			return nil
		})
		cancel()
		if err != nil {
			t.Fatalf("walk %s: %v (a symlink leaving the root was followed?)", r, err)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("walk %s: visited %q\nwant %q", r, got, want)
		}
		var saw []string
		for _, p := range probs {
			if p.Severity != testdex.SevWarning {
				t.Errorf("%v: want a warning", p)
			}
			saw = append(saw, p.Path+": "+p.Message)
		}
		if !slices.Equal(saw, wantProbs) {
			t.Errorf("walk %s: problems\n%q\nwant\n%q", r, saw, wantProbs)
		}
		slices.Sort(escaped)
		if want := []string{"beside true", "passwd_test.go false", "pkg/via/outside true", "slash true", "sub/inner/via/outside true"}; !slices.Equal(escaped, want) {
			t.Errorf("walk %s: Escaped got %q, want %q", r, escaped, want)
		}
	}
	skipped, reason, err := Explain(root, "slash/etc", Options{})
	if err != nil || !skipped || reason != "inside slash: symlink to / leaves the root; not followed" {
		t.Errorf("Explain(slash/etc) = %v, %q, %v", skipped, reason, err)
	}
	if skipped, _, err := Explain(root, "sub/inner/p_test.go", Options{}); err != nil || skipped {
		t.Errorf("Explain(sub/inner/p_test.go) = %v, %v; want kept", skipped, err)
	}
}

// realBase returns dir with its symlinks resolved (a temp folder may sit
// behind one, as /tmp does on macOS).
func realBase(t *testing.T, dir string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestWalkUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: chmod 000 does not stop root from reading a folder")
	}
	root := t.TempDir()
	makeTree(t, root, map[string]string{"ok.go": "", "locked/x.go": ""})
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	got, probs := collect(t, root, Options{})
	if !slices.Equal(got, []string{"ok.go"}) || len(probs) != 1 || probs[0].Path != "locked" || probs[0].Severity != testdex.SevError {
		t.Errorf("got %q, problems %v", got, probs)
	}
}

func TestWalkDeepAndOddNames(t *testing.T) {
	root := t.TempDir()
	deep := root
	for range 500 {
		deep = filepath.Join(deep, "d")
	}
	makeTree(t, root, map[string]string{"bad\xff\xfename.go": "", "sp ace/x\ty.go": ""})
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(deep, "leaf.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, probs := collect(t, root, Options{})
	if len(got) != 3 || len(probs) != 0 || !strings.HasSuffix(got[1], "/d/leaf.go") || got[0] != "bad\xff\xfename.go" {
		t.Errorf("got %d paths %q..., problems %v", len(got), got[:min(len(got), 2)], probs)
	}
}

func TestWalkDeterministic(t *testing.T) {
	root := t.TempDir()
	makeTree(t, root, sample)
	makeTree(t, root, map[string]string{"l1": "->nowhere", "l2": "->.", "z/l3": "->../z", "y/.gitignore": "[x\n\\"})
	first, firstProbs := collect(t, root, Options{Hidden: true})
	for range 10 {
		got, probs := collect(t, root, Options{Hidden: true})
		if !slices.Equal(got, first) || !slices.Equal(probs, firstProbs) {
			t.Fatalf("walk differs between runs:\n%q %v\n%q %v", got, probs, first, firstProbs)
		}
	}
}

func TestWalkErrors(t *testing.T) {
	root := t.TempDir()
	makeTree(t, root, sample)
	if _, err := Walk(context.Background(), filepath.Join(root, "missing"), Options{}, nil); err == nil {
		t.Errorf("walking a missing root: no error")
	}
	if _, err := Walk(context.Background(), filepath.Join(root, "a.go"), Options{}, nil); err == nil {
		t.Errorf("walking a file: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walk(ctx, root, Options{}, func(string, fs.DirEntry) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: err %v", err)
	}
	boom := errors.New("boom")
	if _, err := Walk(context.Background(), root, Options{}, func(string, fs.DirEntry) error { return boom }); err != boom {
		t.Errorf("failing visit: err %v, want boom", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	_, err := Walk(ctx, root, Options{}, func(string, fs.DirEntry) error { cancel(); return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("walk cancelled midway: err %v", err)
	}
}

func TestExplain(t *testing.T) {
	root := t.TempDir()
	makeTree(t, root, sample)
	tests := []struct {
		rel     string
		skipped bool
		reason  string
	}{
		{"a.go", false, ""},
		{"sub/x.log", true, ".gitignore:1: *.log"},
		{"sub/keep.log", false, "re-included by sub/.gitignore:1: !keep.log"},
		{"ign/keep.go", true, "inside ign: .gitignore:2: ign/"},
		{"node_modules/x.js", true, "inside node_modules: default skip list: node_modules"},
		{".hidden.go", true, "hidden: .hidden.go"},
		{"a.tmp", true, ".git/info/exclude:1: *.tmp"},
		{"nested/n.go", true, "nested/.gitignore:1: *.go"},
		{"nested/x.log", false, ""},
	}
	for _, tt := range tests {
		skipped, reason, err := Explain(root, tt.rel, Options{})
		if err != nil || skipped != tt.skipped || reason != tt.reason {
			t.Errorf("Explain(%s) = %v, %q, %v; want %v, %q", tt.rel, skipped, reason, err, tt.skipped, tt.reason)
		}
	}
	if _, _, err := Explain(root, "missing/x", Options{}); err == nil {
		t.Errorf("Explain of a missing path: no error")
	}
}

// TestWithin walks only named folders, yet applies the ignore files above
// them, and enters a named folder even when it is ignored.
func TestWithin(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		".gitignore":          "*.log\nskipped/\n",
		"top.txt":             "",
		"a/b/keep.txt":        "",
		"a/b/drop.log":        "",
		"a/other.txt":         "",
		"c/x.txt":             "",
		"skipped/named.txt":   "",
		"skipped/inner/y.log": "",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	var mu sync.Mutex
	var got []string
	_, err := Walk(context.Background(), root, Options{Within: []string{"a/b", "skipped"}}, func(rel string, d fs.DirEntry) error {
		mu.Lock()
		got = append(got, rel)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := []string{"a/b/keep.txt", "skipped/named.txt"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("visited %q, want %q", got, want)
	}
}

func TestDirs(t *testing.T) {
	root := t.TempDir()
	makeTree(t, root, map[string]string{
		".gitignore":          "ignored/\n",
		"a/b/x.txt":           "",
		"a/empty/.keep":       "",
		"ignored/y.txt":       "",
		"node_modules/m/i.js": "",
		".hidden/z.txt":       "",
		"c/d/e/deep.txt":      "",
	})
	var mu sync.Mutex
	var dirs []string
	opts := Options{Dirs: func(rel string) { mu.Lock(); dirs = append(dirs, rel); mu.Unlock() }}
	if _, err := Walk(context.Background(), root, opts, func(string, fs.DirEntry) error { return nil }); err != nil {
		t.Fatal(err)
	}
	sort.Strings(dirs)
	want := []string{"", "a", "a/b", "a/empty", "c", "c/d", "c/d/e"}
	if !reflect.DeepEqual(dirs, want) {
		t.Errorf("entered %q, want %q", dirs, want)
	}
}
