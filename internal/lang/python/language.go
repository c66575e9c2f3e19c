package python

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is Python as the generic code knows it (registered in package
// languages).
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{Pytest, Unittest}, Bodies: bodies}

// Pytest is pytest's framework. The rows of a parametrized test, named
// at run time (their parameter IDs), run by the ID they were recorded
// under: testdex run and pytest both take it, so a selection may name
// some rows of a listed test alone.
var Pytest = &lang.Framework{
	Name:         testdex.Pytest,
	Naming:       newPytestNaming,
	RowsRunByID:  true,
	Labels:       []string{testdex.IDSep}, // a row's "[" stays in its label: test_m[1] -> [1]
	FromJUnit:    fromJUnit,
	SetupPerFile: true,
}

// Unittest is unittest's framework.
var Unittest = &lang.Framework{
	Name:         testdex.Unittest,
	Naming:       newUnittestNaming,
	Labels:       []string{testdex.IDSep},
	FromJUnit:    fromJUnit,
	SetupPerFile: true,
}
