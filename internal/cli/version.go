package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex"
)

func newVersionCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the testdex version and the JSON schema version",
		Args:  cobra.NoArgs,
		Run: func(*cobra.Command, []string) {
			v := "(devel)"
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
				v = bi.Main.Version
			}
			fmt.Fprintf(env.Stdout, "testdex %s (schema %d)\n", v, testdex.SchemaVersion)
		},
	}
}
