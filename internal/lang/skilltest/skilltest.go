package skilltest

import (
	"path"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
)

// version is bumped whenever Extract's output changes for the same input.
const version = "skilltest/1"

// CommandScope is the Scope of every command record.
const CommandScope = config.FileName

// Extractor makes the skilltest records. Its zero value is ready to use.
type Extractor struct{}

var _ lang.Extractor = Extractor{}

// Framework implements lang.Extractor.
func (Extractor) Framework() testdex.Framework { return testdex.SkillTest }

// CacheKey implements lang.Extractor.
func (Extractor) CacheKey() string { return version }

// TestMatch returns the default testMatch: the seed's {skill}.tests.mjs.
func (Extractor) TestMatch() []string { return []string{"**/*.tests.mjs"} }

// TestPathIgnorePatterns returns the default ignore list.
func (Extractor) TestPathIgnorePatterns() []string {
	return []string{"node_modules", "dist", ".git", "vendor"}
}

// Extract returns the records of one file. The root's testdex.toml gives
// one record per declared command (a TOML error is an error Problem and no
// records); any other file is a module and one test named after the file.
// A module's content is not read: only running it (importing it, calling
// its function) tells what it checks, and discovery never runs code.
func (Extractor) Extract(f *lang.File) lang.Result {
	if f.Rel == config.FileName {
		return extractCommands(f.Data)
	}
	return lang.Result{Tests: []lang.Test{{Kind: testdex.KindTest, Name: path.Base(f.Rel), Scope: path.Dir(f.Rel), WholeFile: true, Line: 1}}}
}
