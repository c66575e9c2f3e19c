// Package rust discovers cargo tests. (Stub: being built.)
package rust

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector is the cargo ecosystem's detector.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string    { return "cargo" }
func (detector) Manifests() []string  { return []string{"Cargo.toml"} }
func (detector) Extensions() []string { return nil }

func (detector) Detect(*lang.DetectEnv, string, []string) (*lang.Project, []testdex.Problem) {
	return nil, nil
}
