// Package skilltest implements the skill-test protocol (seed 002): a test
// is either a module (*.tests.mjs) whose default or runTests function
// returns {passed, failed, errors}, or an executable declared in
// testdex.toml that prints that JSON object or a TAP stream.
//
//	discovery:  a module's file name ──► one record (never imported)
//	            testdex.toml [skilltest] commands ──► one record each
//	running:    module  ──► node wrapper.mjs MODULE ──► result file (JSON)
//	            command ──► its argv, from the root ──► stdout (JSON or TAP)
//	            each in its own process, one after the other
//
// A module's record is its file: its ID is the path alone (like a markdown
// spec), its Scope the folder and its Name the file name. A command's
// record is declared in testdex.toml, so that is its file: its ID is
// testdex.toml::NAME and its Line the declaration's. (The seed's brief
// anchored it to the script its argv names; but the walk's suffix filter
// cannot know which files a testdex.toml names, the first word may be a
// program on PATH (make, node), and a failure pointing at the declaration
// is the more useful location.)
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
