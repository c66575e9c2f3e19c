package js

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// glubeanRunner runs Glubean tests through the project's Glubean CLI:
// node_modules/.bin/glubean as node resolves it from the project folder,
// else a glubean on PATH (deno install -g, npm install -g). Nothing is
// fetched (no npx, no deno run jsr:...); a missing CLI is an error
// wrapping lang.ErrNotInstalled that says how to install it.
//
// One command runs one file, `glubean run FILE --result-json OUT`, since
// the result file does not say which file each test came from; the
// records under a path, or the whole project, run as their files. Tests
// named by ID run by their id: --filter ID (the CLI matches a substring of
// the id or name, so a test whose id another's contains runs with it, and
// both are reported), a test.each row by its id template (the CLI filters
// on templates, so every row of the table runs), a test.pick example with
// --pick KEY. Filters one of which contains another share the command of
// the shorter one. Results are read from the result file: each test's
// own result, and each step's (step_end) under it.
type glubeanRunner struct{}

// glubeanBin finds the CLI: node_modules/.bin/glubean in the project
// folder or a parent, else glubean on the PATH of env.
func glubeanBin(dir string, o lang.RunOptions) (string, error) {
	for d := dir; ; {
		bin := filepath.Join(d, "node_modules", ".bin", "glubean")
		if st, err := os.Stat(bin); err == nil && !st.IsDir() {
			return bin, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	pathList := o.Getenv("PATH")
	if pathList == "" {
		pathList = os.Getenv("PATH")
	}
	for _, d := range filepath.SplitList(pathList) {
		if d == "" {
			continue
		}
		bin := filepath.Join(d, "glubean")
		if st, err := os.Stat(bin); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return bin, nil
		}
	}
	return "", fmt.Errorf("%w: the Glubean CLI (glubean is neither in node_modules/.bin of %s or a parent folder nor on PATH; "+
		"install it with npm install -D @glubean/cli in %s, or deno install -A -g -n glubean jsr:@glubean/cli)", lang.ErrNotInstalled, dir, dir)
}

// gcmd is one command's selection: a file, and a filter and pick keys
// (none: the whole file).
type gcmd struct {
	file   string
	filter string
	picks  []string
}

// RunCommands implements lang.Runner.
func (glubeanRunner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	bin, err := glubeanBin(p.Dir, o)
	if err != nil {
		return nil, err
	}
	var out []*lang.Command
	for i, c := range glubeanPlan(sel) {
		res := filepath.Join(o.Dir, "glubean-"+strconv.Itoa(i)+".result.json")
		args := []string{bin, "run", c.file, "--result-json", res}
		if c.filter != "" {
			args = append(args, "--filter", c.filter)
		}
		if len(c.picks) > 0 {
			args = append(args, "--pick", strings.Join(c.picks, ","))
		}
		out = append(out, &lang.Command{Args: append(args, o.Extra...), Dir: p.Dir})
	}
	return out, nil
}

// glubeanPlan groups a selection into commands: each file under a path
// whole, each file of the tests named by ID with their filters.
func glubeanPlan(sel *lang.Selection) []gcmd {
	var out []gcmd
	whole := map[string]bool{}
	for _, ps := range sel.Paths {
		for _, t := range ps.Tests {
			if !whole[t.Scope] {
				whole[t.Scope] = true
				out = append(out, gcmd{file: t.Scope})
			}
		}
	}
	byFile := map[string][]gcmd{}
	var files []string
	for _, t := range sel.Tests {
		if whole[t.Scope] {
			continue
		}
		if _, ok := byFile[t.Scope]; !ok {
			files = append(files, t.Scope)
		}
		filter, pick, _ := strings.Cut(t.Run, " --pick ")
		if filter == "" {
			whole[t.Scope] = true // an id the listing does not know: the file runs whole
			continue
		}
		cs := byFile[t.Scope]
		k := slices.IndexFunc(cs, func(c gcmd) bool { return c.filter == filter })
		if k < 0 {
			cs, k = append(cs, gcmd{file: t.Scope, filter: filter}), len(cs)
		}
		if pick != "" && !slices.Contains(cs[k].picks, pick) {
			cs[k].picks = append(cs[k].picks, pick)
		}
		byFile[t.Scope] = cs
	}
	for _, f := range files {
		if whole[f] {
			if !slices.ContainsFunc(out, func(c gcmd) bool { return c.file == f }) {
				out = append(out, gcmd{file: f})
			}
			continue
		}
		out = append(out, covering(byFile[f])...)
	}
	return out
}

// covering drops the commands another one's filter already runs: the CLI
// matches a filter as a case-insensitive substring, so "flow" runs
// "flow2" too. Pick keys of a dropped command go to the one that covers it.
func covering(cs []gcmd) []gcmd {
	slices.SortStableFunc(cs, func(a, b gcmd) int { return len(a.filter) - len(b.filter) })
	var out []gcmd
	for _, c := range cs {
		k := slices.IndexFunc(out, func(o gcmd) bool {
			return strings.Contains(strings.ToLower(c.filter), strings.ToLower(o.filter))
		})
		if k < 0 {
			out = append(out, c)
			continue
		}
		for _, p := range c.picks {
			if !slices.Contains(out[k].picks, p) {
				out[k].picks = append(out[k].picks, p)
			}
		}
	}
	return out
}

// NewParser implements lang.Runner: the standard output is kept for a
// command that writes no result file; the results come from the file.
func (glubeanRunner) NewParser(_ *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	gp := &glubeanParser{emit: emit}
	for i, a := range cmd.Args {
		switch {
		case a == "run" && i+1 < len(cmd.Args) && gp.file == "":
			gp.file = cmd.Args[i+1]
		case a == "--result-json" && i+1 < len(cmd.Args):
			gp.result = cmd.Args[i+1]
		}
	}
	return gp
}

// glubeanParser reads one command's result file.
type glubeanParser struct {
	emit         func(lang.RunEvent)
	file, result string
	out          bytes.Buffer
}

func (g *glubeanParser) Write(b []byte) (int, error) {
	if g.out.Len() < 1<<20 {
		g.out.Write(b)
	}
	return len(b), nil
}

// glubeanResult is the part of the CLI's --result-json file read.
type glubeanResult struct {
	Tests []struct {
		TestID     string            `json:"testId"`
		Success    bool              `json:"success"`
		DurationMs float64           `json:"durationMs"`
		Events     []json.RawMessage `json:"events"`
	} `json:"tests"`
}

// glubeanEvent is the part of a test's events read.
type glubeanEvent struct {
	Type       string  `json:"type"`
	Name       string  `json:"name"`
	Status     string  `json:"status"`
	Error      string  `json:"error"`
	Message    string  `json:"message"`
	Passed     *bool   `json:"passed"`
	DurationMs float64 `json:"durationMs"`
}

// Close reads the result file and emits each test's result after its
// steps'. A command that wrote none (it refused the file, found no test
// matching the filter, or crashed) is an error of the batch carrying the
// CLI's own words.
func (g *glubeanParser) Close(exitCode int) error {
	data, err := os.ReadFile(g.result)
	var res glubeanResult
	if err == nil {
		err = json.Unmarshal(data, &res)
	}
	if err != nil {
		msg := strings.TrimSpace(g.out.String())
		if len(msg) > 2000 {
			msg = "..." + msg[len(msg)-2000:]
		}
		g.emit(lang.RunEvent{Action: testdex.ActionError, Scope: g.file,
			Message: fmt.Sprintf("glubean run %s wrote no results (exit %d): %s", g.file, exitCode, msg)})
		return nil
	}
	for _, t := range res.Tests {
		g.emit(lang.RunEvent{Action: testdex.ActionRun, Scope: g.file, Name: t.TestID})
		var why []string
		for _, raw := range t.Events {
			var e glubeanEvent
			if json.Unmarshal(raw, &e) != nil {
				continue
			}
			switch {
			case e.Type == "step_end":
				g.emit(lang.RunEvent{Action: stepAction(e.Status), Scope: g.file, Name: t.TestID + " > " + e.Name,
					Kind: testdex.KindSubtest, Elapsed: e.DurationMs / 1000, Message: e.Error})
			case e.Type == "status" && e.Error != "", e.Type == "error" && e.Message != "":
				why = append(why, e.Error+e.Message)
			case e.Type == "assertion" && e.Passed != nil && !*e.Passed:
				why = append(why, e.Message)
			}
		}
		ev := lang.RunEvent{Action: testdex.ActionPass, Scope: g.file, Name: t.TestID, Elapsed: t.DurationMs / 1000}
		if !t.Success {
			ev.Action, ev.Message = testdex.ActionFail, strings.Join(why, "\n")
		}
		g.emit(ev)
	}
	return nil
}

func stepAction(status string) testdex.Action {
	switch status {
	case "passed":
		return testdex.ActionPass
	case "skipped":
		return testdex.ActionSkip
	}
	return testdex.ActionFail
}
