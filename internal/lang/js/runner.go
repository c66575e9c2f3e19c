package js

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// runner runs one JavaScript framework's tests. Every framework gets a
// small reporter module, written to RunOptions.Dir, that appends one JSON
// line per test event to an events file (named by TESTDEX_EVENTS in the
// command's environment) with a synchronous write as each test ends. The
// file is the result channel rather than standard output because tests
// print to standard output too, in-process (Mocha, Jest in band) or
// relayed from workers, and could split or imitate a result line; and
// because each line is on disk before the next test starts, the results
// of the tests that ended survive a run killed at the timeout.
//
// Selection is by file and an anchored name pattern built from the
// records' Run fields (alternation for several), which can select more
// than asked: a pattern applies to every listed file, Jest's -t ignores
// case, node's patterns match a test's own title only. The parser
// therefore reports only results of the selected records and their
// descendants (selection.json beside the events file); a failure outside
// the selection becomes batch output, so nothing is lost.
type runner struct{ fw testdex.Framework }

// runnerFor returns the Runner of a framework, nil when there is none.
func runnerFor(fw testdex.Framework) lang.Runner {
	switch fw {
	case testdex.Jest, testdex.Vitest, testdex.Mocha, testdex.NodeTest:
		return runner{fw}
	}
	return nil
}

// The environment variables that name the events file and the selection.
const (
	envEvents    = "TESTDEX_EVENTS"
	envSelection = "TESTDEX_SELECTION"
)

// RunCommands writes the reporter and the selection to o.Dir and returns
// one command running the selected records' files with their union
// pattern. A record without a pattern (a dynamic name at top level) runs
// its whole file.
func (r runner) RunCommands(p *lang.Project, sel *lang.Selection, o lang.RunOptions) ([]*lang.Command, error) {
	tests := sel.Records()
	if o.Dir == "" {
		return nil, fmt.Errorf("no scratch folder for the %s reporter (the core must set RunOptions.Dir)", r.fw)
	}
	reporter := filepath.Join(o.Dir, "testdex-"+string(r.fw)+"-reporter"+reporterExt[r.fw])
	if err := os.WriteFile(reporter, []byte(reporterSource[r.fw]), 0o644); err != nil {
		return nil, fmt.Errorf("write the %s reporter: %w", r.fw, err)
	}
	chosen, files, pattern := selection(tests)
	selFile := filepath.Join(o.Dir, "selection.json")
	data, _ := json.Marshal(chosen)
	if err := os.WriteFile(selFile, data, 0o644); err != nil {
		return nil, fmt.Errorf("write the %s selection: %w", r.fw, err)
	}
	args := commandArgs(r.fw, reporter, pattern, files, p.Dir, o)
	env := []string{envEvents + "=" + filepath.Join(o.Dir, "events.jsonl"), envSelection + "=" + selFile, "CI=1", "FORCE_COLOR=0"}
	return []*lang.Command{{Args: args, Dir: p.Dir, Env: env}}, nil
}

// selection returns, per project-relative file, the selected names ("" for
// the whole file), the sorted files and the union of the patterns ("" when
// a whole file is selected).
func selection(tests []*testdex.Test) (map[string][]string, []string, string) {
	sel := map[string][]string{}
	var pats []string
	whole := false
	for _, t := range tests {
		name, pat := t.Name, t.Run
		if pat == "" && !t.Dynamic && t.Name != "" { // a row known only at run time
			pat = runPattern(t.Framework, strings.Split(t.Name, " > "), t.Kind == testdex.KindSuite)
		}
		if pat == "" || t.Dynamic {
			name, whole = "", true
		}
		sel[t.Scope] = append(sel[t.Scope], name)
		pats = append(pats, pat)
	}
	files := make([]string, 0, len(sel))
	for f := range sel {
		files = append(files, f)
	}
	sort.Strings(files)
	if whole {
		return sel, files, ""
	}
	sort.Strings(pats)
	return sel, files, strings.Join(compactStrings(pats), "|")
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// millis renders a duration option in milliseconds.
func millis(o lang.RunOptions) string { return strconv.FormatInt(o.TestTimeout.Milliseconds(), 10) }

// NewParser returns the parser of a command RunCommands built: standard
// output becomes batch output, and Close reads the events file.
func (r runner) NewParser(p *lang.Project, cmd *lang.Command, emit func(lang.RunEvent)) lang.Parser {
	ps := newParser(p.Dir, nil, emit)
	for _, kv := range cmd.Env {
		switch k, v, _ := strings.Cut(kv, "="); k {
		case envEvents:
			ps.eventsFile = v
		case envSelection:
			if data, err := os.ReadFile(v); err == nil {
				_ = json.Unmarshal(data, &ps.sel)
			}
		}
	}
	return ps
}
