package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cli"
	"github.com/testdex/testdex/internal/testenv"
)

// The helpers every `testdex run` end-to-end test shares.

// cliFunc runs testdex with extra environment and returns its exit code,
// stdout and stderr.
type cliFunc = func(env []string, args ...string) (int, string, string)

// runnerIn returns a cliFunc running testdex in dir with a cache folder of
// its own and the process's environment plus base and the call's extras.
func runnerIn(t *testing.T, dir string, base ...string) cliFunc {
	t.Helper()
	cache := t.TempDir()
	return func(extra []string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		getenv := func(k string) string {
			if k == "TESTDEX_CACHE_DIR" {
				return cache
			}
			return os.Getenv(k)
		}
		env := append(append(os.Environ(), base...), extra...)
		code := cli.Main(context.Background(), args, cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: getenv, Environ: env, Dir: dir})
		return code, stdout.String(), stderr.String()
	}
}

// fixtureRunner copies testdata/run/NAME to a temp folder and returns a
// cliFunc running there; it skips the test when tool is not installed.
func fixtureRunner(t *testing.T, name, tool string, base ...string) cliFunc {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		testenv.Missing(t, "%s is not installed (scripts/setup installs the toolchains' packages)", tool)
	}
	dir := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("../../testdata/run", name))); err != nil {
		t.Fatal(err)
	}
	return runnerIn(t, dir, base...)
}

// failureLines returns `failures --json` as sorted "ID FILE:LINE MESSAGE"
// lines, each message cut at its first line.
func failureLines(t *testing.T, jsonl string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		if l == "" {
			continue
		}
		var f struct {
			ID, File, Message string
			Line              int
		}
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("bad failure %q: %v", l, err)
		}
		msg, _, _ := strings.Cut(f.Message, "\n")
		out = append(out, f.ID+" "+f.File+":"+strconv.Itoa(f.Line)+" "+msg)
	}
	sort.Strings(out)
	return out
}

// checkFinals compares per-ID results with want, exactly.
func checkFinals(t *testing.T, got, want map[string]testdex.Action) {
	t.Helper()
	for id, a := range want {
		if got[id] != a {
			t.Errorf("%s: %q, want %q", id, got[id], a)
		}
	}
	if len(got) != len(want) {
		t.Errorf("results for %d tests, want %d: %v", len(got), len(want), got)
	}
}
