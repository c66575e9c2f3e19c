package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

type affectedFlags struct {
	since   string
	files   []string
	json    bool
	explain string
	noCover bool
}

func newAffectedCmd(env *Env, g *globals) *cobra.Command {
	f := &affectedFlags{}
	cmd := &cobra.Command{
		Use:   "affected [PATH...]",
		Short: "List the tests a change can affect, with the reason for each",
		Long: `Affected lists the tests the change can affect: the work tree (staged,
unstaged, untracked, deleted and renamed files) against --since (default
HEAD), or the files named with --files. Each test file comes with its
reason: the changed file and the chain of uses from the test to it. PATHs
limit the tests reported, not the change.

Nothing is run: the evidence is read from sources and manifests, and from
the coverage 'testdex run --coverage' recorded: a test with a record is
affected when a function it executed changed (or one that a test run
before it in the same process executed), or when the change lies
where coverage cannot see (outside function bodies, a data file, an
added or deleted file) and the sources say so (--no-coverage: the
sources alone). What cannot be resolved selects more, never less.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runAffected(cmd, env, g, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.since, "since", "", "the revision the work tree is compared with (default HEAD; origin/main for a branch)")
	fl.StringSliceVar(&f.files, "files", nil, "the changed files, root-relative, instead of asking git")
	fl.BoolVar(&f.json, "json", false, "JSON Lines: the records of 'testdex list --json', each with its reason")
	fl.StringVar(&f.explain, "explain", "", "say why the test with this ID is or is not affected")
	fl.BoolVar(&f.noCover, "no-coverage", false, "ignore the recorded coverage: the static evidence alone")
	return cmd
}

func runAffected(cmd *cobra.Command, env *Env, g *globals, f *affectedFlags, args []string) error {
	if f.since != "" && len(f.files) > 0 {
		return usageErr("--since and --files exclude each other")
	}
	ws, err := g.workspace(env, args)
	if err != nil {
		return err
	}
	ix, err := ws.List(cmd.Context(), args)
	if err != nil {
		return err
	}
	printProblems(env.Stderr, ix.Problems, true)
	res, err := affectedTests(cmd, env, ws, ix, f.since, f.files, !f.noCover)
	if err != nil {
		return err
	}
	affected := res.Affected
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	if f.explain != "" {
		return explainAffected(w, ix, affected, f.explain)
	}
	if len(args) > 0 {
		affected = under(env, ix.Root, affected, args)
	}
	if f.json {
		return writeAffectedJSON(w, affected)
	}
	for _, a := range affected {
		for _, line := range a.Lines() {
			fmt.Fprintln(w, report.Escape(line))
		}
	}
	if len(affected) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, changes.Summary(res.Set, affected))
	return nil
}

// affectedTests asks the workspace which tests the change can affect
// (workspace.Affected) and says its problems and notes on stderr. The
// files named with --files are root-relative, as the help says (absolute
// ones inside the root are taken too: changes.RootFiles).
func affectedTests(cmd *cobra.Command, env *Env, ws *workspace.Workspace, ix *index.Index, since string, files []string, useCoverage bool) (*workspace.AffectedResult, error) {
	res, err := ws.Affected(cmd.Context(), ix, workspace.AffectedRequest{Since: since, Files: files, NoCoverage: !useCoverage})
	var ue *workspace.UsageError
	if errors.As(err, &ue) {
		return nil, usageErr("%v", ue.Err)
	}
	if err != nil {
		return nil, err
	}
	for _, p := range res.Said() {
		fmt.Fprintln(env.Stderr, "testdex: "+report.Escape(p.String()))
	}
	for _, n := range res.Notes {
		fmt.Fprintln(env.Stderr, "testdex: "+report.Escape(n))
	}
	return res, nil
}

// under keeps the affected files under the named paths.
func under(env *Env, root string, affected []changes.Affected, paths []string) []changes.Affected {
	var rels []string
	for _, p := range paths {
		if rel, err := filepath.Rel(root, absUnder(env, root, p)); err == nil {
			rels = append(rels, filepath.ToSlash(rel))
		}
	}
	var out []changes.Affected
	for _, a := range affected {
		for _, r := range rels {
			if r == "." || a.File == r || strings.HasPrefix(a.File, r+"/") {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// affectedRecord is a record of 'testdex list --json' with its reason.
type affectedRecord struct {
	testdex.Test
	Reason     string         `json:"reason"`
	ReasonData changes.Reason `json:"reason_detail"`
}

func writeAffectedJSON(w io.Writer, affected []changes.Affected) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, a := range affected {
		for i, t := range a.Tests {
			r := a.ReasonOf(i)
			if err := enc.Encode(affectedRecord{Test: t, Reason: r.String(), ReasonData: r}); err != nil {
				return err
			}
		}
	}
	return nil
}

// explainAffected says why one test is or is not affected: its own
// reason, or its nearest selected ancestor's (a subtest known only at run
// time), when only some tests of its file are.
func explainAffected(w io.Writer, ix *index.Index, affected []changes.Affected, id string) error {
	namer := ix.NewNamer()
	t, ok := namer.ForID(id)
	if !ok {
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("no test matches %q (run 'testdex list' to see test IDs)", id)}
	}
	for _, a := range affected {
		if a.File != t.File {
			continue
		}
		if a.Whole() {
			fmt.Fprintf(w, "%s is affected: %s\n", report.Escape(id), report.Escape(a.Reason.String()))
			return nil
		}
		for n := t; ; {
			for i, s := range a.Tests {
				if s.ID == n.ID {
					fmt.Fprintf(w, "%s is affected: %s\n", report.Escape(id), report.Escape(a.ReasonOf(i).String()))
					return nil
				}
			}
			p, ok := namer.ForID(n.Parent)
			if n.Parent == "" || !ok {
				break
			}
			n = p
		}
		var others []string
		for _, i := range a.Top() {
			others = append(others, a.Tests[i].Name)
		}
		fmt.Fprintf(w, "%s is not affected: the change reaches other tests of %s only (%s)\n", report.Escape(id), report.Escape(t.File), report.Escape(strings.Join(others, ", ")))
		return nil
	}
	fmt.Fprintf(w, "%s is not affected: no change reaches %s\n", report.Escape(id), report.Escape(t.File))
	return nil
}
