package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/history"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/internal/state"
	"github.com/testdex/testdex/workspace"
)

// newHistoryCmd is `testdex history`: the per-test history every run
// appends to (package history), shown, merged across machines, and fed
// from other tools' reports.
func newHistoryCmd(env *Env, g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Show, import into and merge the per-test history (outcomes and durations of past runs)",
		Long: `Every 'testdex run' appends each test's outcome and duration, the commit and
the environment profile (OS, architecture, cores and --profile's label) to
the root's history, under the cache folder, or to --history FILE (a file a
CI job caches or uploads). See docs/ci.md for the format.`,
	}
	cmd.AddCommand(newHistoryShowCmd(env, g), newHistoryImportCmd(env, g), newHistoryMergeCmd(env, g))
	return cmd
}

func newHistoryShowCmd(env *Env, g *globals) *cobra.Command {
	var file, label string
	var asJSON, setup bool
	cmd := &cobra.Command{
		Use:   "show [ID...]",
		Short: "Per test: runs, failures, mean and median duration, last outcome (--setup: per batch, its setup cost)",
		RunE: func(cmd *cobra.Command, ids []string) error {
			ws, err := g.workspace(env, nil)
			if err != nil {
				return err
			}
			path := historyPath(env, ws, file)
			if path == "" {
				return workspace.ErrNoStore
			}
			h, err := history.Load(path)
			var odd *state.OddError
			if errors.As(err, &odd) { // as every state file: said, and nothing recorded
				g.warn(env, err.Error())
				h, err = &history.History{}, nil
			}
			if err != nil {
				return err
			}
			if h.Dropped != "" {
				g.warn(env, fmt.Sprintf("history %s: %s", path, h.Dropped))
			}
			figures := h.Durations(label)
			if setup {
				figures = h.Setup(label)
			}
			return showHistory(env, figures, ids, asJSON)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&file, "history", "", "the history file (default: the root's, under the cache folder)")
	fl.StringVar(&label, "profile", "", "only the runs of this profile label")
	fl.BoolVar(&asJSON, "json", false, "print JSON Lines records: id and the figures")
	fl.BoolVar(&setup, "setup", false, "the batches' setup costs (wall time less their tests'), by batch name (\"DIR FRAMEWORK\")")
	return cmd
}

// showHistory prints the figures of ids (every test or batch when none).
func showHistory(env *Env, ds map[string]history.Stat, ids []string, asJSON bool) error {
	if len(ids) == 0 {
		for id := range ds {
			ids = append(ids, id)
		}
		slices.Sort(ids)
	}
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	for _, id := range ids {
		s, ok := ds[id]
		if asJSON {
			data, _ := json.Marshal(struct {
				ID string `json:"id"`
				history.Stat
			}{id, s})
			fmt.Fprintln(w, string(data))
			continue
		}
		if !ok {
			fmt.Fprintf(w, "%s  no run recorded\n", report.Escape(id))
			continue
		}
		if s.Outcome == "" { // a batch's setup
			fmt.Fprintf(w, "%s  %d runs  mean %.3fs  median %.3fs  last %.3fs\n", report.Escape(id), s.Runs, s.Mean, s.Median, s.Last)
			continue
		}
		fmt.Fprintf(w, "%s  %d runs  %d failed  mean %.3fs  median %.3fs  last %s\n",
			report.Escape(id), s.Runs, s.Failed, s.Mean, s.Median, s.Outcome)
	}
	return nil
}

func newHistoryImportCmd(env *Env, g *globals) *cobra.Command {
	var file, label, commit string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "import FILE...",
		Short: "Add other tools' results (JUnit XML, go test -json) to the history, named by test ID",
		Long: `Import reads reports other tools wrote: JUnit XML (Surefire, pytest
--junitxml, Jest's and Vitest's JUnit reporters, gotestsum, cargo-nextest)
and go test -json streams, told apart by their content. Each result is
named by the root's listing, as a run names what its runner reports; a
result no listed test names, or several do, is listed as unmapped, never
guessed. One import is one run (import a Surefire run's report files
together: a rerun in a later file is a later attempt), its ID the files'
hash, so importing them again adds nothing; at --commit (default HEAD),
with this machine's profile.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			ws, err := g.workspace(env, nil)
			if err != nil {
				return err
			}
			ix, err := index.Build(cmd.Context(), g.indexOptions(env, nil))
			if err != nil {
				return err
			}
			for i, f := range files {
				files[i] = abs(env, f)
			}
			req := workspace.ImportRequest{Files: files, History: historyPath(env, ws, file), Profile: profileLabel(env, label), Commit: commit}
			res, err := ws.ImportHistory(cmd.Context(), ix, req, func(msg string) { g.warn(env, msg) })
			if err != nil {
				if errors.Is(err, workspace.ErrNoStore) {
					return usageErr("%v (or name a file with --history)", err)
				}
				return err
			}
			return printImported(env, res, asJSON)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&file, "history", "", "the history file (default: the root's, under the cache folder)")
	fl.StringVar(&label, "profile", "", "the profile label of the imported runs (default: $TESTDEX_PROFILE)")
	fl.StringVar(&commit, "commit", "", "the commit the reports' tests ran at (default: HEAD)")
	fl.BoolVar(&asJSON, "json", false, "print one JSON record per file: format, results, mapped, attempts, unmapped")
	return cmd
}

// printImported says per file how many results were named, and lists the
// others with the reason.
func printImported(env *Env, res []workspace.Imported, asJSON bool) error {
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	for _, r := range res {
		if asJSON {
			data, err := json.Marshal(r)
			if err != nil {
				return err
			}
			fmt.Fprintln(w, string(data))
			continue
		}
		fmt.Fprintf(w, "%s (%s): %d of %d results mapped, %d attempts\n", report.Escape(r.File), r.Format, r.Mapped, r.Results, r.Attempts)
		for _, u := range r.Unmapped {
			fmt.Fprintf(w, "  unmapped: %s  %s: %s\n", report.Escape(u.Class), report.Escape(u.Name), u.Why)
		}
	}
	return nil
}

func newHistoryMergeCmd(env *Env, g *globals) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "merge FILE... -o OUT",
		Short: "Merge histories (of several machines or jobs) into one; idempotent and order-independent",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			if out == "" {
				return usageErr("merge needs -o OUT, the merged history to write")
			}
			hs := make([]*history.History, 0, len(files))
			for _, f := range files {
				h, err := history.Load(abs(env, f))
				if err != nil {
					return err
				}
				if h.Dropped != "" {
					g.warn(env, fmt.Sprintf("history %s: %s", f, h.Dropped))
				}
				hs = append(hs, h)
			}
			return history.Save(abs(env, out), history.Merge(hs...))
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the merged history to write")
	return cmd
}

// historyPath is the history a command reads or writes: the file named,
// or the root's under the cache folder.
func historyPath(env *Env, ws *workspace.Workspace, named string) string {
	if named != "" {
		named = abs(env, named)
	}
	return ws.HistoryFile(named)
}

// profileLabel is the label given, else $TESTDEX_PROFILE.
func profileLabel(env *Env, label string) string {
	if label == "" {
		return env.Getenv(workspace.ProfileEnv)
	}
	return label
}
