package js

import (
	"encoding/json"
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// The configuration files each framework reads, in its own order of
// precedence.
var (
	jestConfigs   = []string{"jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json"}
	vitestConfigs = []string{"vitest.config.ts", "vitest.config.mts", "vitest.config.cts", "vitest.config.js", "vitest.config.mjs", "vitest.config.cjs"}
	viteConfigs   = []string{"vite.config.ts", "vite.config.mts", "vite.config.cts", "vite.config.js", "vite.config.mjs", "vite.config.cjs"}
	mochaConfigs  = []string{".mocharc.js", ".mocharc.cjs", ".mocharc.yaml", ".mocharc.yml", ".mocharc.jsonc", ".mocharc.json"}
)

// config reads the first present config file of names, then the
// package.json key (raw) when there is none. src names where it came
// from, "" when nowhere.
func (pr *project) config(names []string, raw json.RawMessage) (cfg value, src string) {
	if f := pr.firstFile(names); f != "" {
		v, err := readConfig(f, pr.read(f))
		if err != nil {
			pr.warn(f, err.Error()+"; using the default test patterns")
			return value{kind: kObject}, f
		}
		if v.kind != kObject {
			pr.warn(f, "the exported configuration is not a literal object; using the default test patterns")
			return value{kind: kObject}, f
		}
		return v, f
	}
	if raw != nil {
		var a any
		if json.Unmarshal(raw, &a) == nil {
			if v := fromAny(a); v.kind == kObject {
				return v, "package.json"
			}
		}
	}
	return value{kind: kObject}, ""
}

// list reads a string-list setting, keeping def (with a warning) when the
// value is not a literal.
func (pr *project) list(cfg value, src, key string, def []string) []string {
	l, present, ok := setting(cfg, key)
	switch {
	case !present:
		return def
	case !ok:
		pr.warn(src, key+" is not a literal string list; using the default "+strings.Join(def, " "))
		return def
	}
	return l
}

// jest builds Jest's Setup: testMatch globs (or testRegex), roots,
// testPathIgnorePatterns and moduleFileExtensions, <rootDir> expanded.
func (pr *project) jest() *lang.Setup {
	cfg, src := pr.config(jestConfigs, pr.pkg.Jest)
	if _, ok := cfg.field("projects"); ok {
		pr.warn(src, "Jest projects are not read yet; the root configuration's patterns are used for every file")
	}
	dir := filepath.ToSlash(pr.dir)
	if l, present, ok := setting(cfg, "rootDir"); present && ok && len(l) == 1 {
		dir = path.Join(filepath.ToSlash(filepath.Dir(filepath.Join(pr.dir, src))), l[0])
		if path.IsAbs(l[0]) {
			dir = l[0]
		}
	}
	match := rootDir(pr.list(cfg, src, "testMatch", jestTestMatch), dir)
	regex := rootDir(pr.list(cfg, src, "testRegex", nil), dir)
	ignore := rootDir(pr.list(cfg, src, "testPathIgnorePatterns", jestIgnore), dir)
	roots := rootDir(pr.list(cfg, src, "roots", []string{"<rootDir>"}), dir)
	for i, r := range roots {
		if !path.IsAbs(r) { // Jest resolves roots: ["test"] against rootDir
			roots[i] = path.Join(dir, r)
		}
	}
	exts := pr.list(cfg, src, "moduleFileExtensions", jestExtensions)
	o := pr.env.Options[testdex.Jest]
	if o.TestMatch != nil {
		match, regex = o.TestMatch, nil
	}
	if o.TestPathIgnorePatterns != nil {
		ignore = o.TestPathIgnorePatterns
	}
	globs, bad := compileGlobs(match)
	pr.badPatterns(src, "testMatch", bad)
	res, bad := compileRegexps(regex)
	pr.badPatterns(src, "testRegex", bad)
	ign, bad := compileRegexps(ignore)
	pr.badPatterns(src, "testPathIgnorePatterns", bad)
	base := filepath.ToSlash(pr.dir)
	patterns := match
	if len(regex) > 0 {
		patterns = regex
	}
	var settings lang.Settings
	if t := pr.tsJestTarget(cfg, dir); t != "" {
		settings = lang.Settings{tsJestSetting: {t}}
	}
	if pr.jestJasmine(cfg) {
		if settings == nil {
			settings = lang.Settings{}
		}
		settings[jasmineSetting] = []string{"1"}
	}
	return &lang.Setup{Patterns: patterns, Settings: settings, Match: func(rel string) bool {
		abs := path.Join(base, rel)
		if !hasExt(rel, exts) || ign.match(abs) || !underAny(abs, roots) {
			return false
		}
		if len(res) > 0 {
			return res.match(abs)
		}
		return globs.matchRelOrAbs(rel, abs)
	}}
}

func (pr *project) badPatterns(src, key string, bad []string) {
	for _, b := range bad {
		pr.warn(src, key+" pattern "+b+" cannot be used (negated extglob or bad syntax); it is ignored")
	}
}

func underAny(abs string, roots []string) bool {
	for _, r := range roots {
		if abs == r || strings.HasPrefix(abs, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// matchRelOrAbs matches absolute patterns (from <rootDir>) against the
// absolute path and the rest against the project-relative one.
func (g globSet) matchRelOrAbs(rel, abs string) bool {
	for _, p := range g {
		target := rel
		if strings.HasPrefix(p, "/") {
			target = abs
		}
		if (globSet{p}).match(target) {
			return true
		}
	}
	return false
}

// vitest builds Vitest's Setup from test.include, test.exclude and
// test.dir of vitest.config.* or vite.config.*.
func (pr *project) vitest() *lang.Setup {
	cfg, src := pr.config(vitestConfigs, nil)
	if src == "" {
		cfg, src = pr.config(viteConfigs, nil)
	}
	t, _ := cfg.field("test")
	if t.kind == kUnknown && src != "" {
		pr.warn(src, "test is not a literal object; using Vitest's default include and exclude")
	}
	if _, ok := t.field("projects"); ok {
		pr.warn(src, "Vitest projects are not read yet; the root test.include is used for every file")
	}
	include := pr.list(t, src, "include", vitestInclude)
	exclude := pr.list(t, src, "exclude", vitestExclude)
	dirs := pr.list(t, src, "dir", nil)
	o := pr.env.Options[testdex.Vitest]
	if o.TestMatch != nil {
		include = o.TestMatch
	}
	if o.TestPathIgnorePatterns != nil {
		exclude = o.TestPathIgnorePatterns
	}
	inc, bad := compileGlobs(include)
	pr.badPatterns(src, "test.include", bad)
	exc, bad := compileGlobs(exclude)
	pr.badPatterns(src, "test.exclude", bad)
	typeInclude, typeOnly := pr.vitestTypecheck(t, src)
	typeInc, bad := compileGlobs(typeInclude)
	pr.badPatterns(src, "test.typecheck.include", bad)
	patterns := include
	if typeOnly {
		patterns, inc = typeInclude, typeInc
	} else if len(typeInclude) > 0 {
		patterns = append(append([]string{}, include...), typeInclude...)
		inc = append(append(globSet{}, inc...), typeInc...)
	}
	return &lang.Setup{Patterns: patterns, Match: func(rel string) bool {
		if exc.match(rel) || underNodeModules(rel) {
			return false
		}
		if len(dirs) == 1 {
			d := strings.Trim(strings.TrimPrefix(dirs[0], "./"), "/")
			if !strings.HasPrefix(rel, d+"/") {
				return false
			}
		}
		return inc.match(rel)
	}}
}

// viteHasTest reports whether a vite.config.* declares a test block.
func (pr *project) viteHasTest() bool {
	f := pr.firstFile(viteConfigs)
	if f == "" {
		return false
	}
	v, err := readConfig(f, pr.read(f))
	if err != nil {
		return false
	}
	_, ok := v.field("test")
	return ok || (v.kind == kUnknown && strings.Contains(string(pr.read(f)), "test:"))
}
