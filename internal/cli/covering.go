package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

func newCoveringCmd(env *Env, g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "covering FILE[:LINE[-LINE]]",
		Short: "List the tests that executed these lines ('testdex run --coverage' records them)",
		Long: `Covering lists the tests that executed a line, a range of lines or any
line of a file, as 'testdex run --coverage' recorded them, each with when
it was recorded and its outcome then. A file changed since is answered
through its functions whose canonical hash did not change ("by function
hash"); other tests recorded on it are listed as stale.

When nothing is recorded for the file because the last 'run --coverage'
of its project recorded nothing (the coverage tool is missing, the
recorder never reached the tests), it says so, with the reason.

Exit status: 0 when a test executed the lines, 2 when none is known to
(or nothing was recorded), 3 for a usage error.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCovering(cmd, env, g, args[0], asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the answer as one JSON object")
	return cmd
}

// parseFileLines splits FILE[:LINE[-LINE]].
func parseFileLines(arg string) (file string, start, end int, err error) {
	file = arg
	if i := strings.LastIndexByte(arg, ':'); i >= 0 {
		from, to, isRange := strings.Cut(arg[i+1:], "-")
		s, err1 := strconv.Atoi(from)
		e, err2 := s, error(nil)
		if isRange {
			e, err2 = strconv.Atoi(to)
		}
		if err1 != nil || err2 != nil || s < 1 || e < s {
			return "", 0, 0, usageErr("%q: want FILE, FILE:LINE or FILE:LINE-LINE with 1 <= LINE", arg)
		}
		file, start, end = arg[:i], s, e
	}
	return file, start, end, nil
}

func runCovering(cmd *cobra.Command, env *Env, g *globals, arg string, asJSON bool) error {
	file, start, end, err := parseFileLines(arg)
	if err != nil {
		return err
	}
	ws, err := g.workspace(env, []string{file})
	if err != nil {
		return err
	}
	ix, err := ws.List(cmd.Context(), nil)
	if err != nil {
		return err
	}
	ans, err := ws.Covering(ix, workspace.CoveringRequest{File: absUnder(env, ix.Root, file), Start: start, End: end})
	var gap *coverage.GapError
	var outside *workspace.OutsideError
	switch {
	case errors.As(err, &outside):
		return usageErr("%v", outside)
	case errors.As(err, &gap): // the project's last coverage run recorded nothing: why
		return &ExitError{Code: ExitNoTests, Err: gap}
	case errors.Is(err, coverage.ErrNoData):
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("no coverage recorded for %s (run 'testdex run --coverage' first)", ix.Root)}
	case errors.Is(err, coverage.ErrDamaged):
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("%v (run 'testdex run --coverage' to rebuild it)", err)}
	case err != nil:
		return err
	}
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	if asJSON {
		data, err := json.Marshal(ans)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, string(data))
	} else {
		writeCovering(w, ans)
	}
	if len(ans.Tests) == 0 {
		w.Flush()
		msg := fmt.Sprintf("no test executed %s in the recorded runs", where(ans))
		if len(ans.Stale) > 0 {
			msg = fmt.Sprintf("no test is known to execute %s: %d recorded on an older version of the file (stale; run 'testdex run --coverage' again)", where(ans), len(ans.Stale))
		}
		return &ExitError{Code: ExitNoTests, Err: errors.New(msg)}
	}
	return nil
}

// where names the lines asked about: "a.go", "a.go:5", "a.go:5-7".
func where(a *coverage.Answer) string {
	switch {
	case a.Start == 0:
		return a.File
	case a.Start == a.End:
		return fmt.Sprintf("%s:%d", a.File, a.Start)
	}
	return fmt.Sprintf("%s:%d-%d", a.File, a.Start, a.End)
}

// writeCovering prints one line per test: ID, outcome, when recorded,
// the lines it executed when a range was asked, and how it was matched.
func writeCovering(w io.Writer, a *coverage.Answer) {
	const stamp = "2006-01-02 15:04:05"
	for _, h := range a.Tests {
		line := fmt.Sprintf("%s  %s  recorded %s", h.ID, outcome(h.Outcome), h.Recorded.Local().Format(stamp))
		if a.Start == 0 || a.End > a.Start {
			line += "  lines " + coverage.String(h.Lines)
		}
		if h.By == "function" {
			line += fmt.Sprintf("  (by function hash: %s unchanged; the file changed since)", strings.Join(h.Functions, ", "))
		}
		if h.Granularity == "file" {
			line += "  (recorded per test file: its file's tests share these lines)"
		}
		fmt.Fprintln(w, report.Escape(line))
	}
	for _, s := range a.Stale {
		fmt.Fprintf(w, "stale: %s  %s  recorded %s: %s\n", report.Escape(s.ID), outcome(s.Outcome), s.Recorded.Local().Format(stamp), report.Escape(s.Reason))
	}
}

func outcome(o string) string {
	if o == "" {
		return "-"
	}
	return o
}
