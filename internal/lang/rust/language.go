package rust

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is Rust as the generic code knows it (registered in package
// languages).
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{Cargo}}

// Cargo is cargo test's framework (libtest). cfg attributes make the
// listing platform-dependent.
var Cargo = &lang.Framework{
	Name:         testdex.Cargo,
	Naming:       newNaming,
	AllPlatforms: true,
	Labels:       []string{"::"},
}
