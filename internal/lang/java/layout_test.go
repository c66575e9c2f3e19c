package java_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

// layoutListing lists a testdata/layout fixture and renders each suite
// record as "file project", each project as "dir manifest name", and each
// problem as "path:line severity".
func layoutListing(t *testing.T, fixture string) (suites, projects, problems []string) {
	t.Helper()
	ix, err := index.Build(context.Background(), index.Options{Root: "testdata/layout/" + fixture})
	if err != nil {
		t.Fatalf("index.Build: %v", err)
	}
	for _, r := range ix.Tests {
		if r.Kind == testdex.KindSuite {
			suites = append(suites, r.File+" "+r.Project)
		}
		if r.Framework != testdex.JUnit {
			t.Errorf("%s: framework %s", r.ID, r.Framework)
		}
	}
	for _, p := range ix.Projects {
		projects = append(projects, p.Dir+" "+p.Manifest+" "+p.Name)
	}
	for _, p := range ix.Problems {
		problems = append(problems, fmt.Sprintf("%s:%d %s", p.Path, p.Line, p.Severity))
	}
	sort.Strings(suites)
	sort.Strings(projects)
	return suites, projects, problems
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %s\n want %s", what, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}

// TestLayoutGradleGroovy: include in both call forms, a:b paths, projectDir,
// buildFileName, subprojects with no build file (configured by the root's
// subprojects {}), a folder with no build file the settings leave out (not
// a project: its test is not listed), one with a build file (a build of its
// own, which says the settings were not all read), and a computed include
// reported as a warning.
func TestLayoutGradleGroovy(t *testing.T) {
	suites, projects, problems := layoutListing(t, "gradle-groovy")
	sameLines(t, "suites", suites, []string{
		"src/test/java/root/RootCheck.java .",
		"core/src/test/java/core/CoreCheck.java core",
		"libs/util/src/test/java/util/UtilCheck.java libs/util",
		"app/src/test/java/app/AppCheck.java app",
		"build-tools/tools/src/test/java/tools/ToolsCheck.java build-tools/tools",
		"loose/src/test/java/loose/LooseCheck.java loose",
	})
	sameLines(t, "projects", projects, []string{
		". build.gradle :",
		"core build.gradle :core",
		"libs/util ../../settings.gradle :libs:util",
		"app app.gradle :app",
		"build-tools/tools ../../settings.gradle :tools",
		"loose build.gradle ", // a build of its own: no Gradle path
	})
	sameLines(t, "problems", problems, []string{"settings.gradle:11 warning", "loose/build.gradle:0 warning"})
}

// TestLayoutGradleKts: a root with settings.gradle.kts alone, a Kotlin
// buildFileName, and a build-file-less project nested in one that has a
// build file (it is its own project, not its parent's).
func TestLayoutGradleKts(t *testing.T) {
	suites, projects, problems := layoutListing(t, "gradle-kts")
	sameLines(t, "suites", suites, []string{
		"api/src/test/java/api/ApiCheck.java api",
		"impl/src/test/java/impl/ImplCheck.java impl",
		"impl/inner/src/test/java/inner/InnerCheck.java impl/inner",
	})
	sameLines(t, "projects", projects, []string{
		". settings.gradle.kts :",
		"api api.gradle.kts :api",
		"impl build.gradle.kts :impl",
		"impl/inner ../../settings.gradle.kts :impl:inner",
	})
	sameLines(t, "problems", problems, nil)
}

// TestLayoutMaven: a parent with modules, a nested multi-module build, a
// profile's module, and modules whose POM has another name (one with its
// own testSourceDirectory, one below an aggregator whose POM is also
// named otherwise). Each test is listed
// once, under its innermost module; Surefire's name filter holds in each.
// The sample builds in core's test resources and src/it are fixtures, not
// modules: their tests are not listed.
func TestLayoutMaven(t *testing.T) {
	suites, projects, problems := layoutListing(t, "maven")
	sameLines(t, "suites", suites, []string{
		"core/src/test/java/core/CoreTest.java core",
		"nested/leaf/src/test/java/leaf/LeafTest.java nested/leaf",
		"alt/tests/alt/AltTest.java alt",
		"agg/inner/src/test/java/inner/InnerTest.java agg/inner",
		"extra/src/test/java/extra/ExtraTest.java extra",
	})
	sameLines(t, "projects", projects, []string{
		". pom.xml layout:parent", // the search for alt/'s project passes by it
		"core pom.xml layout:core",
		"nested/leaf pom.xml layout:leaf",
		"alt pom-alt.xml layout:alt",
		"agg/inner pom-inner.xml layout:inner",
		"extra pom.xml layout:extra",
	})
	sameLines(t, "problems", problems, nil)
}
