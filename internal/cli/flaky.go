package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

type flakyFlags struct {
	file       string
	label      string
	window     int
	asJSON     bool
	all        bool
	quarantine bool
	expire     time.Duration
}

// newFlakyCmd is `testdex flaky`: the verdicts of the per-test history
// (history.Verdicts), and the quarantine list they can fill.
func newFlakyCmd(env *Env, g *globals) *cobra.Command {
	f := &flakyFlags{}
	cmd := &cobra.Command{
		Use:   "flaky [ID...]",
		Short: "Judge the tests by their recorded runs: broken, flaky, failing, new failure (and quarantine the flaky)",
		Long: `Flaky reads the per-test history ('testdex history') and judges each test
by its newest runs (--window): broken when it failed every run of a streak
still going on (since the commit it names), flaky when it passed on a rerun
(run --retries) or both passed and failed on one commit, failing or a new
failure when its newest run failed. A run in which half of the tests or
more failed at once (five or more) is infrastructure and counts against
none of them. Only the tests that are not ok are shown, unless --all.

With --quarantine, the flaky tests are added to testdex.quarantine.toml at
the root (each with its verdict as reason, the date, and an expiry): a
quarantined test still runs and is reported, but its failure does not fail
the run, until it expires or its runs fail 95% of the time (broken).`,
		RunE: func(cmd *cobra.Command, ids []string) error { return runFlaky(env, g, f, ids) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.file, "history", "", "the history file (default: the root's, under the cache folder)")
	fl.StringVar(&f.label, "profile", "", "only the runs of this profile label")
	fl.IntVar(&f.window, "window", 20, "how many of each test's newest runs count")
	fl.BoolVar(&f.asJSON, "json", false, "print JSON Lines records: id, verdict, runs, failed, retry_passed, flips, since, last_failure")
	fl.BoolVar(&f.all, "all", false, "also show the tests that are ok")
	fl.BoolVar(&f.quarantine, "quarantine", false, "add the flaky tests to "+workspace.QuarantineFile)
	fl.DurationVar(&f.expire, "expire", 30*24*time.Hour, "with --quarantine: how long an entry lasts")
	return cmd
}

func runFlaky(env *Env, g *globals, f *flakyFlags, ids []string) error {
	if f.window < 1 {
		return usageErr("--window %d: at least 1 run", f.window)
	}
	ws, err := g.workspace(env, nil)
	if err != nil {
		return err
	}
	file := ""
	if f.file != "" {
		file = abs(env, f.file)
	}
	vs, err := ws.Flaky(workspace.FlakyRequest{History: file, VerdictOptions: history.VerdictOptions{Window: f.window, Label: f.label}},
		func(msg string) { g.warn(env, msg) })
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	var flaky []history.Verdict
	for _, v := range vs {
		if len(want) > 0 && !want[v.ID] || len(want) == 0 && !f.all && v.Kind == history.OK {
			continue
		}
		if v.Kind == history.Flaky {
			flaky = append(flaky, v)
		}
		if f.asJSON {
			data, _ := json.Marshal(v)
			fmt.Fprintln(w, string(data))
			continue
		}
		last := ""
		if !v.LastFailure.IsZero() {
			last = fmt.Sprintf("; last failed %s", v.LastFailure.Format("2006-01-02 15:04"))
			if v.LastFailureCommit != "" {
				last += " at " + shortCommit(v.LastFailureCommit)
			}
		}
		fmt.Fprintf(w, "%-11s  %s  %s (%d runs, %d flips%s)\n", v.Kind, report.Escape(v.ID), v.String(), v.Runs, v.Flips, last)
	}
	if f.quarantine {
		return quarantine(env, ws, w, flaky, f.expire)
	}
	return nil
}

// quarantine adds the flaky tests to the quarantine list, keeping the
// entries there.
func quarantine(env *Env, ws *workspace.Workspace, w *bufio.Writer, flaky []history.Verdict, expire time.Duration) error {
	entries, err := ws.Quarantine()
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, q := range entries {
		have[q.ID] = true
	}
	now := time.Now().UTC().Truncate(time.Second)
	added := 0
	for _, v := range flaky {
		if have[v.ID] {
			continue
		}
		entries = append(entries, workspace.Quarantined{ID: v.ID, Reason: v.String(), Added: now, Expires: now.Add(expire)})
		added++
	}
	if added == 0 {
		fmt.Fprintf(env.Stderr, "testdex: no flaky test to add to %s\n", workspace.QuarantineFile)
		return nil
	}
	if err := ws.WriteQuarantine(entries); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "testdex: %d flaky test(s) added to %s (until %s)\n", added, workspace.QuarantineFile, now.Add(expire).Format("2006-01-02"))
	return nil
}

// shortCommit is a commit's first 7 characters.
func shortCommit(c string) string {
	if len(c) > 7 {
		return c[:7]
	}
	return c
}
