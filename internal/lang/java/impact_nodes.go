package java

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// modules adds the module nodes: a test file uses its module's resources,
// test resources, sources in other languages and module node; a module
// node uses the module's build files, the build's shared files, its
// resources and the nodes of the modules it depends on.
func (jg *javaGraph) modules(mods []*module, testDir string) {
	own := mods[0]
	ownNode := moduleNode(jg.rel(own.dir))
	uses := [][2]string{{jg.folderNode(own.dir, "src/test/resources"), "test resources"},
		{jg.folderNode(own.dir, "src/main/resources"), "resources"}}
	for _, lang := range otherSources {
		for _, set := range []string{"main", "test"} {
			if n := jg.existingFolderNode(own.dir, "src/"+set+"/"+lang); n != "" {
				uses = append(uses, [2]string{n, lang + " sources (not read)"})
			}
		}
	}
	ownTests := testsNode(jg.rel(own.dir))
	for _, f := range jg.in.Files {
		jg.edge(f, ownNode, "module")
		jg.edge(f, ownTests, "same test sources") // reached by a test source that does not compile (Broken)
		for _, u := range uses {
			jg.edge(f, u[0], u[1])
		}
	}
	for _, m := range mods {
		node := moduleNode(jg.rel(m.dir))
		for _, b := range m.build {
			jg.edge(node, jg.rel(b), "build file")
		}
		for _, s := range m.shared {
			jg.edge(node, jg.rel(s), sharedWhy(s))
		}
		jg.edge(node, jg.folderNode(m.dir, "src/main/resources"), "resources")
		for _, lang := range otherSources {
			if n := jg.existingFolderNode(m.dir, "src/main/"+lang); n != "" {
				jg.edge(node, n, lang+" sources (not read)")
			}
		}
		for _, d := range m.deps {
			jg.edge(node, moduleNode(jg.rel(d)), "depends on")
		}
	}
}

// global lists the files whose change affects every test of the module.
func (jg *javaGraph) global(own *module, testDir string) {
	jg.out.Global = []string{"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
		"gradle.properties", "gradlew", "gradlew.bat", "gradle/wrapper/**", "gradle/libs.versions.toml",
		"mvnw", "mvnw.cmd", ".mvn/**", "**/lombok.config",
		path.Join(own.mainDir, "module-info.java"), path.Join(testDir, "module-info.java")}
}

// moduleNode names a module by its folder: "module:core".
func moduleNode(rel string) string { return "module:" + rel }

// folderNode returns the node of the files under a module's folder,
// "DIR/SUB/**", owner of that folder and of every folder below it (the
// folder itself even before it exists).
func (jg *javaGraph) folderNode(modDir, sub string) string {
	abs := filepath.Join(modDir, filepath.FromSlash(sub))
	rel := jg.rel(abs)
	node := rel + "/**"
	if _, done := jg.out.Owners[rel]; done {
		return node
	}
	jg.out.Owners[rel] = node
	for _, d := range lang.Subdirs(abs, nil) {
		jg.out.Owners[path.Join(rel, d)] = node
	}
	return node
}

// existingFolderNode is folderNode for a folder that exists, "" otherwise.
func (jg *javaGraph) existingFolderNode(modDir, sub string) string {
	if lang.Subdirs(filepath.Join(modDir, filepath.FromSlash(sub)), nil) == nil {
		return ""
	}
	return jg.folderNode(modDir, sub)
}

// sharedWhy names a shared build file's role.
func sharedWhy(abs string) string {
	base := filepath.Base(abs)
	switch {
	case base == "pom.xml":
		return "parent POM"
	case strings.HasPrefix(base, "settings.gradle"):
		return "build settings"
	case strings.HasPrefix(base, "build.gradle"):
		return "root build script"
	case base == "gradle.properties":
		return "build properties"
	case base == "libs.versions.toml":
		return "version catalog"
	case strings.Contains(filepath.ToSlash(abs), "/.mvn/") && !strings.Contains(filepath.ToSlash(abs), "/wrapper/"):
		return "maven configuration"
	}
	return "build tool wrapper"
}
