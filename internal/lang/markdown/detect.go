package markdown

import (
	"path"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/specs"
)

// Detector is the semtest ecosystem. It has no manifest: its one project
// is the listed root, and a file is a spec when testMatch selects it and
// testPathIgnorePatterns does not (both root-relative, semtest's defaults
// unless testdex.toml's [semtest] sets them); outputDir is always excluded.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string    { return "semtest" }
func (detector) Manifests() []string  { return nil }
func (detector) Extensions() []string { return []string{".md"} }

func (detector) Detect(env *lang.DetectEnv, dir string, _ []string) (*lang.Project, []testdex.Problem) {
	o := env.Options[testdex.Semtest]
	var outputs []string
	for _, out := range o.Extra["outputDir"] { // the configured one, and run --output's
		if out != "" {
			outputs = append(outputs, path.Clean(out))
		}
	}
	match, patterns, p := o.Globs(testdex.Semtest, Extractor{}.TestMatch(), Extractor{}.TestPathIgnorePatterns(), outputs...)
	if p != nil {
		return nil, []testdex.Problem{*p}
	}
	cfg := specs.ConfigFromExtra(o.Extra)
	var probs []testdex.Problem
	if _, err := cfg.Resolve("", nil); err != nil {
		probs = append(probs, testdex.Problem{Severity: testdex.SevError, Path: "testdex.toml", Message: err.Error() + " (the specs cannot be judged)"})
	}
	return &lang.Project{Dir: dir, Frameworks: []*lang.Setup{{
		Framework: testdex.Semtest,
		Extractor: Extractor{},
		Match:     match,
		Patterns:  patterns,
		Lenient:   []string{".md"},
		Runner:    &runner{cfg: cfg},
	}}, Grapher: Grapher{}}, probs
}
