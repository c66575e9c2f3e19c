package index

import (
	"context"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sync/errgroup"
)

// The GOROOT benchmarks measure discovery on a real tree nobody here wrote,
// $(go env GOROOT)/src, against the raw cost of reading it:
//
//	go test ./index -run '^$' -bench GOROOT -benchtime 5x
//
// BenchmarkGOROOTBaseline is the floor: walk with filepath.WalkDir and parse
// every _test.go file once with go/parser on all cores, doing nothing with
// the result. Cold is a full listing without a cache; Warm lists again
// with a cache that already holds every file.

func gorootSrc(b *testing.B) string {
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		b.Skipf("no GOROOT sources at %s", src)
	}
	return src
}

func BenchmarkGOROOTBaseline(b *testing.B) {
	src := gorootSrc(b)
	for b.Loop() {
		var files []string
		filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, "_test.go") {
				files = append(files, p)
			}
			return nil
		})
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0))
		for _, f := range files {
			g.Go(func() error {
				data, err := os.ReadFile(f)
				if err == nil {
					parser.ParseFile(token.NewFileSet(), f, data, parser.SkipObjectResolution|parser.ParseComments)
				}
				return nil
			})
		}
		g.Wait()
		b.ReportMetric(float64(len(files)), "files/op")
	}
}

func BenchmarkGOROOTCold(b *testing.B) {
	src := gorootSrc(b)
	for b.Loop() {
		ix, err := Build(context.Background(), Options{Root: src})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(ix.Tests)), "tests/op")
	}
}

func BenchmarkGOROOTWarm(b *testing.B) {
	src := gorootSrc(b)
	opts := Options{Root: src, CacheDir: b.TempDir()}
	if _, err := Build(context.Background(), opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ix, err := Build(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		if ix.Stats.Parsed != 0 {
			b.Fatalf("warm build parsed %d files", ix.Stats.Parsed)
		}
	}
}
