package mutbench

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Report is one benchmark run: the JSON file -json writes, and what
// Markdown renders.
type Report struct {
	Started     time.Time        `json:"started"`
	WallSeconds float64          `json:"wall_seconds"`
	Testdex     string           `json:"testdex"`
	Seed        uint64           `json:"seed"`
	N           int              `json:"mutants_per_project"`
	Change      string           `json:"change"`
	Modes       []Mode           `json:"modes"`
	Projects    []*ProjectResult `json:"projects"`
}

// ProjectResult is one project's figures and mutants.
type ProjectResult struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Framework string `json:"framework"`
	Skipped   string `json:"skipped,omitempty"`
	Err       string `json:"error,omitempty"`
	// Tests is how many tests the unmutated suite reports (parents and
	// rows as the runner counts them); TestFiles how many files testdex
	// lists tests in.
	Tests           int     `json:"tests"`
	TestFiles       int     `json:"test_files"`
	BaselineFailing int     `json:"baseline_failing"`
	BaselineSeconds float64 `json:"baseline_seconds"`
	SourceFiles     int     `json:"source_files"`
	Sites           int     `json:"sites"`
	// Tried counts the mutants applied, Compiled those that compiled,
	// Killed those after which a test failed (the suite ending in time),
	// TimedOut those whose suite outlived the timeout.
	Tried       int           `json:"tried"`
	Compiled    int           `json:"compiled"`
	Killed      int           `json:"killed"`
	TimedOut    int           `json:"timed_out"`
	Summary     []ModeSummary `json:"summary"`
	Mutants     []*Mutant     `json:"mutants"`
	WallSeconds float64       `json:"wall_seconds"`
	// CoverageSeconds is the one `testdex run --coverage` (Config.Coverage).
	CoverageSeconds float64 `json:"coverage_seconds,omitempty"`
	// LineCostTests is the mean over compiled mutants of Mutant's: the
	// floor of any selection from per-test line coverage.
	LineCostTests float64 `json:"line_cost_tests,omitempty"`
}

// ModeSummary is a project's figures in one mode. Safety counts the killed
// mutants whose failing tests were all selected (at file and at test
// level); the means run over every compiled mutant.
type ModeSummary struct {
	Mode          string  `json:"mode"`
	SafeFile      int     `json:"safe_file"`
	SafeTest      int     `json:"safe_test"`
	Killed        int     `json:"killed"`
	MeanCostTests float64 `json:"mean_cost_tests"`
	MeanCostFiles float64 `json:"mean_cost_files"`
	MeanSelection float64 `json:"mean_selection_ms"`
	Errors        int     `json:"errors"`
}

// Mutant is one mutant's outcome.
type Mutant struct {
	Site
	NoCompile  string   `json:"no_compile,omitempty"`
	TimedOut   bool     `json:"timed_out,omitempty"`
	Err        string   `json:"error,omitempty"`
	RunSeconds float64  `json:"run_seconds,omitempty"`
	NFailing   int      `json:"n_failing"`
	Failing    []string `json:"failing,omitempty"` // at most maxListed
	// Flaky are tests that failed in the first run only: when a mode
	// missed a failing test the suite runs again, and only the failures
	// both runs share are the mutant's.
	Flaky []string     `json:"flaky,omitempty"`
	Modes []ModeResult `json:"modes,omitempty"`
	// CoveringChecked says `testdex covering FILE:LINE` of the mutated
	// line was asked (Config.Coverage) and the mutant killed;
	// CoveringMissed are the failing tests it did not list.
	CoveringChecked bool     `json:"covering_checked,omitempty"`
	CoveringMissed  []string `json:"covering_missed,omitempty"`
	// LineCostTests is the share of the suite that executed the mutated
	// line when recorded (`covering FILE:LINE`; with coverage only): a
	// selection from per-test line coverage that keeps every test whose
	// execution may change cannot pick fewer.
	LineCostTests *float64 `json:"line_cost_tests,omitempty"`
}

// ModeResult is what testdex selected for one mutant in one mode.
type ModeResult struct {
	Mode          string   `json:"mode"`
	Selected      int      `json:"selected_records"`
	SelectedFiles int      `json:"selected_files"`
	CostTests     float64  `json:"cost_tests"`
	CostFiles     float64  `json:"cost_files"`
	SafeFile      bool     `json:"safe_file"`
	SafeTest      bool     `json:"safe_test"`
	MissedFiles   []string `json:"missed_files,omitempty"` // failing tests whose file was not selected
	Missed        []string `json:"missed,omitempty"`       // failing tests not selected
	SelectionMS   float64  `json:"selection_ms"`
	Err           string   `json:"error,omitempty"`
}

