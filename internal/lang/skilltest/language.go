package skilltest

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is skilltest's test files and declared commands as the
// generic code knows them (registered in package languages).
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{SkillTest}}

// SkillTest is skilltest's framework.
var SkillTest = &lang.Framework{
	Name: testdex.SkillTest,
}
