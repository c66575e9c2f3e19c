package lang

import (
	"errors"
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
	// what sel selects in project p, all of this framework. A test's
	// descendants run with it. (Go needs one go test per set of packages
	// sharing a -run pattern; most frameworks need one command.)
	RunCommands(p *Project, sel *Selection, o RunOptions) ([]*Command, error)
	// NewParser returns a parser of that command's standard output.
	NewParser(p *Project, cmd *Command, emit func(RunEvent)) Parser
}

// ErrNotInstalled marks a RunCommands error saying the framework's runner
// is not installed where the project would use it (node_modules/.bin, the
// project's virtualenv): the core reports it once, as a missing
// toolchain, with the runner's fix ("run npm install in web/").
var ErrNotInstalled = errors.New("not installed")

// Selection is what one batch runs, in the terms the user chose it: the
// whole project, paths, or tests by ID. Paths are handed to the framework
// as paths and IDs as names, so "run this folder" runs what the framework
// finds there (its own configuration decides), not what the listing saw.
type Selection struct {
	// Paths are project-relative, slash-separated files and folders whose
	// tests run whole; "." is the whole project, run as its own test
	// command runs it (no path and no name handed to the framework). Each
	// carries the top-level listed records under it, for a runner that
	// cannot take such a path (go test takes packages, not files).
	Paths []PathSelection `json:"paths,omitempty"`
	// Tests are records named by ID, selected by name. None lies under one
	// of Paths and none is a descendant of another; a record may be one the
	// listing does not hold (a row known only at run time, Seen runtime).
	Tests []*testdex.Test `json:"tests,omitempty"`
	// Within, when set, is the run Paths and Tests were cut from (a
	// shard's part of a folder's run): a runner that can collects Within
	// under the project's own rules and runs only what Paths and Tests
	// name of it, because a framework handed a file by name runs it even
	// where its configuration leaves it out (pytest collects a file named
	// on its command line that conftest.py's collect_ignore lists), and a
	// shard must run what the whole run would. A runner that cannot runs
	// Paths and Tests as it would without Within. Its paths carry no
	// Tests.
	Within []PathSelection `json:"within,omitempty"`
}

// PathSelection is one path of a Selection.
type PathSelection struct {
	Path string `json:"path"`          // project-relative, slash-separated
	Dir  bool   `json:"dir,omitempty"` // a folder, run with everything below it
	// Tests are the listed top-level records under Path.
	Tests []*testdex.Test `json:"tests,omitempty"`
}

// Whole reports whether the selection is the whole project.
func (s *Selection) Whole() bool { return len(s.Paths) == 1 && s.Paths[0].Path == "." }

// Records returns the top-level records the selection names, the listed
// ones under its paths included.
func (s *Selection) Records() []*testdex.Test {
	var out []*testdex.Test
	for _, p := range s.Paths {
		out = append(out, p.Tests...)
	}
	return append(out, s.Tests...)
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
	// Bench also runs benchmarks under the selected paths (Go's -bench .);
	// a benchmark named by ID runs whatever Bench says.
	Bench bool
	// Coverage asks a Coverer to record what each test executes (see
	// Coverer); other Runners never see it set.
	Coverage bool
	// Outside are the symbolic links under the selection whose real
	// target lies outside the root, project-relative. The core hands them
	// only to a LinkGuard that said it can keep the framework from
	// following them, and refuses the batch otherwise.
	Outside []Link

	// The settings below concern runners that judge (markdown specs,
	// through an agent CLI); other runners ignore them.

	// CacheDir is the folder testdex keeps per-root state in ("" keeps
	// none), for a Reuser's stored results (through internal/state).
	CacheDir string
	// Fresh asks a Reuser to reuse nothing (--no-cache).
	Fresh bool
	// Repeat runs each test this many times where the runner can (a
	// spec's scenarios judged Repeat times, their agreement reported);
	// <= 1 once.
	Repeat int
	// Output is a folder for the runner's own report files (the raw
	// agent answers, under debug/); "" writes none.
	Output string
	// Strict makes validation findings (a spec's duplicate or missing
	// scenario IDs) failures of the tests concerned.
	Strict bool
}

// A Reuser is an optional Runner method, for a framework whose results
// can be kept between runs because producing one costs (a spec's verdict
// is a paid agent call). Before the batch's commands are built, Reuse
// returns the results known without running anything, as final events
// in the runner's terms (ActionUnchanged for a stored pass whose inputs
// are unchanged; ActionFail for a stored failure, or a test that cannot
// run as selected), and rest, the selection left to run (nil or empty:
// nothing). The core emits the events, then runs rest.
type Reuser interface {
	Reuse(p *Project, sel *Selection, o RunOptions) (known []RunEvent, rest *Selection, err error)
}

// Link is a symbolic link leaving the root.
type Link struct {
	Path string `json:"path"`          // project-relative, slash-separated
	Dir  bool   `json:"dir,omitempty"` // it points to a folder
}

// LinkGuard is an optional Runner method. GuardsLinks reports whether the
// framework, run by RunCommands with RunOptions.Outside set to links,
// collects no test through them: it does not follow such links (go test
// and Jest do not enter a linked folder), or RunCommands tells it not to
// (pytest --ignore, Vitest --exclude, Mocha --ignore). A Runner without it
// is assumed to follow every link, and a batch whose selection holds one
// is refused: testdex runs only the tree under its root.
type LinkGuard interface {
	GuardsLinks(links []Link) bool
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
// an event of the whole batch; testdex.ActionError is the runner's own
// error for part of it (a Go package that does not build), Message in the
// runner's words.
type RunEvent struct {
	Action testdex.Action
	Scope  string
	Name   string
	// Kind is the test's kind where the runner says (a suite, a benchmark);
	// "" for an ordinary test.
	Kind testdex.Kind
	// Decl is the project-relative file declaring the test where the
	// runner says and Scope and Name do not (unittest); "" otherwise.
	Decl    string
	Elapsed float64
	Output  string
	Message string
	File    string // project-relative, where the framework says
	Line    int
	// Covered is what the test executed, on an ActionCovered event.
	Covered []CoveredFile
	// Process and Seq, on an ActionCovered event of a test that ran in a
	// process other tests ran in before it, name that process (any key
	// unique among the command's processes) and the test's start order
	// there, from 0, every test of the process numbered (a test whose
	// number is missing from the index makes the later ones unusable for
	// selection). "" when the test ran alone (see coverage.Record). Seq
	// is Unordered when the test started more than once in the process.
	Process string
	Seq     int
	// Verdict is a spec scenario's judgement, on its final event.
	Verdict *testdex.Verdict
	// Inner is what the test reports of its own checks, on its final
	// event, where the runner counts them (testdex.Event.Inner).
	Inner *testdex.Inner
}

// Parser reads a command's standard output, in chunks of any size, as it
// is written; Close says the command ended with exitCode and flushes what
// is pending (and reads any result file the command wrote).
type Parser interface {
	io.Writer
	Close(exitCode int) error
}
