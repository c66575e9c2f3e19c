package parsertest

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// ExitCode runs cmd and returns its exit code; a command that cannot be
// started or waited for stops the test.
func ExitCode(t testing.TB, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	return 0
}

// Ran is what one command of Live did.
type Ran struct {
	Args   []string
	Code   int
	Stderr string
}

// Live runs cmds, a runner's commands, one after the other as the core
// does: each in its folder, with env (nil: the test's own environment)
// and the command's own Env, its standard output into a fresh parser of r
// closed with its exit code. It returns the parsers' events and what each
// command did, for the test to judge; only a command that cannot start
// stops the test.
func Live(t testing.TB, r lang.Runner, p *lang.Project, cmds []*lang.Command, env []string) ([]lang.RunEvent, []Ran) {
	t.Helper()
	if env == nil {
		env = os.Environ()
	}
	var evs []lang.RunEvent
	var ran []Ran
	for _, c := range cmds {
		ps := r.NewParser(p, c, func(e lang.RunEvent) { evs = append(evs, e) })
		cmd := exec.Command(c.Args[0], c.Args[1:]...)
		var stderr strings.Builder
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = c.Dir, append(append([]string{}, env...), c.Env...), ps, &stderr
		code := ExitCode(t, cmd)
		ps.Close(code)
		ran = append(ran, Ran{Args: c.Args, Code: code, Stderr: stderr.String()})
	}
	return evs, ran
}

// Results are evs without covered and output events, with Elapsed and
// Output cleared: what a run with coverage and the same run without it
// must share.
func Results(evs []lang.RunEvent) []lang.RunEvent {
	var out []lang.RunEvent
	for _, e := range evs {
		if e.Action == lang.ActionCovered || e.Action == testdex.ActionOutput {
			continue
		}
		e.Elapsed, e.Output = 0, ""
		out = append(out, e)
	}
	return out
}
