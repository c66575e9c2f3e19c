package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/run"
)

// Summary prints the closing lines, without colour: leaked processes, a
// timeout, the IDs that matched nothing, the number of tests the runners
// reported and the duration (and the checks the tests counted inside
// themselves, where they count them: "; their own checks: 57 passed, 2
// failed"), then the counts alone on the last line,
// "N passed, N failed, N skipped" (the form CI systems read), followed by
// the flaky tests, the tests not reported and the batch errors when there
// are any.
func Summary(w io.Writer, s *run.Summary, timeout time.Duration) {
	summary(w, palette{}, s, timeout)
}

// Summary prints the closing lines (as the package's Summary does) to W,
// in colour when Color is set: on the count line, each count that is not
// zero in its outcome's colour.
func (t *Text) Summary(s *run.Summary, timeout time.Duration) {
	summary(t.W, palette{t.Color}, s, timeout)
}

func summary(w io.Writer, p palette, s *run.Summary, timeout time.Duration) {
	for _, l := range s.Leaked {
		fmt.Fprintf(w, "%s process %d (%s) from %s (killed)\n", p.skip("leaked:"), l.PID, Escape(l.Command), Escape(l.Batch))
	}
	if s.TimedOut {
		fmt.Fprintln(w, p.fail(fmt.Sprintf("timed out after %s", timeout)))
	}
	for _, id := range s.Unmatched {
		fmt.Fprintf(w, "no test matches %s: the runner ran nothing under it\n", Escape(id))
	}
	for _, id := range s.Lost {
		fmt.Fprintf(w, "no result for %s: it is listed, but the runner reported neither it nor a test under it\n", Escape(id))
	}
	fmt.Fprintf(w, "ran %d tests in %.1fs%s\n", s.Ran(), s.End.Sub(s.Start).Seconds(), innerCounts(s.Inner))
	counts := []string{
		count(p.pass, s.Passed, "passed"),
		count(p.fail, s.Failed, "failed"),
		count(p.skip, s.Skipped, "skipped"),
	}
	if s.Flaky > 0 {
		counts = append(counts, count(p.skip, s.Flaky, "flaky"))
	}
	if s.Unreported > 0 {
		counts = append(counts, count(p.quiet, s.Unreported, "not reported"))
	}
	if s.Unchanged > 0 {
		counts = append(counts, count(p.quiet, s.Unchanged, "unchanged"))
	}
	if n := len(s.Errors); n == 1 {
		counts = append(counts, count(p.fail, 1, "batch error"))
	} else if n > 1 {
		counts = append(counts, count(p.fail, n, "batch errors"))
	}
	fmt.Fprintln(w, strings.Join(counts, ", "))
}

// count is "N what", painted when N is not zero.
func count(paint func(string) string, n int, what string) string {
	s := fmt.Sprintf("%d %s", n, what)
	if n == 0 {
		return s
	}
	return paint(s)
}

// innerCounts is the sum of the tests' own checks for the "ran" line, ""
// when no test counted any.
func innerCounts(in *testdex.Inner) string {
	if in == nil {
		return ""
	}
	s := fmt.Sprintf("; their own checks: %d passed, %d failed", in.Passed, in.Failed)
	if in.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", in.Skipped)
	}
	return s
}
