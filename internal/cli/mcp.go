package cli

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/mcpserver"
)

func newMCPCmd(env *Env, g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: fmt.Sprintf("Serve %d tools (%s) to an AI agent over MCP on stdio", len(mcpserver.Tools), strings.Join(mcpserver.Tools, ", ")),
		Long: `Mcp serves the Model Context Protocol over stdin and stdout, for coding
agents. Its tools work in the root (the current folder, or --root):
discover_tests lists tests, run_tests runs them as 'testdex run' does,
last_test_failures returns the failures of the last run of the root (shared
with 'testdex failures'), affected_tests says which tests a change can
affect ('testdex affected'), and tests_covering which tests executed a line
('testdex covering'). Paths outside the root are refused.

Stdin carries one JSON-RPC message per line. A line that is not one (not
JSON, not UTF-8, a batch, longer than 4 MiB) gets a JSON-RPC error reply and
the server reads on; it ends when stdin ends.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := index.RootOf(g.root, env.Dir)
			if err != nil {
				return err
			}
			c := mcpserver.Config{Root: root, Environ: env.Environ, Jobs: numCPU(), Version: version()}
			if !g.noCache {
				c.CacheDir = cacheDir(env)
			}
			return mcpserver.Serve(cmd.Context(), c, env.Stdin, env.Stdout)
		},
	}
}

// version is the module version testdex was built as, "(devel)" from a
// source tree.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
