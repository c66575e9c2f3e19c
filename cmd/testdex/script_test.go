package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/testdex/testdex/internal/cli"
)

// TestMain lets the scripts run testdex as a real subprocess: the test
// binary re-executes itself as "testdex".
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"testdex": func() {
			dir, _ := os.Getwd()
			os.Exit(cli.Main(context.Background(), os.Args[1:], cli.Env{
				Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Environ: os.Environ(), Dir: dir,
			}))
		},
	})
}

// TestScripts runs testdata/script/*.txtar: the CLI's specification, exit
// codes included. Each script gets its own cache folder.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("TESTDEX_CACHE_DIR", filepath.Join(env.WorkDir, ".cache"))
			// The runtime method runs the real toolchains: give them their
			// caches (testscript sets HOME to a folder that does not exist).
			for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
				if v := goEnv(k); v != "" {
					env.Setenv(k, v)
				}
			}
			env.Setenv("GOFLAGS", "-mod=mod")
			env.Setenv("GOTOOLCHAIN", "local")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": exits,
		},
		Condition: func(cond string) (bool, error) {
			if prog, ok := strings.CutPrefix(cond, "have:"); ok {
				_, err := exec.LookPath(prog)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// goEnv reads a go env value, "" when go is missing.
func goEnv(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// exits N PROG ARGS... runs PROG and asserts its exit code is exactly N;
// its stdout and stderr are then available to cmp and stdout/stderr.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := "exit status 0"
	if err != nil {
		got = err.Error()
	}
	if got != fmt.Sprintf("exit status %d", want) {
		ts.Logf("stdout:\n%s\nstderr:\n%s", ts.ReadFile("stdout"), ts.ReadFile("stderr"))
		ts.Fatalf("%s: %s, want exit status %d", args[1], got, want)
	}
}
