package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/internal/source"
)

func newShowCmd(env *Env, g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID...",
		Short: "Print the source of tests: a spec's text, a code test's function",
		Long: `Show prints what a test asks, so that whoever must make it pass can read it:
for a markdown spec its body (frontmatter stripped) or its scenario's section,
for a code test the function around its line as its language parses it (a
subtest's closure, a method), else the 40 lines from its line.

Exit status: 0 when every ID was shown, 2 when one matches no test, 3 for a
usage error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			ix, err := runIndex(cmd, env, g, "", ids, "")
			if err != nil {
				return err
			}
			names := ix.NewNamer()
			w := bufio.NewWriter(env.Stdout)
			defer w.Flush()
			var missing []string
			for _, id := range ids {
				t, ok := names.ForID(id)
				if !ok || len(t.Seen) == 1 && t.Seen[0] == index.SeenRuntime { // only the listing's IDs have a source
					missing = append(missing, id)
					continue
				}
				s, err := source.Of(ix, t)
				if err != nil {
					return err
				}
				if asJSON {
					data, _ := json.Marshal(s)
					fmt.Fprintln(w, string(data))
					continue
				}
				fmt.Fprintf(w, "%s  %s:%d-%d  (%s)\n", report.Escape(s.ID), report.Escape(s.File), s.Start, s.End, s.Extent)
				text := strings.TrimSuffix(s.Text, "\n")
				for _, l := range strings.Split(text, "\n") {
					fmt.Fprintln(w, "  "+report.Escape(l))
				}
			}
			if len(missing) > 0 {
				return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("no test matches %s (run 'testdex list' to see test IDs)", strings.Join(missing, ", "))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines records with id, file, start, end, extent (spec, function or window) and text")
	return cmd
}
