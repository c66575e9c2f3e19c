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
//	[cargo]
//	features = ["serde"]      # as cargo test --features (default features too)
//	all_features = false      # as --all-features
//	no_default_features = false
//	all_platforms = false     # keep tests gated by another OS, family or arch
//
//	[semtest]
//	testMatch = ["**/*.spec.md", "**/*.test.md"]
//	testPathIgnorePatterns = ["node_modules", "dist", ".git", "vendor"]
//	outputDir = "semtest-results"
//
//	[skilltest]
//	testMatch = ["**/*.tests.mjs"]
//	commands = [{name = "lint", run = ["./check.sh"], format = "tap"}]
//	parallel = false          # modules at the same time, up to -j
//	skills = [{name = "equipment-manager", shortName = "equipment", type = "dbtable", skillDir = "skills/equipment"}]
//
//	[affected]                # dependencies no static evidence sees
//	"testdata/**" = ["pkg/..."]
//
//	[specs]                   # how markdown specs are judged (docs/specs.md)
//	agent = "claude-code"     # a preset (claude-code, codex, gemini, opencode), or an argv:
//	                          # ["my-agent", "--model={model}", "{permissions}", "{prompt_file}"]
//	model = "sonnet"          # the default model ("" is the agent's own default)
//	permission_flag = "--yes" # what {permissions} becomes when permissions are skipped
//	skipPermissionsIfPossible = false
//	timeout = "10m"           # per spec: a duration, or milliseconds as semtest writes it
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
	"github.com/bmatcuk/doublestar/v4"
)

// FileName is the configuration file looked up at the root.
const FileName = "testdex.toml"

// Config is the parsed testdex.toml.
type Config struct {
	Walk Walk
	// Frameworks holds one table per framework, keyed by its name ("go",
	// "semtest", "pytest", ...).
	Frameworks map[string]Framework
	// Affected are the declared dependencies of [affected], in file order.
	Affected []Rule
	// Specs is [specs]: the agent CLI that judges markdown specs.
	Specs Specs

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
	// Features, AllFeatures and NoDefaultFeatures select cargo features
	// as cargo test's --features, --all-features and
	// --no-default-features do; cfg(feature = "...") gates are evaluated
	// against them (the zero values: the default features).
	Features          []string `toml:"features"`            // cargo
	AllFeatures       bool     `toml:"all_features"`        // cargo
	NoDefaultFeatures bool     `toml:"no_default_features"` // cargo
	// Commands are executables run as tests (skilltest): each prints a
	// JSON result or a TAP stream on its standard output.
	Commands []Command `toml:"commands"`
	// Parallel runs the modules at the same time, up to the run's -j, as
	// the seed's runTestSuite({parallel: true}) does (skilltest).
	Parallel bool `toml:"parallel"`
	// Skills is the skill catalog (skilltest): when it is declared, a
	// module is a skill's test when it is tests/SHORTNAME.tests.mjs for
	// a skill in it, and any other module is an orphan (listed, and
	// flagged with a warning).
	Skills []Skill `toml:"skills"`
}

