package mutbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// record runs `testdex run --coverage` once on the unmutated copy; a
// failing test is no error (its record is kept, and affected gives it
// the static evidence).
func (r *projectRun) record(ctx context.Context) error {
	// The project's environment (its PYTHONPATH naming the copy's src):
	// the tests must import the copy, as its native suite does.
	x := &Exec{Ctx: ctx, Dir: r.dir, Env: r.x.Env, Timeout: 15 * time.Minute}
	var out, errb bytes.Buffer
	code, err := x.run(&out, &errb, r.cfg.Testdex, "--root", r.dir, "run", "--coverage")
	if err != nil {
		return fmt.Errorf("testdex run --coverage: %w", err)
	}
	if code > 1 || !strings.Contains(errb.String(), "coverage of") {
		return fmt.Errorf("testdex run --coverage exited %d: %s", code, firstLines(errb.String(), 5))
	}
	return nil
}

// covering asks which tests executed the site's line, on the unmutated
// copy (the recorded version), as a selection; nil when testdex could not
// say (an empty selection when no test executed it).
func (r *projectRun) covering(ctx context.Context, s Site) *selection {
	out, _, err := r.testdex(ctx, "", "covering", fmt.Sprintf("%s:%d", s.File, s.Line), "--json")
	if err != nil && !strings.Contains(err.Error(), "exited 2") {
		return nil
	}
	var ans struct {
		Tests []struct {
			ID string `json:"id"`
		} `json:"tests"`
	}
	if len(out) > 0 {
		if err := json.Unmarshal(out, &ans); err != nil {
			return nil
		}
	}
	var recs []record
	for _, t := range ans.Tests {
		recs = append(recs, r.recordFor(t.ID))
	}
	return newSelection(recs, r.l)
}

// recordFor is the listing's record of a recorded test, or one made up
// for a test named at run time: its file from the ID, its parent the
// longest listed ID it extends.
func (r *projectRun) recordFor(id string) record {
	if rec, ok := r.l.byID[id]; ok {
		return rec
	}
	rec := record{ID: id}
	if f, _, ok := strings.Cut(id, "::"); ok {
		rec.File = f
	}
	for p := id; p != ""; {
		i := strings.LastIndexAny(p, "[/ >:.")
		if i <= 0 {
			break
		}
		p = p[:i]
		if parent, ok := r.l.byID[p]; ok {
			rec.Parent, rec.File = p, parent.File
			break
		}
	}
	return rec
}

// writeCovering renders the covering check: per project, the killed
// mutants asked and those whose failing tests `covering` did not all list.
func (r *Report) writeCovering(w io.Writer) {
	said := false
	for _, p := range r.Projects {
		checked, missed := 0, 0
		var lines []string
		for _, m := range p.Mutants {
			if !m.CoveringChecked {
				continue
			}
			checked++
			if len(m.CoveringMissed) > 0 {
				missed++
				lines = append(lines, fmt.Sprintf("  - %s: not listed: %s", m.Site, strings.Join(m.CoveringMissed, ", ")))
			}
		}
		if checked == 0 {
			continue
		}
		if !said {
			fmt.Fprintf(w, "\n`testdex covering FILE:LINE` of each killed mutant's line (recorded once, %s):\n\n", "unmutated")
			said = true
		}
		fmt.Fprintf(w, "- %s: %d of %d killed mutants had every failing test listed (recording %.1f s)\n", p.Name, checked-missed, checked, p.CoverageSeconds)
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
}