func (m *Mutant) compiled() bool { return m.NoCompile == "" && m.Err == "" }
func (m *Mutant) killed() bool   { return m.compiled() && !m.TimedOut && m.NFailing > 0 }

// line is the mutant's progress line.
func (m *Mutant) line() string {
	switch {
	case m.Err != "":
		return m.Site.String() + ": error: " + firstLines(m.Err, 2)
	case m.NoCompile != "":
		return m.Site.String() + ": does not compile"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d failing (%.1f s)", m.Site, m.NFailing, m.RunSeconds)
	if m.TimedOut {
		b.WriteString(", timed out")
	}
	if len(m.Flaky) > 0 {
		fmt.Fprintf(&b, ", %d more failed once only (flaky)", len(m.Flaky))
	}
	for _, mr := range m.Modes {
		fmt.Fprintf(&b, "; %s: %d records, %s, %.0f ms", mr.Mode, mr.Selected, safeWord(mr), mr.SelectionMS)
	}
	return b.String()
}

func safeWord(mr ModeResult) string {
	switch {
	case mr.Err != "":
		return "ERROR " + firstLines(mr.Err, 1)
	case !mr.SafeFile:
		return "UNSAFE (files)"
	case !mr.SafeTest:
		return "UNSAFE (tests)"
	}
	return "safe"
}

func (pr *ProjectResult) add(m *Mutant) {
	pr.Mutants = append(pr.Mutants, m)
	pr.Tried++
	if !m.compiled() {
		return
	}
	pr.Compiled++
	if m.TimedOut {
		pr.TimedOut++
	}
	if m.killed() {
		pr.Killed++
	}
}

func (pr *ProjectResult) summarize(modes []Mode) {
	pr.Summary = nil
	pr.LineCostTests = 0
	lines := 0
	for _, m := range pr.Mutants {
		if m.compiled() && m.LineCostTests != nil {
			pr.LineCostTests += *m.LineCostTests
			lines++
		}
	}
	if lines > 0 {
		pr.LineCostTests /= float64(lines)
	}
	for i, mode := range modes {
		s := ModeSummary{Mode: mode.Name}
		n := 0
		for _, m := range pr.Mutants {
			if !m.compiled() || i >= len(m.Modes) {
				continue
			}
			mr := m.Modes[i]
			n++
			s.MeanCostTests += mr.CostTests
			s.MeanCostFiles += mr.CostFiles
			s.MeanSelection += mr.SelectionMS
			if mr.Err != "" {
				s.Errors++
			}
			if m.killed() {
				s.Killed++
				if mr.SafeFile {
					s.SafeFile++
				}
				if mr.SafeTest {
					s.SafeTest++
				}
			}
		}
		if n > 0 {
			s.MeanCostTests /= float64(n)
			s.MeanCostFiles /= float64(n)
			s.MeanSelection /= float64(n)
		}
		pr.Summary = append(pr.Summary, s)
	}
}

// Markdown writes the report: the table, then every unsafe mutant, the
// projects skipped, and with several modes each mode's cost beside the
// first's.
func (r *Report) Markdown(w io.Writer) {
	var modes []string
	for _, m := range r.Modes {
		modes = append(modes, m.Name+argsNote(m))
	}
	if r.Testdex != "" {
		fmt.Fprintf(w, "%s; ", r.Testdex)
	}
	fmt.Fprintf(w, "seed %d, %d compiling mutants per project, the change given as %s, modes: %s; %s in all\n\n",
		r.Seed, r.N, map[string]string{"files": "--files FILE", "git": "a git work tree"}[r.Change],
		strings.Join(modes, ", "), minutes(r.WallSeconds))
	fmt.Fprintln(w, "| project | runner | tests | test files | sites | tried | compiled | killed | timed out | mode | safe (files) | safe (tests) | cost (tests) | cost (files) | selection | suite | time |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|")
	for _, p := range r.Projects {
		if p.Skipped != "" || p.Err != "" {
			continue
		}
		for _, s := range p.Summary {
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %s | %s | %s | %s | %s | %.0f ms | %.1f s | %s |\n",
				p.Name, p.Framework, p.Tests, p.TestFiles, p.Sites, p.Tried, p.Compiled, p.Killed, p.TimedOut,
				s.Mode, share(s.SafeFile, s.Killed), share(s.SafeTest, s.Killed), pct(s.MeanCostTests), pct(s.MeanCostFiles),
				s.MeanSelection, p.BaselineSeconds, minutes(p.WallSeconds))
		}
	}
	r.writeUnsafe(w)
	r.writeProblems(w)
	r.writeComparison(w)
	r.writeCovering(w)
}

