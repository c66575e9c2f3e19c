package golang

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is Go as the generic code knows it (registered in package
// languages).
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{GoTest}}

// GoTest is go test's framework.
var GoTest = &lang.Framework{
	Name: testdex.Go,
}
