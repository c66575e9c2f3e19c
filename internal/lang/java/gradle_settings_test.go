package java

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layoutOf renders a settings script's projects as "path dir [build]",
// dirs relative to /s, and its warnings as their lines.
func layoutOf(src string) (projects []string, warnLines []int) {
	b := newGradleBuild("/s", "settings.gradle", readGradleSettings(src))
	for _, p := range b.projects {
		rel, _ := filepath.Rel("/s", p.dir)
		projects = append(projects, strings.TrimSpace(fmt.Sprintf("%s %s %s", p.path, filepath.ToSlash(rel), strings.Join(p.builds, "|"))))
	}
	for _, w := range b.warnings {
		warnLines = append(warnLines, w.line)
	}
	return projects, warnLines
}

func TestGradleSettingsForms(t *testing.T) {
	cases := []struct {
		name, src string
		projects  []string
		warnings  []int
	}{
		{"groovy command", "include 'a', ':b:c'\n", []string{": .", ":a a", ":b b", ":b:c b/c"}, nil},
		{"kotlin call over lines", "include(\n  \":a\",\n  \":b\"\n)\n", []string{": .", ":a a", ":b b"}, nil},
		{"groovy continued by comma", "include 'a',\n        'b'\ninclude 'c'\n", []string{": .", ":a a", ":b b", ":c c"}, nil},
		{"groovy list", "include(['a', 'b'])\n", []string{": .", ":a a", ":b b"}, nil},
		{"triple quotes", "include '''a'''\n", []string{": .", ":a a"}, nil},
		{"comments and strings", "// include 'x'\n/* include 'y'\n */ println \"include 'z'\"\n", []string{": ."}, nil},
		{"projectDir forms", strings.Join([]string{
			"include 'a', 'b', 'c', 'd', 'e'",
			"project(':a').projectDir = file('libs/a')",
			"project(':b').projectDir = new File(settingsDir, 'libs/b')",
			"project(\":c\").projectDir = File(rootDir, \"libs/c\")",
			"project(':d').projectDir = file(\"$rootDir/libs/d\")",
			"project(':e').projectDir = \"${rootDir}/libs/e\" as File",
		}, "\n"), []string{": .", ":a libs/a", ":b libs/b", ":c libs/c", ":d libs/d", ":e libs/e"}, nil},
		{"child below a moved parent", "include 'p:q'\nproject(':p').projectDir = file('x/p')\n", []string{": .", ":p x/p", ":p:q x/p/q"}, nil},
		{"includeFlat", "includeFlat 'sib'\n", []string{": .", ":sib ../sib"}, nil},
		{"buildFileName", "include 'a'\nproject(':a').buildFileName = 'a.gradle'\nrootProject.buildFileName = 'root.gradle'\n", []string{": . root.gradle", ":a a a.gradle"}, nil},
		{"computed include", "def names = ['a']\nnames.each { include it }\ninclude \"$x\"\n", []string{": ."}, []int{2, 3}},
		{"code sets layout", "include 'a'\nrootProject.children.each { it.buildFileName = name() }\nproject(':a') {\n  projectDir = file('z')\n}\n", []string{": .", ":a a"}, []int{2, 4}},
		{"children loop, groovy", "include 'a', 'b:c'\nrootProject.children.each {project ->\n\tproject.buildFileName = \"${project.name}.gradle\"\n}\ninclude 'late'\n",
			[]string{": .", ":a a a.gradle", ":b b b.gradle", ":b:c b/c", ":late late"}, nil},
		{"children loop, kotlin with fallback and folder", strings.Join([]string{
			"include(\"a\")",
			"rootProject.children.forEach { p ->",
			"    p.projectDir = File(settingsDir, \"subprojects/${p.name}\")",
			"    p.buildFileName = \"${p.name}.gradle\"",
			"    if (!p.buildFile.isFile) { p.buildFileName = \"${p.name}.gradle.kts\" }",
			"    require(p.projectDir.isDirectory) { \"${p.projectDir} missing\" }",
			"}",
		}, "\n"), []string{": .", ":a subprojects/a a.gradle|a.gradle.kts"}, nil},
		{"children loop, a local holds the folder", "include(\"a\")\nrootProject.children.forEach { project ->\n    val dirName = \"subprojects/${project.name}\"\n    project.projectDir = File(settingsDir, dirName)\n}\n",
			[]string{": .", ":a subprojects/a"}, nil},
		{"children loop, it and other parts", "include 'a'\nrootProject.children.each { it.buildFileName = \"${it.name}-${version}.gradle\" }\n", []string{": .", ":a a"}, []int{2}},
		{"rename", "include 'a'\nproject(':a').name = 'b'\n", []string{": .", ":a a"}, []int{2}},
		{"includeBuild is another build", "includeBuild 'plugins'\npluginManagement { includeBuild(\"logic\") }\n", []string{": ."}, nil},
	}
	for _, c := range cases {
		projects, warns := layoutOf(c.src)
		if !slices.Equal(projects, c.projects) {
			t.Errorf("%s: projects %q, want %q", c.name, projects, c.projects)
		}
		if !slices.Equal(warns, c.warnings) {
			t.Errorf("%s: warnings on lines %v, want %v", c.name, warns, c.warnings)
		}
	}
}

// TestGradleSettingsRootName: rootProject.name is read, not warned of.
func TestGradleSettingsRootName(t *testing.T) {
	s := readGradleSettings("rootProject.name = \"kdemo\"\n")
	if s.rootName != "kdemo" || len(s.warnings) != 0 {
		t.Errorf("rootName %q, warnings %v", s.rootName, s.warnings)
	}
}
