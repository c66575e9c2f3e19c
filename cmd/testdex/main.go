// Command testdex finds, understands and runs every test in a repository.
// See the README for the commands and docs/contract.md for their exit codes.
package main

import (
	"context"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/proc"
)

// heapFloor is the heap size, in bytes, of the first collection.
const heapFloor = 128 << 20

// collectFrom turns the collector off until the Go heap (all the memory
// the runtime manages) reaches floor bytes; after that first collection it
// collects at percent, as GOGC=percent, with no limit.
func collectFrom(floor int64, percent int) {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(floor)
	// The sentinel is unreachable from the start: the first collection
	// finds it and its cleanup restores the collector.
	sentinel := &struct {
		p   *int
		pad [16]byte
	}{}
	runtime.AddCleanup(sentinel, func(percent int) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(math.MaxInt64)
	}, percent)
}

// shortLived is what a command that ends soon after its work asks for
// (cli.Env.ShortLived): no collection at all until the heap first reaches
// heapFloor. A warm listing (of GOROOT/src: 40,002 records from the cache,
// about 60 MB allocated) ends before then, its collector's work (a tenth
// of its CPU) saved. GOGC or GOMEMLIMIT, when set, keep the collector as
// it is.
func shortLived() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		collectFrom(heapFloor, 400)
	}
}

func main() {
	// A test that daemonizes (setsid) is then reparented to testdex, which
	// kills it when its batch ends. Off Linux, or on a kernel without it,
	// leaks are still found in each batch's process group.
	_ = proc.BecomeSubreaper()
	// A run's heap is mostly live data (the listing, the impact graph's
	// declarations and edges): collecting at 4× the live heap rather
	// than 2× saves a quarter of the CPU of a function-level `affected`
	// on GOROOT (1.1 s to 0.8 s) for about 10 % more memory. GOGC, when
	// set, still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	code := cli.Main(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ(), Dir: dir,
		ShortLived: shortLived})
	stop()
	os.Exit(code)
}
