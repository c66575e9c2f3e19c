package lang

import (
	"io"
	"strings"
	"time"

	"github.com/testdex/testdex"
)

// A Runner runs one framework's tests: it builds the command that runs
// exactly the given tests, and parses the command's output into events. It
// never starts processes (the core does, through internal/proc) and never
// discovers tests: it receives the records `testdex list` printed.
type Runner interface {
	// RunCommands returns the commands, run one after the other, that run
	// exactly tests, which all belong to project p and this framework. A
	// test's descendants run with it; none of tests is a descendant of
	// another. (Go needs one go test per set of packages sharing a -run
	// pattern; most frameworks need one command.)
	RunCommands(p *Project, tests []*testdex.Test, o RunOptions) ([]*Command, error)
	// NewParser returns a parser of that command's standard output.
	NewParser(p *Project, cmd *Command, emit func(RunEvent)) Parser
}

// RunOptions are the user's settings for one batch.
type RunOptions struct {
	// Extra are the arguments given after "--", for the native runner.
	Extra []string
	// TestTimeout is a per-test limit where the framework has one; 0 means
	// the framework's default.
	TestTimeout time.Duration
	// Dir is a scratch folder for result files, removed after the batch.
	Dir string
	// Env is the environment the commands will run with (KEY=VALUE), so a
	// runner can respect the user's settings (CARGO_TARGET_DIR).
	Env []string
}

// Getenv looks a variable up in o.Env.
func (o RunOptions) Getenv(key string) string {
	for i := len(o.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(o.Env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// RunEvent is an event in the framework's own terms: the core maps Scope
// and Name (as in the static records) to the test's ID. An empty Name is
// an event of the whole batch.
type RunEvent struct {
	Action  testdex.Action
	Scope   string
	Name    string
	Elapsed float64
	Output  string
	Message string
	File    string // project-relative, where the framework says
	Line    int
}

// Parser reads a command's standard output, in chunks of any size, as it
// is written; Close says the command ended with exitCode and flushes what
// is pending (and reads any result file the command wrote).
type Parser interface {
	io.Writer
	Close(exitCode int) error
}
