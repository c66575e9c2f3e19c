package js

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is JavaScript and TypeScript as the generic code knows them
// (registered in package languages). A function's body lies after the
// line its body starts on, up to the line before its last (body.go).
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{Jest, Vitest, Mocha, NodeTest, Glubean},
	Bodies: bodies}

// The frameworks of JavaScript, which name their tests alike.
var (
	Jest     = framework(testdex.Jest)
	Vitest   = framework(testdex.Vitest)
	Mocha    = framework(testdex.Mocha)
	NodeTest = framework(testdex.NodeTest)
	// Glubean's tests are keyed by their ids, a builder's steps by the
	// test's id and the step's name joined by " > "; a test reports a
	// result of its own besides its steps'.
	Glubean = &lang.Framework{Name: testdex.Glubean, Naming: newNaming, Labels: []string{" > "}, ParentsReport: true, FromJUnit: fromJUnit}
)

func framework(name testdex.Framework) *lang.Framework {
	return &lang.Framework{
		Name:         name,
		Naming:       newNaming,
		Labels:       []string{" > "},
		FromJUnit:    fromJUnit,
		SetupPerFile: true,
	}
}
