package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/state"
)

func newIndexCmd(env *Env, g *globals) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "index -o FILE [PATH...]",
		Short: "Write a metadata file (per file: content hash and tests) that 'list --from' reads offline",
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageErr("index needs -o FILE (use -o - for standard output)")
			}
			ix, err := index.Build(cmd.Context(), g.indexOptions(env, args))
			if err != nil {
				return err
			}
			printProblems(env.Stderr, ix.Problems, true)
			if out == "-" {
				w := bufio.NewWriter(env.Stdout)
				if err := ix.WriteMetadata(w); err != nil {
					return err
				}
				return w.Flush()
			}
			return writeFileAtomic(abs(env, out), ix.WriteMetadata)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the metadata file to write (- for standard output)")
	return cmd
}

// writeFileAtomic writes path with state.WriteAtomic (a reader never sees
// half a file), naming it in an error.
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	if err := state.WriteAtomic(path, write); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func abs(env *Env, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(env.Dir, p)
}

func readMetadata(env *Env, root, from string) (*index.Index, error) {
	f, err := os.Open(abs(env, from))
	if err != nil {
		return nil, usageErr("%v (write one with 'testdex index -o FILE')", err)
	}
	defer f.Close()
	ix, err := index.ReadMetadata(f, from, root)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return ix, nil
}
