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
	var budget int
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: fmt.Sprintf("Serve %d tools (%s) to an AI agent over MCP on stdio", len(mcpserver.Tools), strings.Join(mcpserver.Tools, ", ")),
		Long: `Mcp serves the Model Context Protocol over stdin and stdout, for coding
agents. Its tools work in the root (the current folder, or --root):
discover_tests lists tests, run_tests runs them as 'testdex run' does,
last_test_failures returns the failures of the last run of the root (shared
with 'testdex failures'), affected_tests says which tests a change can
affect ('testdex affected'), and tests_covering which tests executed a line
('testdex covering'). Paths outside the root are refused.

Every tool answer, text and structured content together, stays under
--budget bytes (default 8000, about 2,000 tokens): the counts, the failures
with file:line, message and at most 5 stack lines, the run_tests call that
reruns them; the rest is at the testdex:// resources the answer names.

Stdin carries one JSON-RPC message per line. A line that is not one (not
JSON, not UTF-8, a batch, longer than 4 MiB) gets a JSON-RPC error reply and
the server reads on; it ends when stdin ends.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := index.RootOf(g.root, env.Dir)
			if err != nil {
				return err
			}
			if budget < 0 {
				return usageErr("--budget is a number of bytes, 0 for the default")
			}
			c := mcpserver.Config{Root: root, Environ: env.Environ, Jobs: numCPU(), Version: version(), Budget: budget}
			if !g.noCache {
				c.CacheDir = cacheDir(env)
			}
			return mcpserver.Serve(cmd.Context(), c, env.Stdin, env.Stdout)
		},
	}
	cmd.Flags().IntVar(&budget, "budget", mcpserver.DefaultBudget, "the largest tool answer in bytes, text and structured content together (at least 1000)")
	return cmd
}

// version is the module version testdex was built as, "(devel)" from a
// source tree.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
