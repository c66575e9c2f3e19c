package js

import (
	"path"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// nodeValueFlags are node options that may take a separate value.
var nodeValueFlags = map[string]bool{"--test-reporter": true, "--test-reporter-destination": true, "--test-name-pattern": true,
	"--test-skip-pattern": true, "--import": true, "--require": true, "-r": true, "--loader": true, "--experimental-loader": true,
	"--test-concurrency": true, "--test-timeout": true, "--env-file": true, "--conditions": true, "-C": true}

// nodeTest builds node:test's Setup: the positional arguments of the
// `node --test` script (globs; a folder means the default names under
// it), or Node's default patterns. node_modules is always excluded.
func (pr *project) nodeTest() *lang.Setup {
	args, _ := cliArgs(pr.script(scriptNode), []string{"node"}, nodeValueFlags)
	globs := nodeTestGlobs
	if len(args) > 0 {
		globs = nil
		for _, a := range args {
			a = strings.TrimSuffix(strings.TrimPrefix(a, "./"), "/")
			if strings.ContainsAny(a, "*?[{") || path.Ext(a) != "" {
				globs = append(globs, a)
				continue
			}
			for _, g := range nodeTestGlobs {
				globs = append(globs, a+"/"+g)
			}
		}
	}
	if o := pr.env.Options[testdex.NodeTest]; o.TestMatch != nil {
		globs = o.TestMatch
	}
	inc, bad := compileGlobs(globs)
	pr.badPatterns("package.json", "node --test", bad)
	return &lang.Setup{Patterns: globs, Match: func(rel string) bool {
		return !underNodeModules(rel) && inc.match(rel)
	}}
}
