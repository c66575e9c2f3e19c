package js

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/testdex/testdex"
)

// projectConfig is what a project's manifest and its test frameworks'
// configuration say about what its tests use, read as literals (nothing
// runs).
type projectConfig struct {
	// globals are project-relative globs of files every test depends on.
	globals []string
	// setup are files loaded before every test (setupFiles, --require):
	// every test file uses them, and what they import.
	setup []setupRef
	// mappers, aliases, modulePaths and moduleDirs map specifiers.
	mappers     []mapper
	aliases     []alias
	modulePaths []string // absolute folders
	moduleDirs  []string // folder names searched upward, besides node_modules
	// mockRoots are the folders whose __mocks__ mock packages.
	mockRoots []string
	jest      bool // Jest mocks packages from mockRoots without jest.mock
	// unknownMapping says why a specifier may be mapped where testdex
	// cannot see (a config that is not a literal); "" when all is read.
	unknownMapping string
}

// setupRef is a file loaded before every test, and what loads it.
type setupRef struct{ file, why string }

// Files every test of a node project depends on, whatever its framework.
var commonGlobals = []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
	"pnpm-workspace.yaml", "bun.lock", "bun.lockb", ".pnp.cjs", ".pnp.loader.mjs", ".yarnrc.yml", ".npmrc", ".nvmrc",
	".node-version", "**/tsconfig*.json", "**/jsconfig.json", "babel.config.*", "**/.babelrc", "**/.babelrc.*", ".swcrc"}

// Files every test depends on, per framework.
var frameworkGlobals = map[testdex.Framework][]string{
	testdex.Jest:   {"jest.config.*", "jest.preset.*"},
	testdex.Vitest: {"vitest.config.*", "vite.config.*", "vitest.workspace.*", "vitest.projects.*", ".env", ".env.*"},
	testdex.Mocha:  {".mocharc", ".mocharc.*"},
}

// cfgReader reads one project's configuration.
type cfgReader struct {
	r   *resolver
	pkg packageJSON
	cfg *projectConfig
	unk []string // what could not be read, for unknownMapping
	// named are the configs whose strings were read as file names.
	named map[string]bool
	fws   map[testdex.Framework]bool
	read  func(name string) ([]byte, error) // project-relative
}

// readProjectConfig reads the configuration of the project's frameworks.
func readProjectConfig(r *resolver, fws []testdex.Framework) *projectConfig {
	c := &cfgReader{r: r, cfg: &projectConfig{}, fws: map[testdex.Framework]bool{}, named: map[string]bool{}}
	c.read = func(name string) ([]byte, error) { return r.read(filepath.Join(r.proj, name)) }
	if data, err := c.read("package.json"); err == nil {
		_ = json.Unmarshal(data, &c.pkg)
	}
	c.cfg.globals = append(c.cfg.globals, commonGlobals...)
	for _, fw := range fws {
		if c.fws[fw] {
			continue
		}
		c.fws[fw] = true
		c.cfg.globals = append(c.cfg.globals, frameworkGlobals[fw]...)
		switch fw {
		case testdex.Jest:
			c.jest()
		case testdex.Vitest:
			c.vitest()
		case testdex.Mocha:
			c.mocha()
		case testdex.NodeTest:
			c.nodeTest()
		}
	}
	c.cfg.setup = uniqueSetup(c.cfg.setup)
	for _, s := range c.cfg.setup {
		if s.why == "config" {
			continue // global already
		}
		if rel, err := filepath.Rel(r.proj, s.file); err == nil && !strings.HasPrefix(rel, "..") {
			c.cfg.globals = append(c.cfg.globals, globEscape(filepath.ToSlash(rel)))
		}
	}
	if len(c.unk) > 0 {
		c.cfg.unknownMapping = strings.Join(c.unk, "; ")
	}
	return c.cfg
}

// uniqueSetup keeps the first of each file.
func uniqueSetup(list []setupRef) []setupRef {
	seen := map[string]bool{}
	var out []setupRef
	for _, s := range list {
		if !seen[s.file] {
			seen[s.file] = true
			out = append(out, s)
		}
	}
	return out
}

