// Command gorootcheck compares the top-level tests, benchmarks, fuzz
// targets and examples that the Go extractor finds in every package of the
// standard library with what `go test -list '.*'` prints for it, and prints
// each mismatch and a summary line. It builds test binaries, so it takes
// minutes:
//
//	go run ./internal/lang/golang/cmd/gorootcheck [-batch 40] [pattern ...]
//
// The patterns default to "std". With -subtests it compares every subtest
// instead, running the tests (subtests.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	batch := flag.Int("batch", 40, "packages per go test -list invocation")
	subtests := flag.Bool("subtests", false, "compare the subtests go test -json -run . runs with the listing")
	short := flag.Bool("short", false, "with -subtests: run the tests with -short")
	events := flag.String("events", "", "with -subtests: read this saved go test -json stream instead of running go test")
	save := flag.String("save", "", "with -subtests: save the go test -json stream to this file")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"std"}
	}
	if *subtests {
		os.Exit(runSubtests(context.Background(), patterns, *short, *events, *save, os.Stdout, os.Stderr))
	}
	os.Exit(run(context.Background(), patterns, *batch, os.Stdout, os.Stderr))
}

// run does the comparison and returns the exit code: 0 when every package
// matches, 1 when some do not, 2 when the go command could not be run.
func run(ctx context.Context, patterns []string, batch int, stdout, stderr io.Writer) int {
	pkgs, err := listPackages(ctx, patterns)
	if err != nil {
		fmt.Fprintln(stderr, "gorootcheck:", err)
		return 2
	}
	var sum summary
	for i := 0; i < len(pkgs); i += batch {
		chunk := pkgs[i:min(i+batch, len(pkgs))]
		live, err := goTestList(ctx, chunk)
		if err != nil {
			fmt.Fprintln(stderr, "gorootcheck:", err)
		}
		for _, p := range chunk {
			sum.add(stdout, p, ours(p), live[p.ImportPath])
		}
	}
	fmt.Fprintln(stdout, sum)
	if sum.mismatchedPkgs > 0 {
		return 1
	}
	return 0
}
