// Package java discovers JUnit 4 and JUnit 5 tests in Maven and Gradle
// projects by parsing Java sources with tree-sitter; it never compiles or
// runs them. Its Lister asks the JUnit Platform console launcher to
// discover the compiled tests (the runtime method).
package java

import (
	"encoding/xml"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector finds Maven (pom.xml) and Gradle (build.gradle,
// build.gradle.kts) projects; each module with its own manifest is its own
// project. Test sources are the .java files under src/test/java, or under
// Maven's <testSourceDirectory> when pom.xml gives it literally.
//
// Which classes are tests follows each build tool: Maven's Surefire
// includes only top-level classes named Test*, *Test, *Tests or *TestCase
// (its default includes, with nested classes excluded as **/*$*; @Nested
// classes run through their outer class); Gradle's test task scans every
// class of the test source set and has no name filter. Every .java file of
// the test sources is extracted either way, so the Linker sees base classes
// whatever their names. Gradle's sourceSets and Surefire's
// <includes>/<excludes> overrides are not read.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string { return "java" }
func (detector) Manifests() []string {
	return []string{"pom.xml", "build.gradle", "build.gradle.kts"}
}
func (detector) Extensions() []string { return []string{".java"} }

// defaultTestDir is where Maven and Gradle look for test sources.
const defaultTestDir = "src/test/java"

// Detect reads pom.xml (name, testSourceDirectory) or takes Gradle's
// defaults. A pom.xml that does not parse is an error Problem; the project
// then uses Maven's defaults.
func (detector) Detect(env *lang.DetectEnv, dir string, manifests []string) (*lang.Project, []testdex.Problem) {
	p := &lang.Project{Dir: dir, Spanner: Spanner}
	var probs []testdex.Problem
	testDir, filter := defaultTestDir, "surefire"
	var lister lang.Lister
	var runner lang.Runner
	switch {
	case slices.Contains(manifests, "pom.xml"):
		p.Manifest = "pom.xml"
		lister, runner = Lister{}, Runner{}
		pom, err := readPOM(env, filepath.Join(dir, "pom.xml"))
		if err != nil {
			probs = append(probs, testdex.Problem{Severity: testdex.SevError, Path: filepath.Join(dir, "pom.xml"), Message: err.Error()})
		} else {
			p.Name = pom.name()
			if d, ok := pom.testDir(); ok {
				testDir = d
			}
		}
	case len(manifests) > 0:
		p.Manifest = manifests[0]
		filter = "all"
	}
	match := func(rel string) bool { return isJavaSource(rel) && strings.HasPrefix(rel, testDir+"/") }
	patterns := []string{testDir + "/**/*.java"}
	if len(manifests) == 0 {
		// No build file above: any src/test/java folder, or a file Surefire
		// would include by name.
		match = func(rel string) bool {
			return isJavaSource(rel) && (strings.Contains("/"+rel, "/src/test/java/") || surefireName(strings.TrimSuffix(path.Base(rel), ".java")))
		}
		patterns = []string{"**/src/test/java/**/*.java", "**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java"}
	}
	p.Frameworks = []*lang.Setup{{
		Framework: testdex.JUnit,
		Extractor: Extractor{},
		Match:     match,
		Patterns:  patterns,
		Settings:  lang.Settings{SettingClassFilter: {filter}},
		Linker:    linker{},
		Lister:    lister,
		Runner:    runner,
	}}
	if p.Manifest != "" {
		p.Grapher = Grapher{Manifest: p.Manifest, TestDir: testDir}
	}
	return p, probs
}

// isJavaSource reports whether a file is a Java compilation unit that may
// declare classes (module-info.java and package-info.java do not).
func isJavaSource(rel string) bool {
	base := path.Base(rel)
	return strings.HasSuffix(base, ".java") && base != "module-info.java" && base != "package-info.java"
}

// pom is the part of a Maven POM the detector reads.
type pom struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Parent     struct {
		GroupID string `xml:"groupId"`
	} `xml:"parent"`
	Build struct {
		TestSourceDirectory string `xml:"testSourceDirectory"`
	} `xml:"build"`
}

func readPOM(env *lang.DetectEnv, abs string) (*pom, error) {
	data, err := env.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot read pom.xml: %w (test sources are taken from %s)", err, defaultTestDir)
	}
	var p pom
	if err := xml.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("pom.xml does not parse: %v (fix it; test sources are taken from %s meanwhile)", err, defaultTestDir)
	}
	return &p, nil
}

// name is groupId:artifactId, the groupId inherited from the parent when
// absent.
func (p *pom) name() string {
	g := p.GroupID
	if g == "" {
		g = p.Parent.GroupID
	}
	if p.ArtifactID == "" {
		return ""
	}
	return g + ":" + p.ArtifactID
}

// testDir returns <testSourceDirectory> when it is literal (literalDir).
func (p *pom) testDir() (string, bool) { return literalDir(p.Build.TestSourceDirectory) }

// literalDir returns a POM folder setting (<testSourceDirectory>,
// <sourceDirectory>) relative to the project when it is literal (no
// ${property}) and inside the project.
func literalDir(d string) (string, bool) {
	d = strings.TrimSpace(d)
	d = strings.TrimPrefix(d, "${project.basedir}/")
	d = strings.TrimPrefix(d, "${basedir}/")
	if d == "" || strings.Contains(d, "${") || path.IsAbs(d) {
		return "", false
	}
	d = path.Clean(filepath.ToSlash(d))
	if d == "." || strings.HasPrefix(d, "../") {
		return "", false
	}
	return d, true
}
