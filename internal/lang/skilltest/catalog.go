package skilltest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
)

// The keys of a skill's test record's Meta: the seed's record fields.
const (
	MetaSkillName = "skillName"
	MetaShortName = "shortName"
	MetaSkillType = "skillType"
	MetaSkillDir  = "skillDir"
)

// testsDir is the folder, from the root, where a skill's test lives: the
// seed's <workingDir>/tests.
const testsDir = "tests"

// catalog is the skill catalog testdex.toml declares ([skilltest] skills),
// the seed's agent.skillCatalog: a skill's test is
// tests/SHORTNAME.tests.mjs, and its record carries the skill's fields.
type catalog struct {
	byShort map[string]config.Skill // shortName and type defaulted
	key     string                  // a digest of the catalog, for the extractor's cache key
}

// newCatalog returns the catalog of skills, nil when none is declared. A
// skill without a name is left out (Extract of testdex.toml says so); the
// first of skills sharing a short name is kept.
func newCatalog(skills []config.Skill) *catalog {
	if len(skills) == 0 {
		return nil
	}
	c := &catalog{byShort: map[string]config.Skill{}}
	h := sha256.New()
	for _, s := range skills {
		if s.Name == "" {
			continue
		}
		if s.ShortName == "" {
			s.ShortName = s.Name
		}
		if s.Type == "" {
			s.Type = "unknown"
		}
		if _, dup := c.byShort[s.ShortName]; !dup {
			c.byShort[s.ShortName] = s
		}
		fmt.Fprintf(h, "%q %q %q %q\n", s.Name, s.ShortName, s.Type, s.SkillDir)
	}
	c.key = hex.EncodeToString(h.Sum(nil))[:16]
	return c
}

// meta returns the record fields of the skill whose test the module rel
// (root-relative) is; ok is false for an orphan: a module that is no
// skill's test.
func (c *catalog) meta(rel string) (meta map[string]string, ok bool) {
	dir, base := path.Split(rel)
	short, isModule := strings.CutSuffix(base, ".tests.mjs")
	s, known := c.byShort[short]
	if dir != testsDir+"/" || !isModule || !known {
		return nil, false
	}
	meta = map[string]string{MetaSkillName: s.Name, MetaShortName: s.ShortName, MetaSkillType: s.Type}
	if s.SkillDir != "" {
		meta[MetaSkillDir] = s.SkillDir
	}
	return meta, true
}

// orphan is the warning on a module that is no skill's test.
func orphan(rel string) testdex.Problem {
	return testdex.Problem{Severity: testdex.SevWarning, Line: 1, Message: fmt.Sprintf(
		"orphan skill test: no skill of %s [skilltest] skills has it as its test (a skill's test is %s/SHORTNAME.tests.mjs); it runs, but tests no declared skill",
		config.FileName, testsDir)}
}

// skillProblems are the catalog's declaration problems, for Extract of
// testdex.toml.
func skillProblems(skills []config.Skill) []testdex.Problem {
	var probs []testdex.Problem
	for i, s := range skills {
		if s.Name == "" {
			probs = append(probs, testdex.Problem{Severity: testdex.SevError, Line: 1,
				Message: fmt.Sprintf("[skilltest] skill %d has no name (add name = \"...\")", i+1)})
		}
	}
	return probs
}
