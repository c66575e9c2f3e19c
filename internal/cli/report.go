package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/run"
)

// newReportCmd is `testdex report --from FILE`: a saved `run --json`
// stream replayed into the same views a run prints (govulncheck's shape:
// every format is a handler over one stream, and a saved stream can be
// replayed into any of them). A CI job that kept the stream gets the
// terminal view, the summary and a JUnit file again without running
// anything.
func newReportCmd(env *Env, _ *globals) *cobra.Command {
	var from, junitPath string
	var verbose bool
	var color colorMode
	cmd := &cobra.Command{
		Use:   "report --from FILE",
		Short: "Replay a saved 'run --json' stream into the text view and JUnit",
		Long: `Report reads the JSON Lines a 'testdex run --json' wrote (FILE, or - for
standard input) and prints them as 'testdex run' would have: each failure
with its location, message and output, then the summary. --junit also
writes the JUnit XML report. Nothing runs. The exit code is the run's: 0
when every test passed or was skipped, 1 when one failed or a batch
failed, 124 when the run timed out (a name that matched nothing is known
to the run, not to its stream).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if from == "" {
				return usageErr("report needs --from FILE (a 'testdex run --json' stream, or - for standard input)")
			}
			var r io.Reader = env.Stdin
			if from != "-" {
				f, err := os.Open(abs(env, from))
				if err != nil {
					return err
				}
				defer f.Close()
				r = f
			}
			feed := func(h run.Handler) (*run.Summary, error) {
				sum := run.NewSummary()
				if err := report.ReadJSON(r, run.MultiHandler(sum, h).Event); err != nil {
					return nil, fmt.Errorf("read the run's stream: %w (give a 'testdex run --json' output)", err)
				}
				sum.Finish()
				return sum, nil
			}
			return replay(env, feed, replayView{junit: junitPath, verbose: verbose, color: color})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&from, "from", "", "the 'run --json' stream to read (- for standard input)")
	fl.StringVar(&junitPath, "junit", "", "also write a JUnit XML report to this file")
	fl.BoolVarP(&verbose, "verbose", "v", false, "also show each passing and skipped test")
	fl.Var(&color, "color", "colour the text view: auto, always or never")
	return cmd
}

// replayView is how replay shows a stream: the text view (or the stream
// again as JSON Lines), and a JUnit file.
type replayView struct {
	junit   string
	verbose bool
	color   colorMode
	json    bool
}

// replay feeds saved events (feed hands them to its handler and returns
// their summary) to the text view or JSON Lines and JUnit, and returns
// the exit code of the run they are. An error feed returns with a
// summary fails the run (shards that do not make one run); without one,
// the events could not be read.
func replay(env *Env, feed func(run.Handler) (*run.Summary, error), v replayView) error {
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	var text *report.Text
	var view run.Handler
	if v.json {
		view = report.NewJSON(w)
	} else {
		text = &report.Text{W: w, Verbose: v.verbose, Color: v.color.enabled(env)}
		view = text
	}
	junit := &report.JUnit{}
	all := run.MultiHandler(view, junit)
	var timeout time.Duration
	sum, ferr := feed(run.HandlerFunc(func(e testdex.Event) error {
		switch {
		case e.Action == testdex.ActionWarning:
			fmt.Fprintln(env.Stderr, "testdex: warning: "+report.Escape(e.Message))
		case e.Action == testdex.ActionError && e.Cause == testdex.CauseTimeout && timeout == 0:
			timeout, _ = time.ParseDuration(strings.TrimPrefix(e.Message, "timed out after "))
		}
		return all.Event(e)
	}))
	if sum == nil {
		return ferr
	}
	if text != nil {
		text.Summary(sum, timeout)
	}
	if v.junit != "" {
		if err := writeFileAtomic(abs(env, v.junit), func(w io.Writer) error { _, err := junit.WriteTo(w); return err }); err != nil {
			return err
		}
	}
	if ferr != nil {
		return &ExitError{Code: ExitFailed, Err: ferr}
	}
	if code := run.ExitCode(sum); code != run.ExitPassed {
		return &ExitError{Code: code}
	}
	return nil
}
