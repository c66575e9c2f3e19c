package golang

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector finds Go modules: a folder with a go.mod is a project whose
// _test.go files are go tests. A Go file with no go.mod above it belongs to
// a fallback project at the listed root, whose scope is the folder (go test
// itself would refuse it outside a module; a warning says so).
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string    { return "go" }
func (detector) Manifests() []string  { return []string{"go.mod"} }
func (detector) Extensions() []string { return []string{"_test.go"} }

// Detect reads go.mod's module path. Options: testdex.toml's [go] tags
// (build tags), all_platforms, goos and goarch.
func (detector) Detect(env *lang.DetectEnv, dir string, manifests []string) (*lang.Project, []testdex.Problem) {
	p := &lang.Project{Dir: dir}
	var probs []testdex.Problem
	if len(manifests) > 0 {
		p.Manifest = "go.mod"
		data, err := env.ReadFile(filepath.Join(dir, "go.mod"))
		switch {
		case err != nil:
			probs = append(probs, testdex.Problem{Severity: testdex.SevError, Path: filepath.Join(dir, "go.mod"), Message: "cannot read: " + err.Error()})
		case modfile.ModulePath(data) == "":
			probs = append(probs, testdex.Problem{Severity: testdex.SevError, Path: filepath.Join(dir, "go.mod"), Message: "no module directive; import paths are unknown"})
		default:
			p.Name = modfile.ModulePath(data)
		}
	}
	opts := env.Options[testdex.Go]
	if p.Name != "" {
		p.Grapher = grapherFor(opts) // without a module path, imports are unknown: no evidence
	}
	p.Spanner = Spanner
	ex := extractorFor(opts)
	p.Frameworks = []*lang.Setup{{
		Framework: testdex.Go,
		Extractor: ex,
		Match:     isTestFile,
		Patterns:  []string{"**/*_test.go"},
		Linker:    linker{ex: ex},
		Lister:    lister{},
		Runner:    runner{},
	}}
	return p, probs
}

// extractorFor builds the extractor the options ask for.
func extractorFor(o lang.FrameworkOptions) *Extractor {
	ctx := build.Default
	if v := o.Extra["goos"]; len(v) == 1 {
		ctx.GOOS = v[0]
	}
	if v := o.Extra["goarch"]; len(v) == 1 {
		ctx.GOARCH = v[0]
	}
	if tags := o.Extra["tags"]; len(tags) > 0 {
		ctx.BuildTags = append(slices.Clone(ctx.BuildTags), tags...)
	}
	return &Extractor{Context: &ctx, AllPlatforms: slices.Contains(o.Extra["all_platforms"], "true")}
}

// isTestFile reports whether go test compiles a module-relative file: a
// _test.go file whose name does not start with "_" or ".", in no folder
// named testdata or starting with "_" or ".".
func isTestFile(rel string) bool {
	if !strings.HasSuffix(rel, "_test.go") {
		return false
	}
	for _, elem := range strings.Split(rel, "/") {
		if elem == "testdata" || strings.HasPrefix(elem, "_") || strings.HasPrefix(elem, ".") {
			return false
		}
	}
	return true
}

// importPath joins a module path and a module-relative folder. The
// standard library's module "std" has import paths without a prefix, as go
// list reports them.
func importPath(module, dir string) string {
	switch {
	case module == "std":
		return dir
	case dir == ".":
		return module
	}
	return module + "/" + dir
}
