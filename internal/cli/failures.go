package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

func newFailuresCmd(env *Env, g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "failures",
		Short: "Show the failures of the last 'testdex run' of this root",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ws, err := g.workspace(env, nil)
			if err != nil {
				return err
			}
			fs, _, err := ws.Failures(func(msg string) { g.warn(env, msg) })
			if err != nil && !errors.Is(err, workspace.ErrNoStore) {
				return err
			}
			w := bufio.NewWriter(env.Stdout)
			defer w.Flush()
			for _, f := range fs {
				if asJSON {
					data, _ := json.Marshal(f)
					fmt.Fprintln(w, string(data))
					continue
				}
				loc := f.File
				if f.Line > 0 {
					loc = fmt.Sprintf("%s:%d", f.File, f.Line)
				}
				flaky := ""
				switch {
				case f.Flaky:
					flaky = "  (flaky: passed on a rerun)"
				case f.Quarantined:
					flaky = "  (quarantined: did not fail the run)"
				}
				fmt.Fprintf(w, "%s  %s  %s%s\n", report.Escape(f.ID), report.Escape(loc), report.Escape(f.Message), flaky)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines records with id, framework, file, line, message")
	return cmd
}

func numCPU() int { return runtime.GOMAXPROCS(0) }
