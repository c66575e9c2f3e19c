package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/report"
)

func newWhyCmd(env *Env, g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "why PATH...",
		Short: "Explain what discovery does with a path: the ignore rule that skips it, or its project and framework",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o := g.namedOptions(env, args)
			for _, a := range args {
				s, err := index.Explain(o, a)
				if err != nil {
					return err
				}
				fmt.Fprintln(env.Stdout, report.Escape(s))
			}
			return nil
		},
	}
}
