package golang

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is Go as the generic code knows it (registered in package
// languages). A function's body lies between its first and last lines
// (the default rule of lang.Bodies).
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{GoTest},
	Bodies: &lang.Bodies{Extensions: []string{".go"}}}

// GoTest is go test's framework. A test only the runner reported is
// known by its package, so an ID may start with the package's folder; a
// test with subtests reports a result of its own, which go test counts;
// build constraints make the listing platform-dependent.
var GoTest = &lang.Framework{
	Name:          testdex.Go,
	Naming:        newNaming,
	FolderIDs:     true,
	FolderRuns:    true,
	ParentsReport: true,
	AllPlatforms:  true,
	Labels:        []string{"/"},
}
