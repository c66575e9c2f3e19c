package index

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/walk"
)

// TestBuildFromKnownFiles: given the files the walk keeps (Options.Files,
// what testdex watch's watcher holds), Build lists what it lists when it
// walks; given one file fewer, that file's tests are gone.
func TestBuildFromKnownFiles(t *testing.T) {
	root := "../examples/polyglot"
	ctx := context.Background()
	walked, err := Build(ctx, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(walked.Root, "")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var files []string
	if _, err := walk.Walk(ctx, walked.Root, walkOptions(cfg, 2), func(rel string, _ fs.DirEntry) error {
		mu.Lock()
		files = append(files, rel)
		mu.Unlock()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	known, err := Build(ctx, Options{Root: root, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(known.Tests, walked.Tests) || len(known.Tests) == 0 {
		t.Fatalf("from known files: %d records, walking: %d; they differ", len(known.Tests), len(walked.Tests))
	}
	a, b := known.ProjectFiles(), walked.ProjectFiles()
	if len(a) != len(b) {
		t.Fatalf("%d projects from known files, %d walking", len(a), len(b))
	}
	for i := range a {
		if a[i].Dir != b[i].Dir || !reflect.DeepEqual(a[i].Files, b[i].Files) {
			t.Errorf("project %s from known files holds %v, walking %s holds %v", a[i].Dir, a[i].Files, b[i].Dir, b[i].Files)
		}
	}
	drop := walked.Tests[0].File
	var fewer []string
	for _, f := range files {
		if f != drop {
			fewer = append(fewer, f)
		}
	}
	less, err := Build(ctx, Options{Root: root, Files: fewer})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range less.Tests {
		if r.File == drop {
			t.Fatalf("%s is not among the known files, yet %s is listed", drop, r.ID)
		}
	}
}

// BenchmarkRelistWatched compares the two ways testdex watch could list a
// root of 20,000 files again after a save, the cache warm: walking it, or
// taking the files its watcher holds (Options.Files).
//
//	go test ./index -run '^$' -bench RelistWatched
func BenchmarkRelistWatched(b *testing.B) {
	root := b.TempDir()
	var files []string
	for d := 0; d < 400; d++ {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 50; f++ {
			name, text := fmt.Sprintf("f%02d.txt", f), "data\n"
			if f == 0 {
				name, text = "a_test.go", "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n"
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				b.Fatal(err)
			}
			files = append(files, fmt.Sprintf("pkg%03d/%s", d, name))
		}
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	files = append(files, "go.mod")
	cacheDir := b.TempDir()
	ctx := context.Background()
	if _, err := Build(ctx, Options{Root: root, CacheDir: cacheDir}); err != nil {
		b.Fatal(err)
	}
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			if _, err := Build(ctx, Options{Root: root, CacheDir: cacheDir}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("known-files", func(b *testing.B) {
		for b.Loop() {
			if _, err := Build(ctx, Options{Root: root, CacheDir: cacheDir, Files: files}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
