package skilltest

import (
	"path"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
)

// version is bumped whenever Extract's output changes for the same input.
const version = "skilltest/2"

// CommandScope is the Scope of every command record.
const CommandScope = config.FileName

// Extractor makes the skilltest records. Its zero value is ready to use;
// with a catalog (the Detector's, from [skilltest] skills) a skill's test
// carries the skill's fields in Meta and any other module is flagged as
// an orphan.
type Extractor struct {
	catalog *catalog
}

var _ lang.Extractor = Extractor{}

// Framework implements lang.Extractor.
func (Extractor) Framework() testdex.Framework { return testdex.SkillTest }

// CacheKey implements lang.Extractor: the catalog is part of it.
func (e Extractor) CacheKey() string {
	if e.catalog == nil {
		return version
	}
	return version + "+" + e.catalog.key
}

// TestMatch returns the default testMatch: the seed's {skill}.tests.mjs.
func (Extractor) TestMatch() []string { return []string{"**/*.tests.mjs"} }

// TestPathIgnorePatterns returns the default ignore list.
func (Extractor) TestPathIgnorePatterns() []string {
	return []string{"node_modules", "dist", ".git", "vendor"}
}

// Extract returns the records of one file. The root's testdex.toml gives
// one record per declared command (a TOML error is an error Problem and no
// records); any other file is a module and one test named after the file,
// a skill's test or an orphan when a catalog is declared.
// A module's content is not read: only running it (importing it, calling
// its function) tells what it checks, and discovery never runs code.
func (e Extractor) Extract(f *lang.File) lang.Result {
	if f.Rel == config.FileName {
		return extractCommands(f.Data)
	}
	res := lang.Result{Tests: []lang.Test{{Kind: testdex.KindTest, Name: path.Base(f.Rel), Scope: path.Dir(f.Rel), WholeFile: true, Line: 1}}}
	if e.catalog != nil {
		if meta, ok := e.catalog.meta(f.Rel); ok {
			res.Tests[0].Meta = meta
		} else {
			res.Problems = append(res.Problems, orphan(f.Rel))
		}
	}
	return res
}
