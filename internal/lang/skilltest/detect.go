package skilltest

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/lang"
)

// Detector is the skilltest ecosystem. It has no manifest: its one project
// is the listed root. A file is a module when testMatch selects it and
// testPathIgnorePatterns does not (root-relative; the defaults unless
// testdex.toml's [skilltest] sets them); the root's testdex.toml holds the
// declared commands.
//
// Its Extensions are ".tests.mjs" and "testdex.toml", so a testMatch of
// other suffixes finds nothing: the walk's filter is static, and a wider
// one (".mjs", ".js") would make a skilltest project of every npm tree.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string    { return string(testdex.SkillTest) }
func (detector) Manifests() []string  { return nil }
func (detector) Extensions() []string { return []string{".tests.mjs", config.FileName} }

func (detector) Detect(env *lang.DetectEnv, dir string, _ []string) (*lang.Project, []testdex.Problem) {
	match, patterns, p := env.Options[testdex.SkillTest].Globs(testdex.SkillTest, Extractor{}.TestMatch(), Extractor{}.TestPathIgnorePatterns())
	if p != nil {
		return nil, []testdex.Problem{*p}
	}
	st, probs := readSettings(env, dir)
	return &lang.Project{Dir: dir, Frameworks: []*lang.Setup{{
		Framework: testdex.SkillTest,
		Extractor: Extractor{catalog: st.catalog},
		Match: func(rel string) bool {
			if rel == config.FileName {
				return st.declared
			}
			return match(rel)
		},
		Runner:   &runner{commands: st.commands, parallel: st.parallel},
		Patterns: slices.Concat(patterns, []string{config.FileName + " [skilltest] commands"}),
	}}}, probs
}

// settings are dir's testdex.toml's [skilltest] settings besides the
// file patterns.
type settings struct {
	commands map[string]config.Command // the valid ones, by name
	declared bool                      // commands are declared, valid or not
	parallel bool
	catalog  *catalog // nil when no skill is declared
}

// readSettings reads dir's testdex.toml (none when there is no such
// file). The commands' problems are reported by Extract, which reads the
// same file, so only a read error is returned here.
func readSettings(env *lang.DetectEnv, dir string) (settings, []testdex.Problem) {
	data, err := env.ReadFile(filepath.Join(dir, config.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return settings{}, nil
	}
	if err != nil {
		return settings{}, []testdex.Problem{{Severity: testdex.SevError, Path: config.FileName, Message: fmt.Sprintf("read [skilltest] settings: %v", err)}}
	}
	cmds, _, probs := commands(data)
	st := settings{commands: cmds, declared: len(cmds)+len(probs) > 0}
	if cfg, err := config.Parse(config.FileName, data); err == nil {
		f := cfg.Frameworks[string(testdex.SkillTest)]
		st.parallel, st.catalog = f.Parallel, newCatalog(f.Skills)
	}
	return st, nil
}
