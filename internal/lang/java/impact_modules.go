package java

import (
	"encoding/xml"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/testdex/testdex/internal/lang"
)

// module is one Maven or Gradle module of a build, as the impact graph
// needs it: where its sources are, what describes its build, which
// modules of the same build it depends on.
type module struct {
	dir     string // absolute
	mainDir string // module-relative main sources: src/main/java or <sourceDirectory>
	// build are its own build files (pom.xml, build.gradle[.kts]) and
	// shared the files of the whole build it depends on (parent POMs,
	// settings, properties, wrapper), all absolute.
	build, shared []string
	deps          []string // absolute folders of the modules it depends on
}

// buildReader finds a module's build and the modules it depends on.
type buildReader struct {
	root string // the listed root: the search upward stops there
	read func(string) ([]byte, error)
}

func (b *buildReader) exists(abs string) bool {
	_, err := b.read(abs)
	return err == nil
}

// within reports whether abs lies in the listed root.
func (b *buildReader) within(abs string) bool {
	rel, err := filepath.Rel(b.root, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// closure returns the module at dir followed by every module of its build
// it depends on, directly or not, each once.
func (b *buildReader) closure(dir, manifest string) []*module {
	var all map[string]*module
	if manifest == "pom.xml" {
		all = b.maven(dir)
	} else {
		all = b.gradle(dir)
	}
	var out []*module
	seen := map[string]bool{}
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		m := all[d]
		if m == nil || seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, m)
		queue = append(queue, m.deps...)
	}
	return out
}

// pomModel is the part of a POM that places a module in its reactor.
type pomModel struct {
	ArtifactID string `xml:"artifactId"`
	Parent     *struct {
		RelativePath *string `xml:"relativePath"`
	} `xml:"parent"`
	Modules      []string `xml:"modules>module"`
	Dependencies []string `xml:"dependencies>dependency>artifactId"`
	Profiles     []struct {
		Modules      []string `xml:"modules>module"`
		Dependencies []string `xml:"dependencies>dependency>artifactId"`
	} `xml:"profiles>profile"`
	Build struct {
		SourceDirectory string `xml:"sourceDirectory"`
	} `xml:"build"`
}

func (b *buildReader) readPOM(dir string) (*pomModel, bool) {
	data, err := b.read(filepath.Join(dir, "pom.xml"))
	if err != nil {
		return nil, false
	}
	var p pomModel
	if xml.Unmarshal(data, &p) != nil {
		return nil, false
	}
	return &p, true
}

// maven reads the reactor dir belongs to: from the topmost folder above
// it (within the root) holding a pom.xml, the modules its <modules> name,
// recursively; dir itself always. A module depends on the reactor
// modules its <dependencies> name by artifactId.
func (b *buildReader) maven(dir string) map[string]*module {
	top := dir
	for up := filepath.Dir(top); up != top && b.within(up) && b.exists(filepath.Join(up, "pom.xml")); up = filepath.Dir(up) {
		top = up
	}
	poms := map[string]*pomModel{}
	var visit func(d string, depth int)
	visit = func(d string, depth int) {
		if _, done := poms[d]; done || depth > 32 {
			return
		}
		p, ok := b.readPOM(d)
		if !ok {
			return
		}
		poms[d] = p
		mods := slices.Clone(p.Modules)
		for _, pr := range p.Profiles {
			mods = append(mods, pr.Modules...)
		}
		for _, m := range mods {
			visit(filepath.Join(d, filepath.FromSlash(strings.TrimSuffix(strings.TrimSpace(m), "/pom.xml"))), depth+1)
		}
	}
	visit(top, 0)
	visit(dir, 0)
	byArtifact := map[string]string{}
	for d, p := range poms {
		if a := strings.TrimSpace(p.ArtifactID); a != "" {
			byArtifact[a] = d
		}
	}
	shared := b.existing(top, ".mvn/maven.config", ".mvn/jvm.config", ".mvn/extensions.xml", ".mvn/wrapper/maven-wrapper.properties", "mvnw", "mvnw.cmd")
	out := map[string]*module{}
	for d, p := range poms {
		m := &module{dir: d, mainDir: "src/main/java", build: []string{filepath.Join(d, "pom.xml")}}
		if s, ok := literalDir(p.Build.SourceDirectory); ok {
			m.mainDir = s
		}
		m.shared = append(b.parents(d, p), shared...)
		deps := slices.Clone(p.Dependencies)
		for _, pr := range p.Profiles {
			deps = append(deps, pr.Dependencies...)
		}
		for _, a := range deps {
			if dd, ok := byArtifact[strings.TrimSpace(a)]; ok && dd != d && !slices.Contains(m.deps, dd) {
				m.deps = append(m.deps, dd)
			}
		}
		slices.Sort(m.deps)
		out[d] = m
	}
	return out
}

