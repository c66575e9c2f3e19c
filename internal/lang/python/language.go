package python

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is Python as the generic code knows it (registered in package
// languages).
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{Pytest, Unittest}}

// Pytest is pytest's framework.
var Pytest = &lang.Framework{
	Name:   testdex.Pytest,
	Naming: newPytestNaming,
}

// Unittest is unittest's framework.
var Unittest = &lang.Framework{
	Name:   testdex.Unittest,
	Naming: newUnittestNaming,
}
