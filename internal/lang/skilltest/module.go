package skilltest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lines"
)

// moduleParser reports one module. Its stdout (and the stderr writes the
// wrapper folds into it) is the test's output, passed through line by
// line; the result comes from the wrapper's result file alone, read on
// Close. That file is written once, by the wrapper, after the module's
// function settled, so no output the module prints (JSON included) can
// pass for a result, as it could at the end of the seed's stdout.
type moduleParser struct {
	ev     testEvent
	result string
	out    lines.Splitter
}

func newModuleParser(ev testEvent, result string) *moduleParser {
	ev.run()
	return &moduleParser{ev: ev, result: result, out: outputLines(ev)}
}

func (m *moduleParser) Write(b []byte) (int, error) {
	return m.out.Write(b)
}

// moduleResult is the wrapper's result file.
type moduleResult struct {
	Passed, Failed int
	Errors         []json.RawMessage
	// Returned is the type of a function's result that is not an object.
	Returned  string
	Error     string
	Stack     string
	ElapsedMs float64
}

// Close reads the result file. Without one, a process that exited with
// a code reports a failure naming it; a killed one (exit code -1) is left
// to the core, which knows whether the run timed out.
func (m *moduleParser) Close(exitCode int) error {
	m.out.Flush()
	data, err := os.ReadFile(m.result)
	switch {
	case errors.Is(err, fs.ErrNotExist) && exitCode < 0:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		m.ev.end(testdex.ActionFail, fmt.Sprintf("node exited %d without a result (see the output above)", exitCode), 0)
		return nil
	case err != nil:
		m.ev.end(testdex.ActionFail, fmt.Sprintf("read the result: %v", err), 0)
		return nil
	}
	var r moduleResult
	if err := json.Unmarshal(data, &r); err != nil {
		m.ev.end(testdex.ActionFail, fmt.Sprintf("unreadable result file %s: %v", m.result, err), 0)
		return nil
	}
	m.report(r)
	return nil
}

// report emits the outcome with the module's counts: fail on an
// exception, failed > 0 or errors reported, pass otherwise (a function
// returning no object counts nothing and passes, as in the seed, with a
// note).
func (m *moduleParser) report(r moduleResult) {
	elapsed := r.ElapsedMs / 1000
	if r.Error != "" {
		if r.Stack != "" {
			m.ev.output(r.Stack + "\n")
		}
		m.ev.end(testdex.ActionFail, r.Error, elapsed)
		return
	}
	c := counts{Passed: r.Passed, Failed: r.Failed, Errors: errorTexts(r.Errors)}
	if r.Returned != "" {
		m.ev.output(fmt.Sprintf("skilltest: the test function returned %s, not {passed, failed, errors}\n", r.Returned))
	}
	m.ev.output(c.String())
	if c.failing() {
		m.ev.endCounted(testdex.ActionFail, c.failMessage(), elapsed, c.inner())
		return
	}
	m.ev.endCounted(testdex.ActionPass, "", elapsed, c.inner())
}
