package js

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/testdex/testdex"
)

// testScript is how the project's own test command (package.json's
// scripts.test) runs a framework: `NODE_ENV=test mocha --require x test/`
// gives Env [NODE_ENV=test] and Args [--require x test/]. The zero value
// is a project whose test command does not run the framework: it runs with
// the framework's defaults and its configuration files.
type testScript struct {
	// Env are the command's own VAR=value assignments (before the command
	// or after cross-env or env).
	Env []string
	// Node are node's options when the command runs the framework's script
	// through node (`node --experimental-vm-modules node_modules/.bin/jest`).
	Node []string
	// Args are the words after the framework's command, the shell's
	// unquoted globs expanded as sh would; for node:test, the words after
	// `node`, --test among them.
	Args []string

	words []shellWord // Args before the globs' expansion

	// Runs counts the commands of the script that run the framework (a
	// project testing under two environments runs jest twice); testdex
	// runs the first and says so when there are more.
	Runs int
}

// frameworkCommands are the command names that run each framework: a
// bare name (found on PATH: node_modules/.bin under npm), or a path under
// node_modules ending in one of them or in a name with ".js"/".mjs".
var frameworkCommands = map[testdex.Framework][]string{
	testdex.Jest:   {"jest"},
	testdex.Vitest: {"vitest"},
	testdex.Mocha:  {"mocha", "_mocha"},
}

// maxScriptDepth bounds how many `npm run X` indirections are followed.
const maxScriptDepth = 4

// readTestScript finds how package.json's scripts.test in dir runs fw: the
// first command of the script that runs it (Runs counts them all), following `npm run X`, `yarn
// X` and `pnpm X` into the scripts they name. A missing or unreadable
// package.json, or a script that does not run fw, gives the zero value.
func readTestScript(dir string, fw testdex.Framework) testScript {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return testScript{}
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return testScript{}
	}
	all := findInScript(dir, fw, pkg.Scripts, "test", map[string]bool{})
	if len(all) == 0 {
		return testScript{}
	}
	all[0].Runs = len(all)
	return all[0]
}

// findInScript returns fw's commands in the script named name, in order,
// following the scripts it runs.
func findInScript(dir string, fw testdex.Framework, scripts map[string]string, name string, seen map[string]bool) []testScript {
	if seen[name] || len(seen) >= maxScriptDepth {
		return nil
	}
	seen[name] = true
	var out []testScript
	for _, cmd := range shellCommands(scripts[name]) {
		if next := runsScript(cmd); scripts[next] != "" { // yarn runs a script before a command of that name
			out = append(out, findInScript(dir, fw, scripts, next, seen)...)
			continue
		}
		if ts, ok := matchCommand(fw, cmd); ok {
			ts.Args = expandGlobs(dir, ts.words)
			out = append(out, ts)
		}
	}
	return out
}

// runsScript returns the script a command runs (`npm run X`, `npm
// run-script X`, `yarn [run] X`, `pnpm [run] X`, possibly behind a wrapper:
// `nyc npm run X`), "" for another command.
func runsScript(cmd []shellWord) string {
	w := texts(cmd)
	at := slices.IndexFunc(w, func(s string) bool {
		b := path.Base(s)
		return b == "npm" || b == "yarn" || b == "pnpm"
	})
	if at < 0 || at+2 > len(w) {
		return ""
	}
	w = w[at:]
	switch path.Base(w[0]) {
	case "npm":
		if (w[1] == "run" || w[1] == "run-script") && len(w) > 2 {
			return w[2]
		}
	case "yarn", "pnpm":
		if w[1] == "run" && len(w) > 2 {
			return w[2]
		}
		if !strings.HasPrefix(w[1], "-") {
			return w[1]
		}
	}
	return ""
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func isAssignment(s string) bool { return assignment.MatchString(s) }

// matchCommand reports whether one simple command runs fw, and how.
func matchCommand(fw testdex.Framework, cmd []shellWord) (testScript, bool) {
	w := texts(cmd)
	at := -1
	for i, s := range w {
		if fw == testdex.NodeTest && path.Base(s) == "node" && nodeRunsTests(w[i+1:]) || fw != testdex.NodeTest && isFrameworkCommand(fw, s) {
			at = i
			break
		}
	}
	if at < 0 {
		return testScript{}, false
	}
	var ts testScript
	node := -1
	for i, s := range w[:at] {
		switch {
		case isAssignment(s):
			ts.Env = append(ts.Env, s)
		case path.Base(s) == "node":
			node = i
		}
	}
	if node >= 0 {
		ts.Node = append([]string{}, w[node+1:at]...)
	}
	args := cmd[at+1:]
	if fw == testdex.Vitest && len(args) > 0 {
		switch texts(args[:1])[0] {
		case "run", "watch", "dev":
			args = args[1:]
		case "bench", "list", "init", "related", "typecheck":
			return testScript{}, false // not the project's test run
		}
	}
	ts.words = args
	return ts, true
}

// isFrameworkCommand reports whether a command word runs fw: its bare
// command name, or a path under node_modules to its script.
func isFrameworkCommand(fw testdex.Framework, s string) bool {
	for _, name := range frameworkCommands[fw] {
		if s == name {
			return true
		}
		if strings.Contains(s, "node_modules/") {
			switch path.Base(s) {
			case name, name + ".js", name + ".mjs", name + ".cjs":
				return true
			}
		}
	}
	return false
}

// nodeRunsTests reports whether node's words run its test runner: --test
// among the options before the first argument that is not one.
func nodeRunsTests(words []string) bool {
	for i := 0; i < len(words); i++ {
		switch s := words[i]; {
		case s == "--test":
			return true
		case !strings.HasPrefix(s, "-"):
			return false
		case nodeOptionValues[s]:
			i++
		}
	}
	return false
}

func texts(ws []shellWord) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}
