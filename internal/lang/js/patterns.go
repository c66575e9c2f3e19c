package js

import (
	"path"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Each framework's default test file patterns, from its documentation and
// source (Jest 29 testMatch, Vitest 3 configDefaults, Mocha 11 spec,
// Node.js 22 `node --test` with no arguments).
var (
	jestTestMatch   = []string{"**/__tests__/**/*.?([mc])[jt]s?(x)", "**/?(*.)+(spec|test).?([mc])[jt]s?(x)"}
	jestIgnore      = []string{"/node_modules/"}
	jestExtensions  = []string{"js", "mjs", "cjs", "jsx", "ts", "tsx", "json", "node"}
	vitestInclude   = []string{"**/*.{test,spec}.?(c|m)[jt]s?(x)"}
	vitestExclude   = []string{"**/node_modules/**", "**/dist/**", "**/cypress/**", "**/.{idea,git,cache,output,temp}/**", "**/{karma,rollup,webpack,vite,vitest,jest,ava,babel,nyc,cypress,tsup,build,eslint,prettier}.config.*"}
	mochaSpec       = []string{"./test"}
	mochaExtensions = []string{"js", "cjs", "mjs"}
	nodeTestGlobs   = []string{"**/*.test.{cjs,mjs,js}", "**/*-test.{cjs,mjs,js}", "**/*_test.{cjs,mjs,js}", "**/test-*.{cjs,mjs,js}", "**/test.{cjs,mjs,js}", "**/test/**/*.{cjs,mjs,js}"}
)

// extglob translates the micromatch/picomatch extglobs Jest and Vitest
// use into doublestar syntax: ?(a|b) and *(a|b) become {,a,b}, +(a|b) and
// @(a|b) become {a,b}. One repetition stands for +(...) and *(...), which
// is what real test file names use. !(...) cannot be translated; ok is
// false for it.
func extglob(p string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if i+1 < len(p) && p[i+1] == '(' && strings.IndexByte("?*+@!", c) >= 0 {
			end := matchingParen(p, i+1)
			if end < 0 {
				return p, false
			}
			if c == '!' {
				return p, false
			}
			inner, ok := extglob(p[i+2 : end])
			if !ok {
				return p, false
			}
			alts := strings.ReplaceAll(inner, "|", ",")
			if c == '?' || c == '*' {
				alts = "," + alts
			}
			b.WriteString("{" + alts + "}")
			i = end
			continue
		}
		b.WriteByte(c)
	}
	out := b.String()
	return out, doublestar.ValidatePattern(out)
}

func matchingParen(p string, open int) int {
	depth := 0
	for i := open; i < len(p); i++ {
		switch p[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// globSet is a list of translated globs matched against project-relative
// paths.
type globSet []string

// compileGlobs translates patterns; bad lists the ones it cannot use.
func compileGlobs(patterns []string) (g globSet, bad []string) {
	for _, p := range patterns {
		p = strings.TrimPrefix(p, "./")
		if t, ok := extglob(p); ok {
			g = append(g, t)
		} else {
			bad = append(bad, p)
		}
	}
	return g, bad
}

func (g globSet) match(rel string) bool {
	for _, p := range g {
		if ok, _ := doublestar.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// regexSet is Jest's testRegex or testPathIgnorePatterns: JavaScript
// regular expressions matched against the absolute path.
type regexSet []*regexp.Regexp

func compileRegexps(list []string) (r regexSet, bad []string) {
	for _, s := range list {
		re, err := regexp.Compile(s)
		if err != nil {
			bad = append(bad, s)
			continue
		}
		r = append(r, re)
	}
	return r, bad
}

func (r regexSet) match(abs string) bool {
	for _, re := range r {
		if re.MatchString(abs) {
			return true
		}
	}
	return false
}

// hasExt reports whether a file name ends in one of the extensions
// (without dots).
func hasExt(name string, exts []string) bool {
	e := strings.TrimPrefix(path.Ext(name), ".")
	for _, x := range exts {
		if strings.TrimPrefix(x, ".") == e {
			return true
		}
	}
	return false
}

// underNodeModules reports whether a project-relative path lies in a
// node_modules folder, which every runner skips by default.
func underNodeModules(rel string) bool {
	return strings.HasPrefix(rel, "node_modules/") || strings.Contains(rel, "/node_modules/")
}
