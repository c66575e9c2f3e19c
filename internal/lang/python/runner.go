package python

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// The drivers the Runners write to the batch's scratch folder and run with
// python3: each runs the names listed in a file and writes one JSON event a
// line on its standard output, which carries nothing else (see the
// scripts' doc strings and [eventParser]).
var (
	//go:embed runner_pytest.py
	pytestDriver []byte
	//go:embed runner_unittest.py
	unittestDriver []byte
)

// pytestRunner runs pytest through runner_pytest.py, which calls
// pytest.main with its reporting plugin registered as an object: no
// PYTHONPATH to set (which would hide the user's) and no -p name that could
// clash with an installed module. It runs in the rootdir, rootRel from the
// project folder, where the records' node IDs are relative.
//
// xfail and xpass follow pytest's own verdict: an xfailed test is a skip
// (message "xfail: reason"), a non-strict xpass a pass (message "xpass:
// reason"), a strict xpass a failure. A per-test timeout is passed as
// TESTDEX_TEST_TIMEOUT and applied only when pytest-timeout is installed
// (the driver sets its --timeout unless the user did); otherwise the
// driver says so in the batch output and only the run's --timeout applies.
type pytestRunner struct{ rootRel string }

// RunCommands returns one command: the driver, pytest's options (-q,
// --no-header, --no-summary: its report goes to stderr, shown only when
// the batch fails, and each failure is already an event), the Extra
// arguments, and the node IDs, read from a file in o.Dir so that no
// selection is too long for a command line. A class or function's node ID
// selects its rows; a row's selects the row.
func (r pytestRunner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	tests := sel.Records()
	driver, ids, err := writeDriver(o.Dir, "testdex_pytest.py", pytestDriver, tests)
	if err != nil {
		return nil, err
	}
	args := append([]string{Python, driver, ids, "-q", "--no-header", "--no-summary"}, o.Extra...)
	return []*lang.Command{{Args: args, Dir: filepath.Join(p.Dir, filepath.FromSlash(r.rootRel)), Env: timeoutEnv(o)}}, nil
}

// NewParser returns the parser of the driver's event stream.
func (pytestRunner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	return newEventParser(p, cmd, emit)
}

// unittestRunner runs unittest through runner_unittest.py in the project
// folder (where `python -m unittest discover` resolves the records' dotted
// names): it loads exactly the selected names with
// TestLoader.loadTestsFromName and reports through a TestResult. An
// expected failure is a skip, an unexpected success a failure, a failed
// subTest fails its method (its parameters lead the message). A per-test
// timeout arms SIGALRM around each test, which fails with "timed out".
type unittestRunner struct{}

// RunCommands returns one command: the driver and the names file; Extra
// arguments are ignored, unittest's loader has no options to take them.
func (unittestRunner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	tests := sel.Records()
	driver, ids, err := writeDriver(o.Dir, "testdex_unittest.py", unittestDriver, tests)
	if err != nil {
		return nil, err
	}
	return []*lang.Command{{Args: []string{Python, driver, ids}, Dir: p.Dir, Env: timeoutEnv(o)}}, nil
}

// NewParser returns the parser of the driver's event stream.
func (unittestRunner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	return newEventParser(p, cmd, emit)
}

// writeDriver writes the driver script and the selected records' native
// names, one a line, to dir; it returns both paths.
func writeDriver(dir, name string, script []byte, tests []*testdex.Test) (driver, ids string, err error) {
	if dir == "" {
		return "", "", errors.New("no scratch folder for the python driver (set RunOptions.Dir)")
	}
	var b strings.Builder
	for _, t := range tests {
		sel := t.Run
		if sel == "" {
			sel = t.Name
		}
		if strings.ContainsAny(sel, "\n\r") {
			return "", "", fmt.Errorf("test %s: a name with a line break cannot be selected", t.ID)
		}
		b.WriteString(sel + "\n")
	}
	driver, ids = filepath.Join(dir, name), filepath.Join(dir, strings.TrimSuffix(name, ".py")+"_ids.txt")
	if err := os.WriteFile(driver, script, 0o644); err != nil {
		return "", "", fmt.Errorf("write the python driver: %w", err)
	}
	if err := os.WriteFile(ids, []byte(b.String()), 0o644); err != nil {
		return "", "", fmt.Errorf("write the selected names: %w", err)
	}
	return driver, ids, nil
}

// timeoutEnv passes a per-test timeout to the driver, in seconds.
func timeoutEnv(o lang.RunOptions) []string {
	if o.TestTimeout <= 0 {
		return nil
	}
	return []string{"TESTDEX_TEST_TIMEOUT=" + strconv.FormatFloat(o.TestTimeout.Seconds(), 'f', -1, 64)}
}
