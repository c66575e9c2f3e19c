package js

import (
	_ "embed"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

//go:embed runner_wrapper.cjs
var wrapperSource []byte

// wrapperSpec is the wrapper's one argument (see runner_wrapper.cjs).
type wrapperSpec struct {
	Framework testdex.Framework `json:"fw"`
	Pkg       string            `json:"pkg"`
	Bin       string            `json:"bin"`
	// Argv is what the tests see after the command: the project's own
	// arguments and the user's extra ones, as written.
	Argv []string `json:"argv"`
	// Args are the framework's arguments: for Jest, the command line
	// jestArgs builds; for Vitest and Mocha, the project's and the user's,
	// which the wrapper parses.
	Args []string `json:"args"`
	// Paths are the files and folders to run; nil runs the project's own.
	Paths []specPath `json:"paths"`
	// Set are the options testdex sets (Vitest's and Mocha's).
	Set    map[string]any `json:"set"`
	Events string         `json:"events"`
	// Coverage is the coverage recorder the wrapper starts before the
	// framework loads (see runner_coverage.go); "" without coverage.
	Coverage string `json:"coverage,omitempty"`
	// Outside are the symbolic links leaving the root under the
	// selection, which Vitest and Mocha follow: the wrapper excludes them
	// (lang.RunOptions.Outside).
	Outside []specPath `json:"outside,omitempty"`
}

type specPath struct {
	Path string `json:"path"`
	Dir  bool   `json:"dir,omitempty"`
}

// wrapped builds the command running Jest, Vitest or Mocha through the
// wrapper: node with the project's node options, the wrapper, its spec.
func (r runner) wrapped(p *lang.Project, in install, script testScript, run batchRun, reporter, events, cov string, o lang.RunOptions) (*lang.Command, error) {
	wrapper, err := writeWrapper(o.Dir)
	if err != nil {
		return nil, err
	}
	own := append(append([]string{}, script.Args...), o.Extra...)
	spec := wrapperSpec{Framework: r.fw, Pkg: in.Pkg, Bin: in.Bin, Argv: own, Args: own, Set: map[string]any{}, Events: events,
		Coverage: cov}
	for _, l := range o.Outside {
		spec.Outside = append(spec.Outside, specPath{Path: l.Path, Dir: l.Dir})
	}
	if !run.whole {
		spec.Paths = []specPath{}
		for _, ps := range run.paths {
			spec.Paths = append(spec.Paths, specPath{Path: ps.Path, Dir: ps.Dir})
		}
	}
	switch r.fw {
	case testdex.Jest:
		spec.Args = jestArgs(own, run, reporter, realDir(p.Dir), o)
		if cov != "" {
			if spec.Coverage, err = writeJestHook(cov); err != nil {
				return nil, err
			}
			// The project's collectCoverage would instrument the code, or
			// (coverageProvider v8) reset V8's counts under the recorder.
			spec.Args = append(spec.Args, "--coverage=false")
		}
	case testdex.Vitest:
		spec.Set["reporter"] = []string{reporter}
		if run.pattern != "" {
			spec.Set["testNamePattern"] = run.pattern
		}
		if o.TestTimeout > 0 {
			spec.Set["testTimeout"] = o.TestTimeout.Milliseconds()
		}
		if cov != "" { // the project's coverage would reset V8's counts under the recorder
			spec.Set["coverage"] = map[string]any{"enabled": false}
		}
	case testdex.Mocha:
		spec.Set["reporter"] = reporter
		if run.pattern != "" {
			spec.Set["grep"] = run.pattern
		}
		if o.TestTimeout > 0 {
			spec.Set["timeout"] = o.TestTimeout.Milliseconds()
		}
	}
	data, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	args := append(append([]string{"node"}, script.Node...), wrapper, string(data))
	return &lang.Command{Args: args, Dir: p.Dir}, nil
}

// realDir is dir with its symlinks resolved, as the frameworks see the
// working folder (Jest matches path patterns against real paths).
func realDir(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}

// jestArgs is Jest's command line. The whole project keeps the project's
// words in their order but for the flags dropped (jestFlags); a selection
// puts its paths first (files by --runTestsByPath, folders as anchored
// patterns over the absolute path, which Jest matches), then the
// project's flags without its own selection. testdex's reporter, pattern
// and timeout come last: Jest's array options take every word up to the
// next flag, so no path may follow a flag.
func jestArgs(own []string, run batchRun, reporter, dir string, o lang.RunOptions) []string {
	flags, _ := splitFlags(own, jestName, jestValues)
	var args []string
	if !run.whole {
		args = jestPaths(run, dir)
	}
	for _, f := range flags {
		switch {
		case f.name == "" && !run.whole: // a positional word: a path pattern of the project's
		case jestDrop[f.name], !run.whole && jestSelects[f.name],
			run.pattern != "" && f.name == "testNamePattern", o.TestTimeout > 0 && f.name == "testTimeout":
		default:
			args = append(args, f.words...)
		}
	}
	args = append(args, "--reporters="+reporter)
	if run.pattern != "" {
		args = append(args, "--testNamePattern="+run.pattern)
	}
	if o.TestTimeout > 0 {
		args = append(args, "--testTimeout="+millis(o))
	}
	return args
}

// jestPaths are a selection's paths for Jest: the files alone by
// --runTestsByPath, else anchored patterns.
func jestPaths(run batchRun, dir string) []string {
	var args []string
	folders := false
	for _, ps := range run.paths {
		folders = folders || ps.Dir
	}
	for _, ps := range run.paths {
		abs := regexp.QuoteMeta(filepath.ToSlash(filepath.Join(dir, ps.Path)))
		switch {
		case !folders:
			args = append(args, ps.Path)
		case ps.Dir:
			args = append(args, "^"+abs+"/")
		default:
			args = append(args, "^"+abs+"$")
		}
	}
	if !folders {
		args = append(args, "--runTestsByPath")
	}
	return args
}

// jestDrop are Jest's options that change only the output, watch, or
// select by git; jestSelects those that select tests, kept only when the
// whole project runs. (Names as jest-cli's yargs options.)
var (
	jestDrop = setOf("reporters", "watch", "watchAll", "coverage", "collectCoverage", "coverageReporters",
		"coverageDirectory", "coverageThreshold", "collectCoverageFrom", "coveragePathIgnorePatterns", "coverageProvider",
		"json", "outputFile", "notify", "notifyMode", "onlyChanged", "onlyFailures", "changedSince", "lastCommit",
		"findRelatedTests", "changedFilesWithAncestor", "listTests", "showConfig", "clearCache", "init")
	jestSelects = setOf("testPathPattern", "testPathPatterns", "runTestsByPath")
	// jestBooleans are jest-cli's boolean options (29.7): the others take
	// a value, as yargs gives an unknown option the next word.
	jestBooleans = setOf("all", "automock", "bail", "cache", "changedFilesWithAncestor", "ci", "clearCache",
		"clearMocks", "collectCoverage", "color", "colors", "coverage", "debug", "detectLeaks", "detectOpenHandles",
		"errorOnDeprecated", "expand", "findRelatedTests", "forceExit", "init", "injectGlobals", "json", "lastCommit",
		"listTests", "logHeapUsage", "noStackTrace", "notify", "onlyChanged", "onlyFailures", "passWithNoTests",
		"randomize", "resetMocks", "resetModules", "restoreMocks", "runInBand", "runTestsByPath", "showConfig",
		"showSeed", "silent", "skipFilter", "testLocationInResults", "updateSnapshot", "useStderr", "verbose", "watch",
		"watchAll", "watchman", "workerThreads", "help", "version", "h")
	// jestArrays are jest-cli's array options, which take every word up to
	// the next option.
	jestArrays = setOf("coveragePathIgnorePatterns", "coverageReporters", "ignoreProjects", "moduleDirectories",
		"moduleFileExtensions", "modulePathIgnorePatterns", "modulePaths", "projects", "reporters", "roots",
		"selectProjects", "setupFiles", "setupFilesAfterEnv", "snapshotSerializers", "testMatch",
		"testPathIgnorePatterns", "testPathPattern", "testRegex", "transformIgnorePatterns",
		"unmockedModulePathPatterns", "watchPathIgnorePatterns")
	jestAliases = map[string]string{"b": "bail", "e": "expand", "o": "onlyChanged", "f": "onlyFailures",
		"i": "runInBand", "u": "updateSnapshot", "c": "config", "w": "maxWorkers", "t": "testNamePattern"}
)

// jestName is an option's name as jest-cli's yargs knows it: aliases
// resolved, kebab-case camelCased, "no-" negations marked.
func jestName(flag string) string {
	name := strings.TrimLeft(flag, "-")
	if a, ok := jestAliases[name]; ok && !strings.HasPrefix(flag, "--") {
		return a
	}
	neg := strings.HasPrefix(name, "no-")
	name = strings.TrimPrefix(name, "no-")
	parts := strings.Split(name, "-")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	if name = strings.Join(parts, ""); neg {
		return "!" + name
	}
	return name
}

// jestValues is how many words a Jest option takes: none for a boolean
// (or a negation), all up to the next flag for an array (yargs' greedy
// arrays), else one, as yargs gives an unknown option the next word.
func jestValues(name string) int {
	switch {
	case jestBooleans[name] || strings.HasPrefix(name, "!"):
		return 0
	case jestArrays[name]:
		return -1
	}
	return 1
}

// flagWords is one option as written: the flag and its values, if apart;
// a positional word has the name "".
type flagWords struct {
	name  string // as the framework's parser knows it
	words []string
}

// splitFlags sorts a command's words into options, with the words they
// take (values says how many: -1 for all up to the next option, even after
// an "=value"; others only without one), and positional words, which are
// returned both alone and, in order, among the options with the name "".
// The words after "--" are positional.
func splitFlags(words []string, name func(string) string, values func(string) int) ([]flagWords, []string) {
	var flags []flagWords
	var pos []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" || !strings.HasPrefix(w, "-") || w == "-" {
			rest := []string{w}
			if w == "--" {
				rest = words[i+1:]
				i = len(words)
			}
			for _, p := range rest {
				pos = append(pos, p)
				flags = append(flags, flagWords{words: []string{p}})
			}
			continue
		}
		n, _, inline := strings.Cut(w, "=")
		f := flagWords{name: name(n), words: []string{w}}
		for k := values(f.name); (k < 0 || k > 0 && !inline) && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-"); k-- {
			i++
			f.words = append(f.words, words[i])
		}
		flags = append(flags, f)
	}
	return flags, pos
}

