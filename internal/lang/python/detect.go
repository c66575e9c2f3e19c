// Package python discovers python tests. (Stub: being built.)
package python

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector is the python ecosystem's detector.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string    { return "python" }
func (detector) Manifests() []string  { return []string{"pyproject.toml", "setup.cfg", "pytest.ini", "tox.ini", "setup.py"} }
func (detector) Extensions() []string { return nil }

func (detector) Detect(*lang.DetectEnv, string, []string) (*lang.Project, []testdex.Problem) {
	return nil, nil
}
