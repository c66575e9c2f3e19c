package js

import (
	"strings"

	"github.com/testdex/testdex"
)

// vitestTypecheckInclude is Vitest's default typecheck.include: the type
// tests (*.test-d.ts) that `vitest --typecheck` checks with tsc.
var vitestTypecheckInclude = []string{"**/*.{test,spec}-d.?(c|m)[jt]s?(x)"}

// vitestTypecheck reads whether the project's test run checks types, so
// the listing holds the type tests that run reports: the package.json
// test command passes --typecheck (or --typecheck.enabled,
// --typecheck.only), or the configuration's test.typecheck sets enabled
// or only. A flag on the command wins over the configuration, as on
// Vitest's command line. include is typecheck.include (Vitest's default
// when absent), nil when types are not checked; only says the run checks
// types alone (--typecheck.only), its other tests not run.
func (pr *project) vitestTypecheck(t value, src string) (include []string, only bool) {
	tc, _ := t.field("typecheck")
	enabled, only := boolField(tc, "enabled"), boolField(tc, "only")
	for _, ts := range findInScript(pr.dir, testdex.Vitest, pr.pkg.Scripts, "test", map[string]bool{}) {
		for _, w := range texts(ts.words) {
			name, val, hasVal := strings.Cut(w, "=")
			on := !hasVal || val == "true"
			switch name {
			case "--typecheck", "--typecheck.enabled":
				enabled = on
			case "--typecheck.only":
				only = on
			}
		}
		break // the run testdex makes is the script's first vitest command
	}
	if !enabled && !only {
		return nil, false
	}
	return pr.list(tc, src, "include", vitestTypecheckInclude), only
}

// boolField reports whether obj[key] is the literal true.
func boolField(obj value, key string) bool {
	v, ok := obj.field(key)
	return ok && v.kind == kBool && v.b
}
