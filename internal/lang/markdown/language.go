package markdown

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is markdown specs as the generic code knows them (registered
// in package languages).
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{Semtest}}

// Semtest is the framework of markdown specs, judged by an agent, which
// testdex.toml's [specs] table configures. A spec's text is a section of
// its file.
var Semtest = &lang.Framework{
	Name:    testdex.Semtest,
	Specs:   true,
	Repeats: true,
	Section: section,
}
