package cli

import (
	"bufio"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

func newCheckCmd(env *Env, g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check [PATH...]",
		Short: "Compare the static listing with each framework's own (runs project code)",
		Long: `Check lists the tests statically, asks each framework for its own list
(go test -list, pytest --collect-only, vitest list, cargo test -- --list, ...)
and prints the differences:

  static-only   a record testdex found that the framework did not report
  runtime-only  a test the framework reported that no record names

Runtime tests covered by a dynamic record are counted, not listed.
Frameworks that cannot list their own tests (semtest, skilltest, JUnit in
Gradle projects) are not compared.

Exit status: 0 when both agree, 1 when they differ or a framework's
listing failed, 2 when there are no tests, 3 for a usage error (bad flag,
configuration, or a named path that does not exist or lies outside the
root).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ix, err := index.Build(cmd.Context(), g.indexOptions(env, args))
			if err != nil {
				return err
			}
			if e := ix.NoTests(); e != nil {
				return e
			}
			cmp, err := ix.Exact(cmd.Context(), index.ExactOptions{Env: env.Environ})
			if err != nil {
				return err
			}
			printProblems(env.Stderr, ix.Problems, true)
			w := bufio.NewWriter(env.Stdout)
			if asJSON {
				err = writeJSON(w, append(cmp.StaticOnly, cmp.RuntimeOnly...))
			} else {
				writeComparison(w, cmp)
			}
			if ferr := w.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return err
			}
			if !cmp.Agree() {
				return &ExitError{Code: ExitFailed}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the differing records as JSON Lines (seen tells which side has them)")
	return cmd
}

func writeComparison(w *bufio.Writer, c *index.Comparison) {
	show := func(label string, ts []testdex.Test) {
		for _, t := range ts {
			fmt.Fprintf(w, "%-13s %s  (%s %s)\n", label, t.ID, t.Framework, t.Scope)
		}
	}
	show("static-only", c.StaticOnly)
	show("runtime-only", c.RuntimeOnly)
	for _, p := range c.Failed {
		fmt.Fprintf(w, "%-13s %s: %s\n", "failed", p.Path, p.Message)
	}
	verdict := "agree"
	if !c.Agree() {
		verdict = "differ"
	}
	fmt.Fprintf(w, "static and runtime listings %s: %d confirmed, %d static only, %d runtime only, %d covered by dynamic records, %d listings failed\n",
		verdict, c.Confirmed, len(c.StaticOnly), len(c.RuntimeOnly), c.Covered, len(c.Failed))
}
