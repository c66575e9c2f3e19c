package java

import (
	"encoding/xml"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// pom is the part of a Maven POM the detector reads.
type pom struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Parent     struct {
		GroupID      string  `xml:"groupId"`
		ArtifactID   string  `xml:"artifactId"`
		RelativePath *string `xml:"relativePath"`
	} `xml:"parent"`
	Build struct {
		TestSourceDirectory string      `xml:"testSourceDirectory"`
		Plugins             []pomPlugin `xml:"plugins>plugin"`
		PluginManagement    []pomPlugin `xml:"pluginManagement>plugins>plugin"`
	} `xml:"build"`
	Dependencies []struct {
		GroupID string `xml:"groupId"`
		Scope   string `xml:"scope"`
	} `xml:"dependencies>dependency"`
	Modules        []string `xml:"modules>module"`
	ProfileModules []string `xml:"profiles>profile>modules>module"`
}

func readPOM(env *lang.DetectEnv, abs string) (*pom, error) {
	name := filepath.Base(abs)
	data, err := readFile(env, abs)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w (test sources are taken from %s)", name, err, defaultTestDir)
	}
	var p pom
	if err := xml.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s does not parse: %v (fix it; test sources are taken from %s meanwhile)", name, err, defaultTestDir)
	}
	return &p, nil
}

// detectMaven builds the project of a Maven module: dir with its POM
// manifest (pom.xml, or another name a parent's <module> gives). A POM
// that does not parse is an error Problem; the project then uses Maven's
// defaults. Its Subprojects are the modules below it whose POM is not
// pom.xml (the upward search would pass them by), read recursively.
func detectMaven(env *lang.DetectEnv, dir, manifest string) (*lang.Project, []testdex.Problem) {
	return mavenModule(env, dir, manifest, map[string]bool{})
}

// mavenModule reads one module; seen guards against <module> cycles.
func mavenModule(env *lang.DetectEnv, dir, manifest string, seen map[string]bool) (*lang.Project, []testdex.Problem) {
	seen[dir] = true
	abs := filepath.Join(dir, manifest)
	pom, err := readPOM(env, abs)
	if err != nil {
		return newProject(dir, manifest, "", defaultTestDir, "surefire"),
			[]testdex.Problem{{Severity: testdex.SevError, Path: abs, Message: err.Error()}}
	}
	testDir := defaultTestDir
	if d, ok := pom.testDir(); ok {
		testDir = d
	}
	p := newProject(dir, manifest, pom.name(), testDir, "surefire")
	runs, probs := surefireRuns(env, abs, pom)
	if runs != nil {
		p.Frameworks[0].Settings[SettingSurefireRuns] = runs
	}
	for _, d := range pom.Dependencies {
		if strings.TrimSpace(d.GroupID) == "org.testng" {
			probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: abs,
				Message: "this module depends on TestNG: its TestNG tests are not listed (only JUnit's are)"})
			break
		}
	}
	for _, m := range pom.modules() {
		mdir, mpom := moduleManifest(dir, m)
		if mpom == "pom.xml" || seen[mdir] || !below(dir, mdir) || exists(env, filepath.Join(mdir, "pom.xml")) {
			continue // found by the upward search, or not a module of this tree
		}
		sub, subProbs := mavenModule(env, mdir, mpom, seen)
		probs = append(probs, subProbs...)
		p.Subprojects = append(p.Subprojects, sub)
		p.Subprojects = append(p.Subprojects, sub.Subprojects...)
		sub.Subprojects = nil
	}
	return p, probs
}

// modules lists the POM's <module> entries, those of its profiles too: a
// module that only a profile builds still holds tests that run when the
// profile is on, and listing is static (no profile is active or not).
func (p *pom) modules() []string {
	return append(append([]string(nil), p.Modules...), p.ProfileModules...)
}

// moduleManifest resolves a <module> entry against its parent's folder:
// a folder (its pom.xml) or a POM file of any name.
func moduleManifest(dir, entry string) (mdir, pomName string) {
	e := path.Clean(filepath.ToSlash(strings.TrimSpace(entry)))
	abs := filepath.Join(dir, filepath.FromSlash(e))
	if strings.HasSuffix(e, ".xml") {
		return filepath.Dir(abs), path.Base(e)
	}
	return abs, "pom.xml"
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
