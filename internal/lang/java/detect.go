// Package java discovers java tests. (Stub: being built.)
package java

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector is the java ecosystem's detector.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string    { return "java" }
func (detector) Manifests() []string  { return []string{"pom.xml", "build.gradle", "build.gradle.kts"} }
func (detector) Extensions() []string { return nil }

func (detector) Detect(*lang.DetectEnv, string, []string) (*lang.Project, []testdex.Problem) {
	return nil, nil
}