// nodeTestArgs is node:test's command line: node with the project's node
// options (nodeFlags), --test with testdex's reporter, its destination,
// pattern and timeout, the user's extra arguments, then the project's
// paths for the whole project, else the selected files (a folder as the
// listed files under it, or itself when it has none).
func nodeTestArgs(script testScript, run batchRun, reporter, events, dir string, o lang.RunOptions) []string {
	flags, paths := splitFlags(script.Args, nodeName, func(n string) int {
		if nodeOptionValues[n] {
			return 1
		}
		return 0
	})
	args := []string{"node"}
	for _, f := range flags {
		switch {
		case f.name == "": // a path, below
			continue
		case nodeDrop[f.name], strings.HasPrefix(f.name, "--test-coverage-"),
			run.pattern != "" && f.name == "--test-name-pattern", o.TestTimeout > 0 && f.name == "--test-timeout":
			continue
		}
		args = append(args, f.words...)
	}
	args = append(args, "--test", "--test-reporter="+reporter, "--test-reporter-destination="+events)
	if run.pattern != "" {
		args = append(args, "--test-name-pattern="+run.pattern)
	}
	if o.TestTimeout > 0 {
		args = append(args, "--test-timeout="+millis(o))
	}
	args = append(args, o.Extra...)
	if run.whole {
		return append(args, paths...)
	}
	for _, ps := range run.paths {
		seen := map[string]bool{}
		for _, t := range ps.Tests {
			if ps.Dir && !seen[t.Scope] {
				seen[t.Scope] = true
				args = append(args, t.Scope)
			}
		}
		if len(seen) == 0 {
			args = append(args, ps.Path)
		}
	}
	return args
}

// nodeDrop are node's options testdex sets itself or that change only the
// output or watch.
var (
	nodeDrop = setOf("--test", "--test-reporter", "--test-reporter-destination", "--watch", "--watch-path",
		"--watch-preserve-output", "--experimental-test-coverage")
	// nodeOptionValues are node's options that may take their value as the
	// next word.
	nodeOptionValues = setOf("-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions",
		"--env-file", "--input-type", "--test-name-pattern", "--test-skip-pattern", "--test-reporter",
		"--test-reporter-destination", "--test-concurrency", "--test-timeout", "--test-shard", "--watch-path",
		"--test-coverage-include", "--test-coverage-exclude", "--title", "--inspect-port", "--redirect-warnings",
		"--disable-warning", "--experimental-default-type")
	nodeAliases = map[string]string{"-r": "--require", "-C": "--conditions"}
)

func nodeName(flag string) string {
	if a, ok := nodeAliases[flag]; ok {
		return a
	}
	return flag
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
