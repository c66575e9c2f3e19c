package golang

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// BenchmarkGraphGOROOT builds the graph of GOROOT/src's std module (the
// standard library's test files), the size the target is set on:
//
//	go test ./internal/lang/golang -run '^$' -bench GraphGOROOT
func BenchmarkGraphGOROOT(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		b.Skip("no GOROOT/src/go.mod")
	}
	var files []string
	_ = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel == "cmd" {
			return filepath.SkipDir
		}
		if !d.IsDir() && isTestFile(rel) {
			files = append(files, rel)
		}
		return nil
	})
	in := &lang.GraphInput{Project: &lang.Project{Dir: src, Name: "std"}, Root: src, Files: files, ReadFile: os.ReadFile}
	b.ResetTimer()
	for b.Loop() {
		g, err := Grapher.Graph(in)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(g.Edges)), "edges")
	}
}
