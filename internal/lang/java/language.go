package java

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is Java as the generic code knows it (registered in package
// languages). It sets no Bodies: annotations and multi-line signatures
// are not in a rule yet, so a change to a Java file keeps the static
// evidence (safe, not precise) though its Spanner records functions.
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{JUnit}}

// JUnit is JUnit's framework, run by Maven's Surefire or Gradle.
var JUnit = &lang.Framework{
	Name:   testdex.JUnit,
	Naming: newNaming,
	Labels: []string{".", "$"}, // Outer.m() -> m(), Outer$Inner -> Inner; a row's "[" stays
	// Surefire's and Gradle's reports name a test as the runner's own
	// report does: its class, and its method as the runner reads it.
	FromJUnit: func(c lang.JUnitCase, _ []testdex.Test) []lang.Reported {
		return []lang.Reported{{Scope: c.Class, Name: recordName(c.Name)}}
	},
}
