package java

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// gradleSettingsNames are the settings scripts Gradle looks for, in the
// order it prefers them.
var gradleSettingsNames = []string{"settings.gradle", "settings.gradle.kts"}

// gradleBuildNames are Gradle's default build file names, in its order.
var gradleBuildNames = []string{"build.gradle", "build.gradle.kts"}

// gradleBuild is one Gradle build's layout: its settings and the projects
// they include.
type gradleBuild struct {
	dir      string // absolute folder of the settings script
	settings string // its file name
	projects []*gradleProj
	warnings []settingsWarning
}

// gradleProj is one project of a build.
type gradleProj struct {
	path string // ":" for the root, ":a:b"
	dir  string // absolute
	// builds are the build file names the settings give it, the first
	// that exists taken; none for Gradle's default.
	builds []string
}

// maxClimb bounds the search upward for a build's settings or reactor.
const maxClimb = 64

// findGradleBuild reads the settings of the nearest folder at or above dir
// that has settings.gradle[.kts] (Gradle's own search); nil when none.
func findGradleBuild(env *lang.DetectEnv, dir string) *gradleBuild {
	d := dir
	for range maxClimb {
		for _, name := range gradleSettingsNames {
			if data, err := readFile(env, filepath.Join(d, name)); err == nil {
				return newGradleBuild(d, name, readGradleSettings(string(data)))
			}
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return nil
}

// newGradleBuild lays out the projects a settings script includes. As in
// Gradle, including ':a:b' includes ':a' too, and a project's folder is its
// projectDir when set, else its parent's folder joined with its name
// (includeFlat: the settings folder's sibling).
func newGradleBuild(dir, settings string, s *gradleSettings) *gradleBuild {
	b := &gradleBuild{dir: dir, settings: settings, warnings: s.warnings}
	paths := map[string]bool{":": true}
	for _, p := range s.includes {
		for q := p; q != ":" && !paths[q]; q = parentPath(q) {
			paths[q] = true
		}
	}
	dirs := map[string]string{}
	var dirOf func(p string) string
	dirOf = func(p string) string {
		if d, ok := dirs[p]; ok {
			return d
		}
		var d string
		switch w, set := s.dirs[p]; {
		case p == ":":
			d = dir
		case set && filepath.IsAbs(w):
			d = filepath.Clean(w)
		case set:
			d = filepath.Join(dir, filepath.FromSlash(w))
		case s.flat[p]:
			d = filepath.Join(filepath.Dir(dir), lastPathPart(p))
		default:
			d = filepath.Join(dirOf(parentPath(p)), lastPathPart(p))
		}
		dirs[p] = d
		return d
	}
	applyChildRules(s, paths)
	for p := range paths {
		b.projects = append(b.projects, &gradleProj{path: p, dir: dirOf(p), builds: s.builds[p]})
	}
	sort.Slice(b.projects, func(i, j int) bool { return b.projects[i].path < b.projects[j].path })
	return b
}

// applyChildRules sets, from each rootProject.children loop, the folder
// and build file names of the root's children included before it; a
// project(':x') assignment of the same property wins.
func applyChildRules(s *gradleSettings, paths map[string]bool) {
	for _, rule := range s.children {
		done := map[string]bool{}
		for _, inc := range s.includes[:rule.upTo] {
			child := ":" + strings.SplitN(strings.TrimPrefix(inc, ":"), ":", 2)[0]
			if done[child] || !paths[child] {
				continue
			}
			done[child] = true
			name := lastPathPart(child)
			if _, set := s.dirs[child]; !set && rule.dir != "" {
				s.dirs[child] = strings.ReplaceAll(rule.dir, nameMark, name)
			}
			if _, set := s.builds[child]; !set && len(rule.builds) > 0 {
				for _, b := range rule.builds {
					s.builds[child] = append(s.builds[child], strings.ReplaceAll(b, nameMark, name))
				}
			}
		}
	}
}

func parentPath(p string) string {
	i := strings.LastIndexByte(p, ':')
	if i <= 0 {
		return ":"
	}
	return p[:i]
}

func lastPathPart(p string) string { return p[strings.LastIndexByte(p, ':')+1:] }

// at returns the project whose folder is dir, nil when the build has none.
func (b *gradleBuild) at(dir string) *gradleProj {
	for _, p := range b.projects {
		if p.dir == dir {
			return p
		}
	}
	return nil
}

// buildFile returns the first of the build file names the settings give
// p that exists in its folder, "" when none (p may be nil).
func (p *gradleProj) buildFile(env *lang.DetectEnv) string {
	if p == nil {
		return ""
	}
	for _, b := range p.builds {
		if exists(env, filepath.Join(p.dir, b)) {
			return b
		}
	}
	return ""
}

// problems renders the settings warnings.
func (b *gradleBuild) problems() []testdex.Problem {
	var out []testdex.Problem
	for _, w := range b.warnings {
		out = append(out, testdex.Problem{Severity: testdex.SevWarning, Path: filepath.Join(b.dir, b.settings), Line: w.line, Message: w.msg})
	}
	return out
}

// detectGradle builds the project of a folder with a Gradle build file or
// settings script. Its name is its Gradle project path (":a:b", ":" for
// the root), which the Runner addresses; a folder the nearest settings do
// not include is a build of its own, with no name. The settings' warnings
// are reported by the settings folder's project (where the files of a
// subproject they hide end up); a folder they leave out says so once.
func detectGradle(env *lang.DetectEnv, dir string, manifests []string) (*lang.Project, []testdex.Problem) {
	b := findGradleBuild(env, dir)
	var gp *gradleProj
	if b != nil {
		gp = b.at(dir)
	}
	var probs []testdex.Problem
	switch {
	case b != nil && dir == b.dir:
		probs = b.problems()
	case b != nil && gp == nil && len(b.warnings) > 0:
		probs = []testdex.Problem{{Severity: testdex.SevWarning, Path: filepath.Join(dir, manifests[0]),
			Message: fmt.Sprintf("not a project of the build in %s as far as its settings were read (%d of its statements were not); listed as a build of its own", b.dir, len(b.warnings))}}
	}
	manifest := manifests[0]
	if b := gp.buildFile(env); b != "" {
		manifest = b
	} else if i := slices.IndexFunc(manifests, func(m string) bool { return slices.Contains(gradleBuildNames, m) }); i >= 0 {
		manifest = manifests[i]
	}
	if gp == nil {
		return newProject(dir, manifest, "", defaultTestDir, "all"), probs
	}
	p := newProject(dir, manifest, gp.path, defaultTestDir, "all")
	p.Subprojects = b.subprojects(env, dir)
	return p, probs
}

// subprojects returns the build's projects below dir that the search for
// a manifest would pass by: their folder has no Java manifest (no default
// build file: the root's subprojects {} or allprojects {} configures
// them, or their settings name the build file otherwise). Each is
// complete; its manifest is the build file the settings name when it
// exists, else the settings script (relative to the subproject), which
// is what makes it a project.
func (b *gradleBuild) subprojects(env *lang.DetectEnv, dir string) []*lang.Project {
	var out []*lang.Project
	for _, gp := range b.projects {
		if gp.dir == dir || !below(dir, gp.dir) || hasManifest(env, gp.dir) {
			continue
		}
		manifest := gp.buildFile(env)
		if rel, err := filepath.Rel(gp.dir, filepath.Join(b.dir, b.settings)); manifest == "" && err == nil {
			manifest = filepath.ToSlash(rel)
		}
		out = append(out, newProject(gp.dir, manifest, gp.path, defaultTestDir, "all"))
	}
	return out
}

// below reports whether abs lies strictly inside dir.
func below(dir, abs string) bool {
	rel, err := filepath.Rel(dir, abs)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// hasManifest reports whether a folder holds one of the Detector's
// manifests, so that the upward search finds it on its own.
func hasManifest(env *lang.DetectEnv, dir string) bool {
	for _, m := range Detector.Manifests() {
		if exists(env, filepath.Join(dir, m)) {
			return true
		}
	}
	return false
}

func exists(env *lang.DetectEnv, abs string) bool {
	_, err := readFile(env, abs)
	return err == nil
}

// readFile reads through env, or from the disk when env has no reader (a
// DetectEnv made by hand).
func readFile(env *lang.DetectEnv, abs string) ([]byte, error) {
	if env.ReadFile == nil {
		return os.ReadFile(abs)
	}
	return env.ReadFile(abs)
}
