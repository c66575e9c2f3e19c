package js

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector is the node ecosystem: a folder with a package.json is a
// project, and its frameworks come from package.json (dependencies,
// devDependencies, the "jest" and "mocha" keys, scripts.test) and from
// configuration files (jest.config.*, vitest.config.*, vite.config.* with
// a test block, .mocharc.*). A package.json naming no framework is not a
// project for testing: the search goes on upward, so a workspace package
// belongs to the root's runner.
//
// Several frameworks in one project are tried in this order, a file going
// to the first that matches it: the framework scripts.test runs first,
// then Vitest, Jest, Mocha and node:test.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string   { return "node" }
func (detector) Manifests() []string { return []string{"package.json", "deno.json", "deno.jsonc"} }
func (detector) Extensions() []string {
	return []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"}
}

// packageJSON is the part of package.json detection reads.
type packageJSON struct {
	Name            string            `json:"name"`
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
	Jest            json.RawMessage   `json:"jest"`
	Mocha           json.RawMessage   `json:"mocha"`
}

func (p *packageJSON) dep(name string) bool {
	_, a := p.Dependencies[name]
	_, b := p.DevDependencies[name]
	return a || b
}

// project is what Detect gathers for one folder.
type project struct {
	env   *lang.DetectEnv
	dir   string
	pkg   packageJSON
	deno  bool   // a deno.json or deno.jsonc is there
	test  string // scripts.test
	probs []testdex.Problem
}

func (detector) Detect(env *lang.DetectEnv, dir string, manifests []string) (*lang.Project, []testdex.Problem) {
	pr := &project{env: env, dir: dir}
	pr.deno = pr.denoGlubean(manifests)
	if slices.Contains(manifests, "package.json") {
		file := filepath.Join(dir, "package.json")
		data, err := env.ReadFile(file)
		if err == nil {
			err = json.Unmarshal(data, &pr.pkg)
		}
		if err != nil {
			pr.probs = append(pr.probs, testdex.Problem{Severity: testdex.SevError, Path: file,
				Message: "cannot read package.json: " + err.Error() + " (fix it; its tests are listed with default settings)"})
		}
		pr.test = pr.pkg.Scripts["test"]
	}
	var setups []*lang.Setup
	for _, fw := range pr.order() {
		if env.Options[fw].Disabled {
			continue
		}
		if s := pr.setup(fw); s != nil {
			setups = append(setups, s)
		}
	}
	if len(setups) == 0 && len(manifests) > 0 {
		return nil, pr.probs
	}
	p := &lang.Project{Dir: dir, Name: pr.pkg.Name, Frameworks: setups, Grapher: Grapher, Spanner: Spanner}
	if len(manifests) > 0 {
		p.Manifest = manifests[0]
	}
	return p, pr.probs
}

var (
	scriptJest   = regexp.MustCompile(`(^|[\s/;&|])jest($|\s)`)
	scriptVitest = regexp.MustCompile(`(^|[\s/;&|])vitest($|\s)`)
	scriptMocha  = regexp.MustCompile(`(^|[\s/;&|])(mocha|_mocha)($|\s)`)
	scriptNode   = regexp.MustCompile(`(^|[\s/;&|])node\s+(\S+\s+)*--test($|\s|=)`)
)

// order lists the frameworks the project uses, scripts.test's first.
func (pr *project) order() []testdex.Framework {
	var out []testdex.Framework
	if pr.uses(testdex.Glubean) {
		out = append(out, testdex.Glubean) // first: it takes only the files that import its SDK
	}
	for _, c := range []struct {
		fw testdex.Framework
		re *regexp.Regexp
	}{{testdex.Vitest, scriptVitest}, {testdex.Jest, scriptJest}, {testdex.Mocha, scriptMocha}, {testdex.NodeTest, scriptNode}} {
		if c.re.MatchString(pr.test) {
			out = append(out, c.fw)
		}
	}
	for _, fw := range []testdex.Framework{testdex.Vitest, testdex.Jest, testdex.Mocha, testdex.NodeTest} {
		if !slices.Contains(out, fw) && pr.uses(fw) {
			out = append(out, fw)
		}
	}
	return out
}

