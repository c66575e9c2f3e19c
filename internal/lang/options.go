package lang

import (
	"fmt"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/globs"
)

// Globs compiles testdex.toml's testMatch and testPathIgnorePatterns for
// framework fw (o's, or the framework's defaults where testdex.toml sets
// none, more added to the ignores) into match: a project-relative path
// that testMatch selects and no ignore pattern does. patterns are the
// testMatch patterns in force, for Setup.Patterns. A pattern that does not
// compile is an error Problem on testdex.toml naming fw's table, and
// match is nil.
func (o FrameworkOptions) Globs(fw testdex.Framework, defMatch, defIgnore []string, more ...string) (match func(rel string) bool, patterns []string, p *testdex.Problem) {
	patterns, ignore := o.TestMatch, o.TestPathIgnorePatterns
	if patterns == nil {
		patterns = defMatch
	}
	if ignore == nil {
		ignore = defIgnore
	}
	if len(more) > 0 {
		ignore = append(append([]string{}, ignore...), more...)
	}
	m, err := globs.Compile(patterns)
	if err != nil {
		return nil, patterns, &testdex.Problem{Severity: testdex.SevError, Path: config.FileName, Message: fmt.Sprintf("[%s] testMatch: %v", fw, err)}
	}
	ig, err := globs.CompileIgnore(ignore)
	if err != nil {
		return nil, patterns, &testdex.Problem{Severity: testdex.SevError, Path: config.FileName, Message: fmt.Sprintf("[%s] testPathIgnorePatterns: %v", fw, err)}
	}
	return func(rel string) bool { return m.Match(rel) && !ig.Match(rel) }, patterns, nil
}
