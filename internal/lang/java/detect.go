package java

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Detector finds Maven (pom.xml) and Gradle (build.gradle,
// build.gradle.kts, settings.gradle[.kts]) projects; each module is its
// own project, and a test belongs to its innermost one. A module with its
// own manifest is found by the core's upward search; a module the search
// would pass by is declared as a Subproject of the project above it: a
// Gradle project the settings include whose folder has no default build
// file (see gradleSettings for the forms read), a Maven module whose POM
// has another name (<module>x/pom-alt.xml</module>, see detectMaven).
// Test sources are the .java files under src/test/java, or under Maven's
// <testSourceDirectory> when the POM gives it literally. A build inside
// another project's resources or src/it (a Maven invoker or Gradle TestKit
// fixture) is no project: its own build never runs its tests.
//
// Which classes are tests follows each build tool: Maven's Surefire
// includes only top-level classes named Test*, *Test, *Tests or *TestCase
// (its default includes, with nested classes excluded as **/*$*; @Nested
// classes run through their outer class); Gradle's test task scans every
// class of the test source set and has no name filter. Every .java file of
// the test sources is extracted either way, so the Linker sees base classes
// whatever their names. Surefire's <includes>, <excludes> and <test>
// are read from the module's POM, its parents in the project and their
// <pluginManagement> when literal (surefireRuns); Gradle's sourceSets and
// test filters are not read.
var Detector lang.Detector = detector{}

type detector struct{}

func (detector) Ecosystem() string { return "java" }
func (detector) Manifests() []string {
	return []string{"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"}
}
func (detector) Extensions() []string { return []string{".java"} }

// defaultTestDir is where Maven and Gradle look for test sources.
const defaultTestDir = "src/test/java"

// Detect reads the Maven or Gradle build of dir (see detectMaven and
// detectGradle); with no manifest it makes the root fallback project.
func (detector) Detect(env *lang.DetectEnv, dir string, manifests []string) (*lang.Project, []testdex.Problem) {
	if len(manifests) > 0 && isFixtureBuild(env, dir) {
		return nil, nil
	}
	switch {
	case slices.Contains(manifests, "pom.xml"):
		return detectMaven(env, dir, "pom.xml")
	case len(manifests) > 0:
		return detectGradle(env, dir, manifests)
	}
	return newProject(dir, "", "", defaultTestDir, "surefire"), nil
}

// newProject makes the project of one build unit: Maven's (a manifest
// ending in .xml, with the Lister and Runner), Gradle's (the
// GradleRunner), or the root fallback (no manifest). testDir is its test
// source folder, filter the class filter (surefire or all). The impact
// Grapher reads only the default build file names (a build-file-less
// Gradle subproject's manifest is its build's settings script): a module
// whose POM or build file is named otherwise gets none, so any change in
// it affects all its tests (safe, not precise).
func newProject(dir, manifest, name, testDir, filter string) *lang.Project {
	p := &lang.Project{Dir: dir, Name: name, Manifest: manifest, Spanner: Spanner}
	var lister lang.Lister
	var runner lang.Runner
	switch {
	case isMaven(manifest):
		lister, runner = Lister{}, Runner{}
	case manifest != "":
		runner = GradleRunner{}
	}
	match := func(rel string) bool { return isJavaSource(rel) && strings.HasPrefix(rel, testDir+"/") }
	patterns := []string{testDir + "/**/*.java"}
	if manifest == "" {
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
	if slices.Contains(Detector.Manifests(), path.Base(manifest)) {
		p.Grapher = Grapher{Manifest: manifest, TestDir: testDir}
	}
	return p
}

// isMaven reports whether a project's manifest is a POM (pom.xml, or a
// module's POM of another name).
func isMaven(manifest string) bool { return strings.HasSuffix(manifest, ".xml") }

// isFixtureBuild reports whether dir lies below the src/ folder of a
// project above it (within the listed root), in a resources folder or in
// src/it: a sample build that the outer project's tests or the invoker
// plugin drive (maven-surefire's surefire-its holds hundreds), whose tests
// the outer build never runs as its own. A module really kept under src/
// elsewhere (src/modules/x) is still a project.
func isFixtureBuild(env *lang.DetectEnv, dir string) bool {
	for up, n := filepath.Dir(dir), 0; n < maxClimb && below(env.Root, dir); up, n = filepath.Dir(up), n+1 {
		rel, err := filepath.Rel(up, dir)
		if err != nil {
			return false
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		fixture := len(parts) > 1 && parts[0] == "src" && (parts[1] == "it" || slices.Contains(parts[1:], "resources"))
		if fixture && hasManifest(env, up) {
			return true
		}
		if up == env.Root || filepath.Dir(up) == up {
			return false
		}
	}
	return false
}

// isJavaSource reports whether a file is a Java compilation unit that may
// declare classes (module-info.java and package-info.java do not).
func isJavaSource(rel string) bool {
	base := path.Base(rel)
	return strings.HasSuffix(base, ".java") && base != "module-info.java" && base != "package-info.java"
}
