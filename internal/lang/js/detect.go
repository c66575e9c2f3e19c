// Package js discovers node tests. (Stub: being built.)
package js

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector is the node ecosystem's detector.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string    { return "node" }
func (detector) Manifests() []string  { return []string{"package.json"} }
func (detector) Extensions() []string { return nil }

func (detector) Detect(*lang.DetectEnv, string, []string) (*lang.Project, []testdex.Problem) {
	return nil, nil
}
