// Command testdex finds, understands and runs every test in a repository.
// See the README for the commands and their exit codes.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/testdex/testdex/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	code := cli.Main(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ(), Dir: dir})
	stop()
	os.Exit(code)
}
