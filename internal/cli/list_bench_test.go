package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkListJSONGOROOT is `testdex list --json --no-cache` on
// $(go env GOROOT)/src in process, its output discarded: the whole
// listing path, encoding included, for profiling beside index's
// BenchmarkGOROOTBaseline (the floor):
//
//	go test ./internal/cli -run '^$' -bench ListJSON -benchtime 5x -cpuprofile /tmp/cpu.prof
func BenchmarkListJSONGOROOT(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		b.Skipf("no GOROOT sources at %s", src)
	}
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }, Dir: src}
	for b.Loop() {
		if code := Main(context.Background(), []string{"list", "--json", "--no-cache", "-q", "--root", src}, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