// literalConfig reads the first present config file of names (or the
// package.json key raw): ok is false when there is none; a config that
// is not a literal object is noted as unknown.
func (c *cfgReader) literalConfig(names []string, raw json.RawMessage) (cfg value, src string, ok bool) {
	for _, n := range names {
		data, err := c.read(n)
		if err != nil {
			continue
		}
		if scanned[filepath.Ext(n)] {
			// Its own imports (a shared config it merges) count too.
			c.cfg.setup = append(c.cfg.setup, setupRef{file: filepath.Join(c.r.proj, n), why: "config"})
		}
		v, err := readConfig(n, data)
		if err != nil || v.kind != kObject {
			c.unk = append(c.unk, n+" is not a literal object")
			c.namedFiles(n, data)
			return value{kind: kObject}, n, true
		}
		return v, n, true
	}
	if raw != nil {
		var a any
		if json.Unmarshal(raw, &a) == nil {
			if v := fromAny(a); v.kind == kObject {
				return v, "package.json", true
			}
		}
	}
	return value{kind: kObject}, "", false
}

// strs reads a string or string-list field; a field present but not
// literal is noted.
func (c *cfgReader) strs(obj value, src, key string) []string {
	l, present, ok := setting(obj, key)
	if present && !ok {
		c.unreadable(src, key+" is not a literal")
	}
	return l
}

// unreadable notes a part of a config testdex cannot read: it may map
// specifiers (unknownMapping), and every file the config names may be
// loaded before every test.
func (c *cfgReader) unreadable(src, why string) {
	c.unk = append(c.unk, src+": "+why)
	if data, err := c.read(src); err == nil && src != "package.json" {
		c.namedFiles(src, data)
	}
}

// namedFiles makes every file a config that cannot be read as a literal
// names in a string (relative to the project folder or to the config's)
// a setup file: its setupFiles may be among them. Each config once.
func (c *cfgReader) namedFiles(src string, data []byte) {
	if c.named[src] {
		return
	}
	c.named[src] = true
	base := filepath.Dir(filepath.Join(c.r.proj, src))
	for _, m := range quoted.FindAll(data, -1) {
		name := string(m[1 : len(m)-1])
		if name == "" || strings.ContainsAny(name, "*?{}\n") {
			continue
		}
		for _, dir := range []string{c.r.proj, base} {
			for _, f := range c.r.files(filepath.Join(dir, filepath.FromSlash(name)), false) {
				c.cfg.setup = append(c.cfg.setup, setupRef{file: f, why: "named in " + src})
			}
		}
	}
}

// quoted matches a one-line string literal.
var quoted = regexp.MustCompile(`"[^"\n]*"|'[^'\n]*'|` + "`[^`\n$]*`")

// setupFiles adds files loaded before every test: names resolved as
// paths from base (a package name is left to node_modules).
func (c *cfgReader) setupFiles(base string, names []string, why string) {
	for _, n := range names {
		if n == "" {
			continue
		}
		p := n
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, filepath.FromSlash(n))
		}
		for _, f := range c.r.files(p, true) {
			c.cfg.setup = append(c.cfg.setup, setupRef{file: f, why: why})
		}
	}
}

