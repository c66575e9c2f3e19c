package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/testdex/testdex/internal/walk"
)

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// collect passes the watcher's events through Handle until want holds
// for the file events so far (a generous 20 s bound), and returns them.
func collect(t *testing.T, w *Watcher, want func(map[string]bool) bool) map[string]bool {
	t.Helper()
	got := map[string]bool{} // path -> Existed of its first event
	deadline := time.After(20 * time.Second)
	for !want(got) {
		select {
		case ev := <-w.Events():
			for _, fe := range w.Handle(context.Background(), ev) {
				if _, ok := got[fe.Path]; !ok {
					got[fe.Path] = fe.Existed
				}
			}
		case err := <-w.Errors():
			t.Fatal(err)
		case <-deadline:
			t.Fatalf("timed out; file events so far: %v", got)
		}
	}
	return got
}

func TestWatcher(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".gitignore", "build/\n*.log\n")
	write(t, root, "src/a.go", "package src\n")
	write(t, root, "node_modules/dep/index.js", "\n")
	write(t, root, "build/out.txt", "\n")
	write(t, root, ".git/HEAD", "ref: refs/heads/main\n")
	w, err := NewWatcher(context.Background(), root, walk.Options{}, func(msg string) { t.Log(msg) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var dirs []string
	for d := range w.dirs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	if want := []string{"", "src"}; !slices.Equal(dirs, want) {
		t.Fatalf("watched %q, want %q: skipped folders cost a watch", dirs, want)
	}

	// What happens where nothing is watched, or what the rules skip, or
	// an editor's scratch file, is no event; the save that follows is.
	write(t, root, "node_modules/dep/index.js", "changed\n")
	write(t, root, "build/out.txt", "changed\n")
	write(t, root, "src/debug.log", "x\n")
	write(t, root, "src/.a.go.swp", "x\n")
	write(t, root, "src/a.go~", "x\n")
	write(t, root, "src/a.go", "package src // saved\n")
	got := collect(t, w, func(m map[string]bool) bool { _, ok := m["src/a.go"]; return ok })
	if len(got) != 1 || !got["src/a.go"] {
		t.Errorf("events %v, want src/a.go alone, known", got)
	}

	// A save by rename over the file is the known file again.
	write(t, root, "src/a.go.tmp", "package src // renamed over\n")
	if err := os.Rename(filepath.Join(root, "src/a.go.tmp"), filepath.Join(root, "src/a.go")); err != nil {
		t.Fatal(err)
	}
	got = collect(t, w, func(m map[string]bool) bool { _, ok := m["src/a.go"]; return ok })
	if !got["src/a.go"] {
		t.Errorf("a save by rename: events %v", got)
	}

	// A new folder is walked and watched; its files are new.
	write(t, root, "pkg/sub/b.go", "package sub\n")
	got = collect(t, w, func(m map[string]bool) bool { _, ok := m["pkg/sub/b.go"]; return ok })
	if got["pkg/sub/b.go"] {
		t.Errorf("a file of a new folder counts as known: %v", got)
	}
	if !w.watched("pkg/sub") {
		t.Fatal("the new folder pkg/sub is not watched")
	}
	write(t, root, "pkg/sub/c.go", "package sub\n")
	collect(t, w, func(m map[string]bool) bool { _, ok := m["pkg/sub/c.go"]; return ok })

	// A removed folder drops its watches and reports its files gone.
	if err := os.RemoveAll(filepath.Join(root, "pkg")); err != nil {
		t.Fatal(err)
	}
	collect(t, w, func(m map[string]bool) bool { return m["pkg/sub/b.go"] && m["pkg/sub/c.go"] && !w.watched("pkg") })
	if w.watched("pkg/sub") || w.known("pkg/sub/b.go") {
		t.Errorf("pkg is still watched or known after its removal")
	}
}

// TestWatcherIgnoreFileChanged unignores a folder: it is walked and
// watched, and its files are passed on as new.
func TestWatcherIgnoreFileChanged(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".gitignore", "gen/\n")
	write(t, root, "gen/x.go", "package gen\n")
	write(t, root, "a.go", "package a\n")
	w, err := NewWatcher(context.Background(), root, walk.Options{}, func(msg string) { t.Log(msg) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.watched("gen") {
		t.Fatal("an ignored folder is watched")
	}
	write(t, root, ".gitignore", "# nothing ignored\n")
	got := collect(t, w, func(m map[string]bool) bool { _, ok := m["gen/x.go"]; return ok })
	if got["gen/x.go"] || !w.watched("gen") {
		t.Errorf("events %v; gen watched: %v", got, w.watched("gen"))
	}
	if _, ok := got["a.go"]; ok {
		t.Errorf("a known file came back as changed: %v", got)
	}
}

// TestVimSave replays Vim's save with backups on: the permission probe
// 4913, the file renamed to its backup, written anew, the backup removed.
// Through the watcher and the debouncer it is one modification.
func TestVimSave(t *testing.T) {
	root := t.TempDir()
	write(t, root, "src/a.go", "package src\n")
	w, err := NewWatcher(context.Background(), root, walk.Options{}, func(msg string) { t.Log(msg) })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p := func(rel string) string { return filepath.Join(root, "src", rel) }
	write(t, root, "src/4913", "")
	os.Remove(p("4913"))
	if err := os.Rename(p("a.go"), p("a.go~")); err != nil {
		t.Fatal(err)
	}
	write(t, root, "src/a.go", "package src // saved by vim\n")
	os.Remove(p("a.go~"))

	d := NewDebouncer(200 * time.Millisecond)
	for {
		select {
		case ev := <-w.Events():
			for _, fe := range w.Handle(context.Background(), ev) {
				d.Add(fe)
			}
			continue
		case <-d.C():
		case <-time.After(20 * time.Second):
			t.Fatal("no change within 20 s")
		}
		break
	}
	set, _ := d.Take(w.exists)
	if len(set) != 1 || set[0].Path != "src/a.go" || set[0].Status != "modified" {
		t.Errorf("vim's save came out as %v, want src/a.go modified", set)
	}
}
