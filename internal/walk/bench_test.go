package walk

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// goroot returns $(go env GOROOT)/src, skipping b when it is absent.
func goroot(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, serr := os.Stat(dir); err != nil || serr != nil {
		b.Skip("GOROOT/src not found; the benchmark walks it")
	}
	return dir
}

// BenchmarkWalkGOROOT walks GOROOT/src with the defaults (warm cache).
func BenchmarkWalkGOROOT(b *testing.B) {
	dir := goroot(b)
	var files atomic.Int64
	for b.Loop() {
		files.Store(0)
		_, err := Walk(context.Background(), dir, Options{}, func(string, fs.DirEntry) error {
			files.Add(1)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(files.Load()), "files/op")
}

// BenchmarkWalkDirGOROOT is the baseline: filepath.WalkDir over the same
// tree, skipping hidden entries and DefaultSkipDirs but reading no ignore
// files.
func BenchmarkWalkDirGOROOT(b *testing.B) {
	dir := goroot(b)
	skip := Options{}.skipSet()
	var files int
	for b.Loop() {
		files = 0
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == dir {
				return err
			}
			name := d.Name()
			if d.IsDir() && (skip[name] || name[0] == '.') {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && name[0] != '.' {
				files++
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(files), "files/op")
}