// jest reads jest.config.* (or package.json "jest"): moduleNameMapper,
// roots, modulePaths, moduleDirectories, and the files loaded before
// every test.
func (c *cfgReader) jest() {
	c.cfg.jest = true
	cfg, src, _ := c.literalConfig(jestConfigs, c.pkg.Jest)
	if _, ok := cfg.field("projects"); ok {
		c.unreadable(src, "Jest projects are not read")
	}
	rootDirAbs := c.r.proj
	if l, present, ok := setting(cfg, "rootDir"); present && ok && len(l) == 1 {
		rootDirAbs = filepath.Join(filepath.Dir(filepath.Join(c.r.proj, src)), filepath.FromSlash(l[0]))
		if filepath.IsAbs(l[0]) {
			rootDirAbs = l[0]
		}
	}
	sub := func(list []string) []string { return rootDir(list, filepath.ToSlash(rootDirAbs)) }
	if m, ok := cfg.field("moduleNameMapper"); ok {
		c.mappers(m, src, sub)
	}
	roots := sub(c.strs(cfg, src, "roots"))
	if roots == nil {
		roots = []string{rootDirAbs}
	}
	for _, r := range roots {
		c.cfg.mockRoots = append(c.cfg.mockRoots, c.abs(rootDirAbs, r))
	}
	for _, p := range sub(c.strs(cfg, src, "modulePaths")) {
		c.cfg.modulePaths = append(c.cfg.modulePaths, c.abs(rootDirAbs, p))
	}
	for _, d := range sub(c.strs(cfg, src, "moduleDirectories")) {
		switch {
		case d == "node_modules":
		case strings.Contains(d, "/"):
			c.cfg.modulePaths = append(c.cfg.modulePaths, c.abs(rootDirAbs, d))
		default:
			c.cfg.moduleDirs = append(c.cfg.moduleDirs, d)
		}
	}
	for _, key := range []string{"setupFiles", "setupFilesAfterEnv", "globalSetup", "globalTeardown", "testEnvironment",
		"snapshotResolver", "preset", "resolver", "testRunner", "testSequencer"} {
		c.setupFiles(rootDirAbs, sub(c.strs(cfg, src, key)), key)
	}
	if l, present, _ := setting(cfg, "resolver"); present && len(l) > 0 {
		c.unk = append(c.unk, src+": a custom resolver ("+l[0]+")")
	}
	if t, ok := cfg.field("transform"); ok {
		for _, v := range t.vals {
			if v.kind == kArray && len(v.arr) > 0 {
				v = v.arr[0]
			}
			if v.kind == kString {
				c.setupFiles(rootDirAbs, sub([]string{v.str}), "transform")
			}
		}
	}
}

// mappers reads moduleNameMapper: regexps (JavaScript's, compiled as
// Go's; one Go cannot read makes the mapping unknown) to names.
func (c *cfgReader) mappers(m value, src string, sub func([]string) []string) {
	if m.kind != kObject {
		c.unk = append(c.unk, src+": moduleNameMapper is not a literal")
		return
	}
	for i, k := range m.keys {
		re, err := regexp.Compile(k)
		to, ok := m.vals[i].strings()
		if err != nil || !ok {
			c.unk = append(c.unk, src+": moduleNameMapper "+k+" cannot be read")
			continue
		}
		c.cfg.mappers = append(c.cfg.mappers, mapper{re: re, to: sub(to)})
	}
}

func (c *cfgReader) abs(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, filepath.FromSlash(p))
}

// vitest reads vitest.config.* and vite.config.* (both when both exist:
// Vitest merges them when the first imports the second): resolve.alias,
// test.alias, test.setupFiles and test.globalSetup.
func (c *cfgReader) vitest() {
	c.cfg.mockRoots = append(c.cfg.mockRoots, c.r.proj)
	for _, names := range [][]string{vitestConfigs, viteConfigs} {
		cfg, src, ok := c.literalConfig(names, nil)
		if !ok {
			continue
		}
		t, present := cfg.field("test")
		if present && t.kind != kObject {
			c.unreadable(src, "test is not a literal object")
		}
		if _, ok := t.field("projects"); ok {
			c.unreadable(src, "Vitest projects are not read")
		}
		if _, ok := t.field("workspace"); ok {
			c.unreadable(src, "a Vitest workspace is not read")
		}
		if res, ok := cfg.field("resolve"); ok {
			if a, ok := res.field("alias"); ok {
				c.aliases(a, src)
			}
		}
		if a, ok := t.field("alias"); ok {
			c.aliases(a, src)
		}
		c.setupFiles(c.r.proj, c.strs(t, src, "setupFiles"), "vitest setupFiles")
		c.setupFiles(c.r.proj, c.strs(t, src, "globalSetup"), "vitest globalSetup")
	}
}

// aliases reads Vite's alias: an object {find: replacement} or an array
// of {find, replacement}; a replacement computed from __dirname or
// import.meta.url with literal parts is read too.
func (c *cfgReader) aliases(a value, src string) {
	base := filepath.Dir(filepath.Join(c.r.proj, src))
	add := func(find string, to value) {
		al := alias{find: find, base: base}
		switch {
		case to.kind == kString:
			al.to, al.known = to.str, true
		default:
			al.to, al.known = pathExpr(to.str, base)
		}
		c.cfg.aliases = append(c.cfg.aliases, al)
	}
	switch a.kind {
	case kObject:
		for i, k := range a.keys {
			add(k, a.vals[i])
		}
	case kArray:
		for _, e := range a.arr {
			f, _ := e.field("find")
			to, _ := e.field("replacement")
			if f.kind != kString {
				c.unk = append(c.unk, src+": an alias whose find is not a literal string")
				continue
			}
			add(f.str, to)
		}
	default:
		c.unk = append(c.unk, src+": alias is not a literal")
	}
}

