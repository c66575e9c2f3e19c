package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/coverage/htmlreport"
)

func newCoverageCmd(env *Env, g *globals) *cobra.Command {
	var asJSON bool
	var htmlDir string
	cmd := &cobra.Command{
		Use:   "coverage [PATH...] [--json] [--html DIR]",
		Short: "Report, per file and function, the tests that executed it, and the untested functions",
		Long: `Coverage reads what 'testdex run --coverage' recorded and prints, per
source file, how many of its functions some test executed, then the
functions no test executed (path:line name). Files of the recorded
languages that no test loaded are listed too, wholly untested. A file
changed since it was recorded is answered through its unchanged
functions; a function that changed is stale (no test is known to
execute it) and says so. PATHs keep the files under them.

--json prints one object a line, one per file. --html DIR writes a
static site to DIR: an index of the files, a page per file with its
lines marked, and a page per test.

Exit status: 0 for a report, 2 when no coverage was recorded (or no
file lies under the PATHs), 3 for a usage error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCoverage(cmd, env, g, args, asJSON, htmlDir)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object a line, one per file")
	cmd.Flags().StringVar(&htmlDir, "html", "", "write the report as a static HTML site into this folder")
	return cmd
}

func runCoverage(cmd *cobra.Command, env *Env, g *globals, args []string, asJSON bool, htmlDir string) error {
	ws, err := g.workspace(env, args)
	if err != nil {
		return err
	}
	ix, err := ws.List(cmd.Context(), nil)
	if err != nil {
		return err
	}
	within, err := coverageWithin(env, ix.Root, args)
	if err != nil {
		return err
	}
	rep, err := coverageReport(cmd, ix, cacheDir(env), within)
	gaps := gapsWithin(ws.CoverageGaps(), within)
	switch {
	case errors.Is(err, coverage.ErrNoData) && len(gaps) > 0:
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("no coverage recorded for %s: %s", ix.Root, joinGaps(gaps))}
	case errors.Is(err, coverage.ErrNoData):
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("no coverage recorded for %s (run 'testdex run --coverage' first)", ix.Root)}
	case errors.Is(err, coverage.ErrDamaged):
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("%v (run 'testdex run --coverage' to rebuild it)", err)}
	case err != nil:
		return err
	}
	for _, g := range gaps { // their files are not in the report: say why
		fmt.Fprintln(env.Stderr, "testdex: warning: "+g.String())
	}
	if len(rep.Files) == 0 {
		return &ExitError{Code: ExitNoTests, Err: fmt.Errorf("no recorded or source file under %s (run 'testdex coverage' to see them all)", strings.Join(args, " "))}
	}
	if htmlDir != "" {
		dir := abs(env, htmlDir)
		read := func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(ix.Root, filepath.FromSlash(rel))) }
		n, err := htmlreport.Write(dir, rep, htmlreport.Options{Read: read, Title: "Coverage of " + ix.Root})
		if errors.Is(err, htmlreport.ErrNotSite) {
			return usageErr("--html: %v", err)
		} else if err != nil {
			return fmt.Errorf("write the coverage site: %w", err)
		}
		fmt.Fprintf(env.Stderr, "testdex: coverage site of %d files and %d tests written to %s\n", len(rep.Files), n, filepath.Join(dir, "index.html"))
	}
	w := bufio.NewWriter(env.Stdout)
	defer w.Flush()
	if asJSON {
		return writeCoverageJSON(w, rep)
	}
	if htmlDir == "" {
		writeCoverageText(w, rep)
	}
	return nil
}

// coverageWithin turns the PATH arguments into root-relative,
// slash-separated paths ("" for the root); a path outside the root is a
// usage error. A path need not exist: a file gone since it was recorded
// can be asked about.
func coverageWithin(env *Env, root string, args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		rel, err := filepath.Rel(root, absUnder(env, root, a))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, usageErr("%s is outside the root %s", a, root)
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		out = append(out, rel)
	}
	return out, nil
}

// underAny reports whether path is one of within or lies below one; an
// empty within keeps everything.
func underAny(within []string, path string) bool {
	if len(within) == 0 {
		return true
	}
	for _, w := range within {
		if w == "" || path == w || strings.HasPrefix(path, w+"/") {
			return true
		}
	}
	return false
}

// writeCoverageText prints a line per file, "path  covered/total
// functions" with its state when it is not as recorded, then the untested
// functions as "path:line name".
func writeCoverageText(w io.Writer, rep *coverage.Report) {
	covered, total := 0, 0
	for _, f := range rep.Files {
		covered, total = covered+f.Covered, total+f.Total
		fmt.Fprintf(w, "%s  %d/%d functions%s\n", f.Path, f.Covered, f.Total, stateNote(f))
	}
	fmt.Fprintf(w, "total  %d/%d functions executed by %s\n", covered, total, plural(len(rep.Tests), "test"))
	untested := rep.Untested()
	if len(untested) == 0 {
		return
	}
	fmt.Fprintf(w, "\nuntested functions (%d):\n", len(untested))
	for _, u := range untested {
		line := fmt.Sprintf("%s:%d %s", u.Path, u.Func.Start, u.Func.Name)
		if n := len(u.Func.Stale); n > 0 {
			line += fmt.Sprintf("  (stale: %s recorded before it changed; run 'testdex run --coverage' again)", plural(n, "test"))
		}
		fmt.Fprintln(w, line)
	}
}

// stateNote says what is unusual about a file: changed, gone, never
// loaded, or cut into no functions.
func stateNote(f coverage.FileReport) string {
	switch {
	case f.State == coverage.StateGone:
		return fmt.Sprintf("  (gone since %s recorded it)", plural(len(f.Tests), "test"))
	case f.State == coverage.StateUnrecorded:
		return "  (no test loaded it)"
	case !f.FuncsKnown:
		return "  (its functions are unknown: no function cutter for its language, or it does not parse)"
	case f.State == coverage.StateChanged:
		return "  (changed since recorded: answered through its unchanged functions)"
	}
	return ""
}

// writeCoverageJSON prints one object a line, one per file.
func writeCoverageJSON(w io.Writer, rep *coverage.Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, f := range rep.Files {
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	return nil
}

// readFile reads a root-relative file; ok is false when it is gone.
func readFile(root, rel string) ([]byte, bool) {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	return src, err == nil
}

// gapsWithin are the gaps of projects under or holding one of within
// (root-relative, "" for the root); all of them when within is empty.
func gapsWithin(gaps []coverage.Gap, within []string) []coverage.Gap {
	if len(within) == 0 {
		return gaps
	}
	under := func(p, dir string) bool { return dir == "" || dir == "." || p == dir || strings.HasPrefix(p, dir+"/") }
	var out []coverage.Gap
	for _, g := range gaps {
		for _, w := range within {
			if under(g.Project, w) || under(w, g.Project) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// joinGaps words gaps for one error message.
func joinGaps(gaps []coverage.Gap) string {
	parts := make([]string, len(gaps))
	for i, g := range gaps {
		parts[i] = g.String()
	}
	return strings.Join(parts, "; ")
}
