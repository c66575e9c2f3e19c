package skilltest

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
)

// The output formats of a command.
const (
	FormatJSON = "json" // one {passed, failed, errors} object on stdout
	FormatTAP  = "tap"  // a TAP stream on stdout
)

// commands reads and checks testdex.toml's [skilltest] commands. A
// command without a name or argv, with an unknown format, or whose name is
// taken is left out with a Problem; the rest are returned by name, with
// the format defaulted.
func commands(data []byte) (map[string]config.Command, []config.Command, []testdex.Problem) {
	cfg, err := config.Parse(config.FileName, data)
	if err != nil {
		return nil, nil, []testdex.Problem{{Severity: testdex.SevError, Message: fmt.Sprintf("read [skilltest] commands: %v", err)}}
	}
	byName := map[string]config.Command{}
	var order []config.Command
	var probs []testdex.Problem
	for i, c := range cfg.Frameworks[string(testdex.SkillTest)].Commands {
		if c.Format == "" {
			c.Format = FormatJSON
		}
		bad := ""
		switch {
		case c.Name == "":
			bad = "has no name (add name = \"...\")"
		case len(c.Run) == 0 || c.Run[0] == "":
			bad = "has no run argv (add run = [\"./check.sh\"])"
		case c.Format != FormatJSON && c.Format != FormatTAP:
			bad = fmt.Sprintf("has format %q (use \"json\" or \"tap\")", c.Format)
		case byName[c.Name].Name != "":
			bad = "repeats an earlier command's name (names must be unique)"
		}
		if bad != "" {
			probs = append(probs, testdex.Problem{Severity: testdex.SevError, Line: declLine(data, c.Name),
				Message: fmt.Sprintf("[skilltest] command %d %s", i+1, bad)})
			continue
		}
		byName[c.Name] = c
		order = append(order, c)
	}
	return byName, order, probs
}

// extractCommands turns the declared commands into records.
func extractCommands(data []byte) lang.Result {
	_, order, probs := commands(data)
	if cfg, err := config.Parse(config.FileName, data); err == nil {
		probs = append(probs, skillProblems(cfg.Frameworks[string(testdex.SkillTest)].Skills)...)
	}
	res := lang.Result{Problems: probs}
	for _, c := range order {
		res.Tests = append(res.Tests, lang.Test{Kind: testdex.KindTest, Name: c.Name, Scope: CommandScope, Line: declLine(data, c.Name)})
	}
	return res
}

// declLine finds the line declaring a command: the first line after the
// [skilltest] header holding its quoted name; 1 when not found (the TOML
// decoder keeps no positions for inline tables).
func declLine(data []byte, name string) int {
	quoted := []byte(strconv.Quote(name))
	single := []byte("'" + name + "'")
	in := false
	for i, l := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimSpace(l)
		if bytes.HasPrefix(t, []byte("[")) && bytes.HasSuffix(t, []byte("]")) {
			in = string(t) == "[skilltest]" || string(t) == "[[skilltest.commands]]"
		}
		if in && name != "" && (bytes.Contains(l, quoted) || bytes.Contains(l, single)) {
			return i + 1
		}
	}
	return 1
}