var (
	pathCall = regexp.MustCompile(`^(?:path\.)?(?:resolve|join)\(\s*(?:__dirname|import\.meta\.dirname|process\.cwd\(\)|"\."|'\.')\s*((?:,\s*(?:"[^"]*"|'[^']*'|` + "`[^`$]*`" + `)\s*)*)\)$`)
	urlCall  = regexp.MustCompile(`^(?:fileURLToPath\(\s*)?new URL\(\s*("[^"]*"|'[^']*')\s*,\s*import\.meta\.url\s*\)(?:\s*\)|\.pathname)$`)
	strLit   = regexp.MustCompile(`"[^"]*"|'[^']*'|` + "`[^`]*`")
)

// pathExpr reads the usual computed alias paths: path.resolve(__dirname,
// "src"), path.join(process.cwd(), "a", "b"), fileURLToPath(new
// URL("./src", import.meta.url)). ok is false for anything else.
func pathExpr(src, base string) (string, bool) {
	src = strings.Join(strings.Fields(src), " ")
	if m := pathCall.FindStringSubmatch(src); m != nil {
		p := base
		for _, s := range strLit.FindAllString(m[1], -1) {
			seg := s[1 : len(s)-1]
			if filepath.IsAbs(seg) {
				p = seg
			} else {
				p = filepath.Join(p, filepath.FromSlash(seg))
			}
		}
		return p, true
	}
	if m := urlCall.FindStringSubmatch(src); m != nil {
		return filepath.Join(base, filepath.FromSlash(m[1][1:len(m[1])-1])), true
	}
	return "", false
}

// mochaRequireFlags are the Mocha options naming files loaded first.
var mochaRequireFlags = []struct{ flag, why string }{{"--require", "mocha --require"}, {"-r", "mocha --require"}, {"--file", "mocha --file"}}

// mocha reads .mocharc.* (or package.json "mocha") require and file, and
// --require, --file and --config of the script that runs Mocha.
func (c *cfgReader) mocha() {
	cfg, src, _ := c.literalConfig(mochaConfigs, c.pkg.Mocha)
	c.setupFiles(c.r.proj, c.strs(cfg, src, "require"), src+" require")
	c.setupFiles(c.r.proj, c.strs(cfg, src, "file"), src+" file")
	pr := &project{pkg: c.pkg, test: c.pkg.Scripts["test"]}
	_, flags := cliArgs(pr.script(scriptMocha), []string{"mocha", "_mocha"}, mochaValueFlags)
	for _, f := range mochaRequireFlags {
		c.setupFiles(c.r.proj, flags[f.flag], f.why)
	}
	for _, f := range flags["--config"] {
		c.cfg.globals = append(c.cfg.globals, globEscape(strings.TrimPrefix(f, "./")))
	}
}

// nodeFlags are the node options naming modules loaded before the tests.
var nodeFlags = map[string]bool{"--require": true, "-r": true, "--import": true, "--loader": true, "--experimental-loader": true,
	"--test-reporter": true, "--test-reporter-destination": true, "--test-name-pattern": true, "--env-file": true}

// nodeTest reads --require, --import and --loader of the script that
// runs node --test, and --env-file.
func (c *cfgReader) nodeTest() {
	pr := &project{pkg: c.pkg, test: c.pkg.Scripts["test"]}
	_, flags := cliArgs(pr.script(scriptNode), []string{"node"}, nodeFlags)
	for _, flag := range []string{"--require", "-r", "--import", "--loader", "--experimental-loader"} {
		c.setupFiles(c.r.proj, flags[flag], "node "+flag)
	}
	for _, f := range flags["--env-file"] {
		c.cfg.globals = append(c.cfg.globals, globEscape(strings.TrimPrefix(f, "./")))
	}
}

// globEscape quotes a file name's glob metacharacters for doublestar.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