// uses reports whether anything besides scripts.test names the framework.
func (pr *project) uses(fw testdex.Framework) bool {
	switch fw {
	case testdex.Jest:
		return pr.pkg.dep("jest") || pr.pkg.Jest != nil || pr.firstFile(jestConfigs) != ""
	case testdex.Vitest:
		return pr.pkg.dep("vitest") || pr.firstFile(vitestConfigs) != "" || pr.viteHasTest()
	case testdex.Mocha:
		return pr.pkg.dep("mocha") || pr.pkg.Mocha != nil || pr.firstFile(mochaConfigs) != ""
	case testdex.NodeTest:
		return pr.script(scriptNode) != "" || pr.env.Options[testdex.NodeTest].TestMatch != nil
	case testdex.Glubean:
		return pr.deno || pr.pkg.dep("@glubean/sdk") || pr.pkg.dep("@glubean/cli") || pr.env.Options[testdex.Glubean].TestMatch != nil
	}
	return false
}

// script returns the package.json script that runs a command matching
// re: scripts.test first, then the other test* scripts, then any, each
// group in name order; "" when none does.
func (pr *project) script(re *regexp.Regexp) string {
	if re.MatchString(pr.test) {
		return pr.test
	}
	keys := make([]string, 0, len(pr.pkg.Scripts))
	for k := range pr.pkg.Scripts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ta, tb := strings.HasPrefix(a, "test"), strings.HasPrefix(b, "test")
		if ta != tb {
			if ta {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys {
		if re.MatchString(pr.pkg.Scripts[k]) {
			return pr.pkg.Scripts[k]
		}
	}
	return ""
}

// firstFile returns the first of names present in the project folder.
func (pr *project) firstFile(names []string) string {
	for _, n := range names {
		if _, err := pr.env.ReadFile(filepath.Join(pr.dir, n)); err == nil {
			return n
		}
	}
	return ""
}

func (pr *project) read(name string) []byte {
	data, _ := pr.env.ReadFile(filepath.Join(pr.dir, name))
	return data
}

// warn records a warning about a file of the project.
func (pr *project) warn(name, msg string) {
	pr.probs = append(pr.probs, testdex.Problem{Severity: testdex.SevWarning, Path: filepath.Join(pr.dir, name), Message: msg})
}

func (pr *project) setup(fw testdex.Framework) *lang.Setup {
	var s *lang.Setup
	switch fw {
	case testdex.Jest:
		s = pr.jest()
	case testdex.Vitest:
		s = pr.vitest()
	case testdex.Mocha:
		s = pr.mocha()
	case testdex.NodeTest:
		s = pr.nodeTest()
	case testdex.Glubean:
		return pr.glubean()
	}
	if s == nil {
		return nil
	}
	s.Framework, s.Extractor, s.Lister, s.Linker, s.Runner = fw, ExtractorFor(fw), listerFor(fw), linker{fw}, runnerFor(fw)
	s.Duplicates = true // each runner registers and runs both tests of one name
	return s
}

// linker sets every record's Scope to its file's path relative to the
// project folder, as the runners report it, after filling in the titles
// that need a local module's tables (linkImports) and the tests of the
// files a test file loads (see loadLinker).
type linker struct{ fw testdex.Framework }

func (l linker) Link(p *lang.Project, files []*lang.Linked) []testdex.Problem {
	var problems []testdex.Problem
	mr := newModuleResolver(p)
	for _, f := range files {
		problems = append(problems, linkImports(l.fw, p, f, mr)...)
	}
	ll := newLoadLinker(l.fw, p, files)
	for _, f := range files {
		problems = append(problems, ll.link(f)...)
		for i := range f.Result.Tests {
			f.Result.Tests[i].Scope = f.Rel
		}
	}
	return problems
}
