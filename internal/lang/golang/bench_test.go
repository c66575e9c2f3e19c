package golang

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// BenchmarkExtractGOROOT extracts every _test.go file under $GOROOT/src,
// read beforehand; MB/s is source bytes per second on one goroutine.
func BenchmarkExtractGOROOT(b *testing.B) {
	var files []*lang.File
	var size int64
	root := filepath.Join(runtime.GOROOT(), "src")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			rel, _ := filepath.Rel(root, p)
			files = append(files, &lang.File{Rel: filepath.ToSlash(rel), Abs: p, Data: data})
			size += int64(len(data))
		}
		return nil
	})
	if len(files) == 0 {
		b.Skip("no GOROOT sources")
	}
	b.SetBytes(size)
	b.ResetTimer()
	var tests int
	for b.Loop() {
		tests = 0
		for _, f := range files {
			tests += len(Default.Extract(f).Tests)
		}
	}
	b.ReportMetric(float64(tests), "records")
	b.ReportMetric(float64(len(files)), "files")
}