// parents follows <parent><relativePath> (default ../pom.xml) while the
// parent POM is a file of the tree.
func (b *buildReader) parents(dir string, p *pomModel) []string {
	var out []string
	for i := 0; i < 16 && p != nil && p.Parent != nil; i++ {
		rel := "../pom.xml"
		if p.Parent.RelativePath != nil {
			rel = strings.TrimSpace(*p.Parent.RelativePath)
		}
		if rel == "" {
			break // looked up in the repositories only
		}
		abs := filepath.Join(dir, filepath.FromSlash(rel))
		if !strings.HasSuffix(abs, ".xml") {
			abs = filepath.Join(abs, "pom.xml")
		}
		if !b.exists(abs) || slices.Contains(out, abs) {
			break
		}
		out = append(out, abs)
		dir = filepath.Dir(abs)
		p, _ = b.readPOM(dir)
	}
	return out
}

// existing returns the named files of dir that exist, absolute.
func (b *buildReader) existing(dir string, names ...string) []string {
	var out []string
	for _, n := range names {
		if abs := filepath.Join(dir, filepath.FromSlash(n)); b.exists(abs) {
			out = append(out, abs)
		}
	}
	return out
}

var (
	// gradleProject matches project(':a:b') and project(path: ':a').
	gradleProject = regexp.MustCompile(`project\s*\(\s*(?:path\s*[:=]\s*)?["']([^"']*)["']`)
	// gradleAccessor matches a type-safe project accessor: projects.a.bC.
	gradleAccessor = regexp.MustCompile(`\bprojects((?:\.[A-Za-z_][A-Za-z0-9_]*)+)`)
	// gradleInclude matches include ':a', ':b' and include(":a", ":b").
	gradleInclude = regexp.MustCompile(`(?m)^\s*include\s*\(?((?:\s*["'][^"'\n]+["']\s*,?)+)`)
	quoted        = regexp.MustCompile(`["']([^"']+)["']`)
)

// gradle reads the build dir belongs to: the nearest folder at or above
// it (within the root) with settings.gradle[.kts], the projects it
// includes, and each project's project(':x') and projects.x dependencies.
func (b *buildReader) gradle(dir string) map[string]*module {
	settings := dir
	for d := dir; b.within(d); d = filepath.Dir(d) {
		if len(b.existing(d, "settings.gradle", "settings.gradle.kts")) > 0 {
			settings = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	shared := b.existing(settings, "settings.gradle", "settings.gradle.kts", "gradle.properties",
		"gradle/libs.versions.toml", "gradle/wrapper/gradle-wrapper.properties", "gradlew", "gradlew.bat")
	accessors := map[string]string{} // projects.a.bC -> folder
	dirs := []string{settings, dir}
	for _, f := range b.existing(settings, "settings.gradle", "settings.gradle.kts") {
		data, _ := b.read(f)
		for _, m := range gradleInclude.FindAllSubmatch(data, -1) {
			for _, q := range quoted.FindAllSubmatch(m[1], -1) {
				p := strings.Trim(string(q[1]), ":")
				d := filepath.Join(settings, filepath.FromSlash(strings.ReplaceAll(p, ":", "/")))
				dirs = append(dirs, d)
				accessors[accessor(p)] = d
			}
		}
	}
	out := map[string]*module{}
	for _, d := range dirs {
		if out[d] != nil {
			continue
		}
		m := &module{dir: d, mainDir: "src/main/java", build: b.existing(d, "build.gradle", "build.gradle.kts")}
		m.shared = append(b.existing(settings, "build.gradle", "build.gradle.kts"), shared...)
		if d != settings {
			m.shared = append(m.shared, b.existing(d, "gradle.properties")...)
		}
		for _, f := range m.build {
			data, _ := b.read(f)
			for _, pm := range gradleProject.FindAllSubmatch(data, -1) {
				p := strings.Trim(string(pm[1]), ":")
				m.addDep(filepath.Join(settings, filepath.FromSlash(strings.ReplaceAll(p, ":", "/"))))
			}
			for _, am := range gradleAccessor.FindAllSubmatch(data, -1) {
				// projects.a.b.dependencyProject: the longest known prefix.
				name := strings.TrimPrefix(string(am[1]), ".")
				for ; name != ""; name = trimLastPart(name) {
					if ad, ok := accessors[name]; ok {
						m.addDep(ad)
						break
					}
				}
			}
		}
		slices.Sort(m.deps)
		out[d] = m
	}
	return out
}

func (m *module) addDep(d string) {
	if d != m.dir && !slices.Contains(m.deps, d) {
		m.deps = append(m.deps, d)
	}
}

func trimLastPart(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i]
	}
	return ""
}

// accessor is Gradle's type-safe accessor path of a project path:
// "core-api:json_util" gives "coreApi.jsonUtil".
func accessor(p string) string {
	parts := strings.Split(p, ":")
	for i, part := range parts {
		var b strings.Builder
		upper := false
		for _, r := range part {
			if r == '-' || r == '_' {
				upper = true
				continue
			}
			if upper && b.Len() > 0 {
				r = unicode.ToUpper(r)
			}
			upper = false
			b.WriteRune(r)
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, ".")
}

// javaFiles lists the .java files under dir, relative to dir.
func javaFiles(dir string) []string {
	var out []string
	for _, d := range lang.Subdirs(dir, nil) {
		ents, _ := os.ReadDir(filepath.Join(dir, filepath.FromSlash(d)))
		for _, e := range ents {
			if !e.IsDir() && isJavaSource(e.Name()) {
				out = append(out, path.Join(d, e.Name()))
			}
		}
	}
	return out
}