func argsNote(m Mode) string {
	var parts []string
	if m.Bin != "" {
		parts = append(parts, m.Bin)
	}
	parts = append(parts, m.Args...)
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, " ") + ")"
}

func (r *Report) writeUnsafe(w io.Writer) {
	first := true
	for _, p := range r.Projects {
		for _, m := range p.Mutants {
			for _, mr := range m.Modes {
				if !m.killed() || mr.SafeFile && mr.SafeTest {
					continue
				}
				if first {
					fmt.Fprintf(w, "\nUnsafe mutants (a failing test testdex did not select):\n\n")
					first = false
				}
				missed := mr.Missed
				level := "test"
				if !mr.SafeFile {
					missed, level = mr.MissedFiles, "file"
				}
				more := ""
				if len(missed) > 5 {
					missed, more = missed[:5], fmt.Sprintf("; and more (-json lists up to %d)", maxListed)
				}
				fmt.Fprintf(w, "- %s, %s, %s: %d failing, not selected at %s level: %s%s\n",
					p.Name, mr.Mode, m.Site, m.NFailing, level, strings.Join(missed, "; "), more)
			}
		}
	}
}

func (r *Report) writeProblems(w io.Writer) {
	first := true
	note := func(format string, args ...any) {
		if first {
			fmt.Fprintf(w, "\nNot measured, and flaky tests:\n\n")
			first = false
		}
		fmt.Fprintf(w, "- "+format+"\n", args...)
	}
	for _, p := range r.Projects {
		switch {
		case p.Skipped != "":
			note("%s: %s", p.Name, p.Skipped)
		case p.Err != "":
			note("%s: %s", p.Name, firstLines(p.Err, 4))
		}
		for _, m := range p.Mutants {
			if m.Err != "" {
				note("%s, %s: %s", p.Name, m.Site, firstLines(m.Err, 2))
			}
			if len(m.Flaky) > 0 {
				note("%s, %s: failed in one of two runs, not counted (flaky): %s", p.Name, m.Site, strings.Join(m.Flaky, "; "))
			}
			for _, mr := range m.Modes {
				if mr.Err != "" {
					note("%s, %s, %s: testdex: %s", p.Name, mr.Mode, m.Site, firstLines(mr.Err, 2))
				}
			}
		}
	}
}

// writeComparison shows each mode's mean cost beside the first mode's:
// the goal is function-level selection at most half of
// package-level selection on a single-package Go module.
func (r *Report) writeComparison(w io.Writer) {
	if len(r.Modes) < 2 {
		return
	}
	floor := false
	for _, p := range r.Projects {
		floor = floor || p.LineCostTests > 0
	}
	fmt.Fprintf(w, "\nCost (tests) of each mode beside %s:\n\n| project |", r.Modes[0].Name)
	for _, m := range r.Modes[1:] {
		fmt.Fprintf(w, " %s / %s |", m.Name, r.Modes[0].Name)
	}
	cols := len(r.Modes) - 1
	if floor {
		fmt.Fprintf(w, " executed the mutated line / %s |", r.Modes[0].Name)
		cols++
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("--:|", cols))
	for _, p := range r.Projects {
		if len(p.Summary) != len(r.Modes) {
			continue
		}
		fmt.Fprintf(w, "| %s |", p.Name)
		for _, s := range p.Summary[1:] {
			fmt.Fprintf(w, " %s |", pct(ratioF(s.MeanCostTests, p.Summary[0].MeanCostTests)))
		}
		if floor {
			fmt.Fprintf(w, " %s |", pct(ratioF(p.LineCostTests, p.Summary[0].MeanCostTests)))
		}
		fmt.Fprintln(w)
	}
}

func ratioF(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func share(n, d int) string {
	if d == 0 {
		return "n/a (0 killed)"
	}
	return fmt.Sprintf("%s (%d/%d)", pct(ratio(n, d)), n, d)
}

func pct(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }

func minutes(s float64) string {
	if s < 60 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f min", s/60)
}
