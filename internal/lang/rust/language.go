package rust

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Language is Rust as the generic code knows it (registered in package
// languages). It sets no Bodies: attributes and multi-line signatures
// are not in a rule yet, so a change to a Rust file keeps the static
// evidence (safe, not precise) though its Spanner records functions.
var Language = &lang.Language{Detector: Detector, Frameworks: []*lang.Framework{Cargo}}

// Cargo is cargo test's framework (libtest). cfg attributes make the
// listing platform-dependent.
var Cargo = &lang.Framework{
	Name:         testdex.Cargo,
	Naming:       newNaming,
	AllPlatforms: true,
	Labels:       []string{"::"},
	FromJUnit:    fromJUnit,
}
