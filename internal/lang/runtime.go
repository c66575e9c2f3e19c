package lang

import (
	"time"

	"github.com/testdex/testdex"
)

// A Lister asks a framework itself for its tests: the runtime method of
// discovery (seed 001), exact but executing project code (imports,
// conftest.py, build scripts). Unlike the rest of this package its command
// runs project code, so the core runs it only on request
// (`testdex list --exact`, `testdex check`). A Lister builds the command
// and parses the output; it never starts processes itself.
type Lister interface {
	// ListCommand returns the command that makes the framework print its
	// tests for project p. files are project-relative test files the static
	// pass found (a Lister may ignore them and list the whole project).
	// A missing toolchain is the core's to report (it names Args[0]).
	ListCommand(p *Project, files []string) (*Command, error)
	// ParseList reads the command's output. It returns what the framework
	// reported, in its own terms, comparable with the static records:
	// Listed.Scope and Listed.Name equal a static record's Scope and Name
	// for the same test.
	ParseList(p *Project, stdout, stderr []byte, exitCode int) ([]Listed, error)
}

// Command is a child process to run: argv, folder and extra environment
// (KEY=VALUE, added to the inherited environment).
type Command struct {
	Args []string
	Dir  string
	Env  []string
	// Lane lets the core run the command at the same time as the adjacent
	// commands that have a lane too, up to the run's -j: the commands of
	// one lane run one after the other, in order (a Go coverage run's
	// processes of one package, whose tests go test runs one at a time),
	// different lanes at once. Each has its own Parser; their events are
	// reported in command order. "" runs the command alone.
	Lane string
	// Note, when set, says how the run departs from the project's own
	// test command (which runs the framework twice, where testdex runs
	// it once); the core prints it in the batch's output first.
	Note string
	// Timeout, when set, bounds this command alone (a per-test limit the
	// runner cannot enforce itself: a busy loop never yields to a timer
	// in the process). Past it the core stops the command's process group
	// (SIGTERM, a grace period, SIGKILL), ends each test the command
	// started and did not end as a failure "timed out after N ms", and
	// goes on with the next command; it is not the run's timeout.
	Timeout time.Duration
	// Exclusive, when set, is a lock file the core holds from before the
	// command starts until its results are read (flock, between testdex
	// processes): a runner whose results land in one shared folder of
	// the project (Surefire's reports, which the parser reads by their
	// time) would otherwise read another run's as its own.
	Exclusive string
}

// Listed is one test as the framework reported it.
type Listed struct {
	// File is the project-relative file of the test when the framework
	// says it, "" otherwise.
	File  string
	Scope string
	Name  string
	Kind  testdex.Kind
}

// Reporter is an optional Lister method. Reports says whether the
// framework's own listing can include a record: go test -list reports only
// top-level names, vitest list leaves out skipped and todo tests, node's
// runner never reports subtests started inside a test body. Records it
// cannot report are neither confirmed nor counted as missing.
type Reporter interface {
	Reports(t *testdex.Test) bool
}
