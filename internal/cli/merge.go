package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/plan"
	"github.com/testdex/testdex/run"
	"github.com/testdex/testdex/workspace"
)

// newMergeCmd is `testdex merge FILE...`: the shards' saved streams as
// the one run they split (report --from over several streams).
func newMergeCmd(env *Env, g *globals) *cobra.Command {
	var v replayView
	var planPath string
	cmd := &cobra.Command{
		Use:   "merge FILE... [--plan FILE] [--junit OUT] [--json]",
		Short: "Merge the shards' 'run --json' streams into the report of one run",
		Long: `Merge reads the JSON Lines each shard's 'testdex run --json' wrote and
reports them as the one run they split: failures, the summary, JUnit with
--junit, the merged stream with --json, and the failures kept for
'testdex failures' and 'run --failed' in this root. The exit code is that
run's (0, 1 or 124). A test reported by two shards fails the merge, and
so, with --plan (the plan the shards were split from: 'testdex plan -o
DIR' writes DIR/plan.json, 'testdex list --plan' writes it too), does a
test it expects that no shard reported: a lost shard is never green.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := g.workspace(env, nil)
			if err != nil {
				return err
			}
			var full *plan.Plan
			if planPath != "" {
				if full, err = readPlan(env, planPath); err != nil {
					return err
				}
			}
			var streams []workspace.Stream
			for _, a := range args {
				streams = append(streams, workspace.Stream{Name: a, Read: func(handle func(testdex.Event) error) error {
					f, err := os.Open(abs(env, a))
					if err != nil {
						return err
					}
					defer f.Close()
					if err := report.ReadJSON(f, handle); err != nil {
						return fmt.Errorf("read the shard's stream: %w (give 'testdex run --json' outputs)", err)
					}
					return nil
				}})
			}
			return replay(env, func(h run.Handler) (*run.Summary, error) { return ws.Merge(streams, full, h) }, v)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&planPath, "plan", "", "the plan the shards were split from: a test it expects that no shard reported fails the merge")
	fl.StringVar(&v.junit, "junit", "", "also write a JUnit XML report to this file")
	fl.BoolVar(&v.json, "json", false, "print the merged event stream as JSON Lines")
	fl.BoolVarP(&v.verbose, "verbose", "v", false, "also show each passing and skipped test")
	fl.Var(&v.color, "color", "colour the text view: auto, always or never")
	return cmd
}

// readPlan reads a plan document.
func readPlan(env *Env, path string) (*plan.Plan, error) {
	file, err := os.Open(abs(env, path))
	if err != nil {
		return nil, usageErr("%v", err)
	}
	defer file.Close()
	p, err := plan.Read(file)
	if err != nil {
		return nil, usageErr("%s: %v", path, err)
	}
	return p, nil
}
