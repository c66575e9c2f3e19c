// Package config reads testdex.toml, the optional project configuration at
// the root of a listed tree (or given with --config).
//
// Every field is optional; the zero Config means "all defaults". Unknown keys
// are reported as warnings rather than errors, so a newer file still works
// with an older testdex; a file that is not valid TOML is an error naming its
// line.
//
//	[walk]
//	hidden = false            # also visit .dotted files and folders
//	gitignore = true          # honour .gitignore and .git/info/exclude
//	skip_dirs = ["build"]     # added to the default skip list
//
//	[go]
//	testMatch = ["**/*_test.go"]
//	testPathIgnorePatterns = ["internal/generated"]
//	tags = ["integration"]    # build tags, as go test -tags
//	all_platforms = false     # list tests of every GOOS/GOARCH
//
//	[semtest]
//	testMatch = ["**/*.spec.md", "**/*.test.md"]
//	testPathIgnorePatterns = ["node_modules", "dist", ".git", "vendor"]
//	outputDir = "semtest-results"
//
//	[skilltest]
//	testMatch = ["**/*.tests.mjs"]
//	commands = [{name = "lint", run = ["./check.sh"], format = "tap"}]
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// FileName is the configuration file looked up at the root.
const FileName = "testdex.toml"

// Config is the parsed testdex.toml.
type Config struct {
	Walk Walk
	// Frameworks holds one table per framework, keyed by its name ("go",
	// "semtest", "pytest", ...).
	Frameworks map[string]Framework

	// Path is the file the configuration was read from, "" when none.
	Path string `toml:"-"`
	// Warnings lists unknown keys and similar non-fatal findings.
	Warnings []string `toml:"-"`
}

// Walk configures the level-1 file walk.
type Walk struct {
	Hidden    bool     `toml:"hidden"`
	Gitignore *bool    `toml:"gitignore"` // nil means true
	SkipDirs  []string `toml:"skip_dirs"`
}

// Framework configures one framework's candidate files, in the vocabulary
// of semtest and Jest. A nil slice means the framework's default.
//
// Patterns are doublestar globs matched against the root-relative,
// slash-separated path. A pattern without a "/" matches any path component
// of that name, so "vendor" excludes every file below any vendor folder,
// as semtest's defaults expect.
type Framework struct {
	Disabled               bool     `toml:"disabled"`
	TestMatch              []string `toml:"testMatch"`
	TestPathIgnorePatterns []string `toml:"testPathIgnorePatterns"`
	OutputDir              string   `toml:"outputDir"`     // semtest
	Tags                   []string `toml:"tags"`          // go: build tags
	AllPlatforms           bool     `toml:"all_platforms"` // go
	GOOS                   string   `toml:"goos"`          // go
	GOARCH                 string   `toml:"goarch"`        // go
	// Commands are executables run as tests (skilltest): each prints a
	// JSON result or a TAP stream on its standard output.
	Commands []Command `toml:"commands"`
}

// Command is one executable declared as a test, as in
//
//	[skilltest]
//	commands = [{name = "lint", run = ["./check.sh", "--all"], format = "tap"}]
//
// Name is its test name; Run is its argv, run from the root, where a
// relative first word is a path from the root; Format is "json" (the
// default: one {passed, failed, errors} object) or "tap".
type Command struct {
	Name   string   `toml:"name"`
	Run    []string `toml:"run"`
	Format string   `toml:"format"`
}

// KnownFrameworks are the table names accepted besides [walk].
var KnownFrameworks = []string{"go", "semtest", "pytest", "unittest", "jest", "vitest", "mocha", "node", "cargo", "junit", "skilltest"}

// GitignoreEnabled reports whether .gitignore files are honoured.
func (w Walk) GitignoreEnabled() bool { return w.Gitignore == nil || *w.Gitignore }

// Load reads the configuration. If path is non-empty it must exist;
// otherwise root/testdex.toml is read when present and the zero Config is
// returned when it is not.
func Load(root, path string) (*Config, error) {
	explicit := path != ""
	if !explicit {
		path = filepath.Join(root, FileName)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, os.ErrNotExist) {
			return &Config{Frameworks: map[string]Framework{}}, nil
		}
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes a configuration read from path.
func Parse(path string, data []byte) (*Config, error) {
	var tables map[string]toml.Primitive
	md, err := toml.Decode(string(data), &tables)
	if err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return nil, fmt.Errorf("%s:%d: %s", path, perr.Position.Line, perr.Message)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := &Config{Path: path, Frameworks: map[string]Framework{}}
	for name, prim := range tables {
		switch {
		case name == "walk":
			err = md.PrimitiveDecode(prim, &c.Walk)
		case slices.Contains(KnownFrameworks, name):
			var f Framework
			err = md.PrimitiveDecode(prim, &f)
			c.Frameworks[name] = f
		default:
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: unknown table [%s] (ignored; known: walk, %s)", path, name, strings.Join(KnownFrameworks, ", ")))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: [%s]: %w", path, name, err)
		}
	}
	for _, k := range md.Undecoded() {
		if len(k) > 1 && (k[0] == "walk" || slices.Contains(KnownFrameworks, k[0])) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: unknown key %q (ignored)", path, k.String()))
		}
	}
	sort.Strings(c.Warnings)
	return c, nil
}