// Skill is one skill of the catalog, with the seed's record fields:
//
//	[[skilltest.skills]]
//	name = "equipment-manager"   # skillName
//	shortName = "equipment"      # its test is tests/equipment.tests.mjs; name when absent
//	type = "dbtable"             # skillType; "unknown" when absent
//	skillDir = "skills/equipment"
type Skill struct {
	Name      string `toml:"name"`
	ShortName string `toml:"shortName"`
	Type      string `toml:"type"`
	SkillDir  string `toml:"skillDir"`
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

// Specs configures the judging of markdown specs ([specs]). Agent is a
// preset's name; AgentArgv, from an array, a custom agent's argv with the
// placeholders {prompt}, {prompt_file}, {model} and {permissions}.
type Specs struct {
	Agent                     string
	AgentArgv                 []string
	Model                     string `toml:"model"`
	PermissionFlag            string `toml:"permission_flag"`
	SkipPermissionsIfPossible bool   `toml:"skipPermissionsIfPossible"`
	Timeout                   string `toml:"timeout"`
}

// decodeSpecs reads [specs]: agent is a string or an array of strings.
func (c *Config) decodeSpecs(md toml.MetaData, prim toml.Primitive) error {
	var raw struct {
		Agent                     any    `toml:"agent"`
		Model                     string `toml:"model"`
		PermissionFlag            string `toml:"permission_flag"`
		SkipPermissionsIfPossible bool   `toml:"skipPermissionsIfPossible"`
		Timeout                   string `toml:"timeout"`
	}
	if err := md.PrimitiveDecode(prim, &raw); err != nil {
		return err
	}
	c.Specs = Specs{Model: raw.Model, PermissionFlag: raw.PermissionFlag, SkipPermissionsIfPossible: raw.SkipPermissionsIfPossible, Timeout: raw.Timeout}
	switch a := raw.Agent.(type) {
	case nil:
	case string:
		c.Specs.Agent = a
	case []any:
		for _, w := range a {
			s, ok := w.(string)
			if !ok {
				return fmt.Errorf("agent: each word of the argv must be a string, not %T", w)
			}
			c.Specs.AgentArgv = append(c.Specs.AgentArgv, s)
		}
		if len(c.Specs.AgentArgv) == 0 || c.Specs.AgentArgv[0] == "" {
			return fmt.Errorf("agent: an empty argv (name a program: [\"my-agent\", \"{prompt_file}\"])")
		}
	default:
		return fmt.Errorf("agent: want a preset's name or an argv (an array of strings), not %T", a)
	}
	return nil
}

// Rule is one line of [affected]: a change to a file matching Changed
// affects the tests of every test file matching one of Tests. It declares
// what `testdex affected` cannot see (a data file read by a computed path,
// a program another language runs, the environment a script sets up):
//
//	[affected]
//	"testdata/**" = ["pkg/..."]
//	"schema/*.sql" = ["db/", "api/**/*_test.go"]
//	"tools/gen.sh" = ["..."]
//
// Both sides are root-relative, slash-separated doublestar globs; a path
// without glob characters also covers what lies below it (a folder), and
// a trailing "/..." means the folder and everything below, as in Go
// package patterns ("..." alone: every test).
type Rule struct {
	Changed string
	Tests   []string
}

// KnownFrameworks are the table names accepted besides [walk], [affected]
// and [specs]: the names of the frameworks package languages registers.
// The list is kept here, not read from the registry, because config sits
// below the languages (skilltest reads its [skilltest] table through
// Parse); languages' TestConfigKnowsEveryFramework keeps the two equal.
var KnownFrameworks = []string{"go", "semtest", "pytest", "unittest", "jest", "vitest", "mocha", "node", "glubean", "cargo", "junit", "skilltest"}

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
		if explicit && errors.Is(err, os.ErrNotExist) {
			return nil, &InvalidError{err: fmt.Errorf("config file not found: %s", path)}
		}
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// InvalidError is a configuration that is not valid TOML, has a value of
// the wrong type or a bad pattern, or an explicit --config that does not
// exist: the user's to fix (a usage error, exit 3), not an I/O failure.
type InvalidError struct{ err error }

func (e *InvalidError) Error() string { return e.err.Error() }
func (e *InvalidError) Unwrap() error { return e.err }

// Parse decodes a configuration read from path.
func Parse(path string, data []byte) (*Config, error) {
	var tables map[string]toml.Primitive
	md, err := toml.Decode(string(data), &tables)
	if err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return nil, &InvalidError{fmt.Errorf("%s:%d: %s", path, perr.Position.Line, perr.Message)}
		}
		return nil, &InvalidError{fmt.Errorf("%s: %w", path, err)}
	}
	c := &Config{Path: path, Frameworks: map[string]Framework{}}
	for name, prim := range tables {
		switch {
		case name == "walk":
			err = md.PrimitiveDecode(prim, &c.Walk)
		case name == "affected":
			err = c.decodeAffected(md, prim)
		case name == "specs":
			err = c.decodeSpecs(md, prim)
		case slices.Contains(KnownFrameworks, name):
			var f Framework
			err = md.PrimitiveDecode(prim, &f)
			c.Frameworks[name] = f
		default:
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: unknown table [%s] (ignored; known: walk, affected, specs, %s)", path, name, strings.Join(KnownFrameworks, ", ")))
			continue
		}
		if err != nil {
			return nil, &InvalidError{fmt.Errorf("%s: [%s]: %w", path, name, err)}
		}
	}
	for _, k := range md.Undecoded() {
		if len(k) > 1 && (k[0] == "walk" || k[0] == "specs" || slices.Contains(KnownFrameworks, k[0])) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: unknown key %q (ignored)", path, k.String()))
		}
	}
	sort.Strings(c.Warnings)
	return c, nil
}

// decodeAffected reads the [affected] table: string keys, each a list of
// strings (a single string is taken as a list of one). The rules keep the
// file's order, so that reasons and warnings are stable.
func (c *Config) decodeAffected(md toml.MetaData, prim toml.Primitive) error {
	var raw map[string]any
	if err := md.PrimitiveDecode(prim, &raw); err != nil {
		return err
	}
	order := map[string]int{}
	for i, k := range md.Keys() {
		if len(k) == 2 && k[0] == "affected" {
			order[k[1]] = i
		}
	}
	for changed, v := range raw {
		var tests []string
		switch v := v.(type) {
		case string:
			tests = []string{v}
		case []any:
			for _, t := range v {
				s, ok := t.(string)
				if !ok {
					return fmt.Errorf("%q: the tests it affects must be strings (paths or globs), not %T", changed, t)
				}
				tests = append(tests, s)
			}
		default:
			return fmt.Errorf("%q: want a list of paths or globs of test files, like [\"pkg/...\"], not %T", changed, v)
		}
		if changed == "" {
			return fmt.Errorf("an empty pattern of changed files")
		}
		if len(tests) == 0 {
			return fmt.Errorf("%q: an empty list affects no test; name the test files or folders, or remove the line", changed)
		}
		for _, pat := range append([]string{changed}, tests...) {
			if err := CheckPattern(pat); err != nil {
				return fmt.Errorf("%q: %w", changed, err)
			}
		}
		c.Affected = append(c.Affected, Rule{Changed: changed, Tests: tests})
	}
	sort.SliceStable(c.Affected, func(i, j int) bool { return order[c.Affected[i].Changed] < order[c.Affected[j].Changed] })
	return nil
}

// CheckPattern reports a pattern of [affected] that is not a valid
// doublestar glob, or not root-relative.
func CheckPattern(pat string) error {
	switch {
	case strings.HasPrefix(pat, "/") || filepath.IsAbs(pat):
		return fmt.Errorf("pattern %q must be relative to the root", pat)
	case pat == ".." || strings.HasPrefix(pat, "../"):
		return fmt.Errorf("pattern %q leaves the root", pat)
	case !doublestar.ValidatePattern(pat):
		return fmt.Errorf("pattern %q is not a valid glob", pat)
	}
	return nil
}
