package java_test

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/impacttest"
)

const junit = "import org.junit.jupiter.api.Test;\n"

// mavenTree is a reactor of three modules: app depends on core, other on
// nothing. Price names Money (same package, no import); Cart imports
// com.shop.core.* and names Price; ReflectTest loads Strings by name;
// GenTest imports a class no source declares (generated).
var mavenTree = map[string]string{
	"pom.xml": `<project><artifactId>shop</artifactId><packaging>pom</packaging>
<modules><module>core</module><module>app</module><module>other</module></modules></project>`,
	"core/pom.xml":  `<project><parent><artifactId>shop</artifactId></parent><artifactId>core</artifactId></project>`,
	"app/pom.xml":   `<project><parent><artifactId>shop</artifactId></parent><artifactId>app</artifactId><dependencies><dependency><groupId>g</groupId><artifactId>core</artifactId></dependency></dependencies></project>`,
	"other/pom.xml": `<project><parent><artifactId>shop</artifactId></parent><artifactId>other</artifactId></project>`,

	"core/src/main/java/com/shop/core/Price.java":   "package com.shop.core;\n\npublic class Price {\n  Money amount; // a Money\n}\n",
	"core/src/main/java/com/shop/core/Money.java":   "package com.shop.core;\n\npublic record Money(long cents) {}\n",
	"core/src/main/java/com/shop/core/Tax.java":     "package com.shop.core;\n\npublic class Tax {\n  String label = \"Money\";\n}\n",
	"core/src/main/java/com/shop/util/Strings.java": "package com.shop.util;\n\npublic final class Strings {}\n",
	"core/src/main/resources/app.properties":        "x=1\n",
	"core/src/test/resources/data/prices.csv":       "1\n",
	"core/src/test/java/com/shop/core/PriceTest.java": "package com.shop.core;\n\n" + junit +
		"\nclass PriceTest {\n  @Test void p() { new Price(); }\n}\n",
	"core/src/test/java/com/shop/core/TaxTest.java": "package com.shop.core;\n\n" + junit +
		"\nclass TaxTest {\n  @Test void t() { new Tax(); }\n}\n",
	"core/src/test/java/com/shop/util/StringsTest.java": "package com.shop.util;\n\n" + junit +
		"import com.shop.util.Strings;\n\nclass StringsTest {\n  @Test void s() {}\n}\n",
	"core/src/test/java/com/shop/gen/GenTest.java": "package com.shop.gen;\n\n" + junit +
		"import com.shop.core.ImmutablePrice;\n\nclass GenTest {\n  @Test void g() {}\n}\n",

	"app/src/main/java/com/shop/app/Cart.java": "package com.shop.app;\n\nimport com.shop.core.*;\nimport java.util.*;\n\npublic class Cart {\n  List<Price> lines;\n}\n",
	"app/src/test/java/com/shop/app/CartTest.java": "package com.shop.app;\n\n" + junit +
		"\nclass CartTest {\n  @Test void c() { new Cart(); }\n}\n",
	"app/src/test/java/com/shop/app/ReflectTest.java": "package com.shop.app;\n\n" + junit +
		"\nclass ReflectTest {\n  @Test void r() throws Exception { Class.forName(\"com.shop.util.Strings\"); }\n}\n",
	"app/src/test/java/com/shop/app/QualifiedTest.java": "package com.shop.app;\n\n" + junit +
		"\nclass QualifiedTest {\n  @Test void q() { new com.shop.core.Tax(); }\n}\n",

	"other/src/test/java/com/other/OtherTest.java": "package com.other;\n\n" + junit +
		"\nclass OtherTest {\n  @Test void o() {}\n}\n",
}

// gradleTree is a Gradle build: app depends on lib through project(':lib'),
// web through the type-safe accessor projects.coreApi.
var gradleTree = map[string]string{
	"settings.gradle":                 "rootProject.name = 'g'\ninclude ':lib', ':app'\ninclude(\":web\", \":core-api\")\n",
	"lib/build.gradle":                "plugins { id 'java-library' }\n",
	"core-api/build.gradle":           "plugins { id 'java-library' }\n",
	"app/build.gradle":                "dependencies {\n  implementation project(':lib')\n}\n",
	"web/build.gradle.kts":            "dependencies {\n  implementation(projects.coreApi)\n}\n",
	"gradle/libs.versions.toml":       "[versions]\n",
	"lib/src/main/java/x/L.java":      "package x;\n\npublic class L {}\n",
	"core-api/src/main/java/y/A.java": "package y;\n\npublic class A {}\n",
	"app/src/test/java/x/AppTest.java": "package x;\n\n" + junit +
		"\nclass AppTest {\n  @Test void a() { new L(); }\n}\n",
	"web/src/test/java/w/WebTest.java": "package w;\n\n" + junit +
		"import y.A;\n\nclass WebTest {\n  @Test void w() { new A(); }\n}\n",
	"lib/src/test/java/x/LTest.java": "package x;\n\n" + junit +
		"\nclass LTest {\n  @Test void l() { new L(); }\n}\n",
}

func writeTree(t *testing.T, files map[string]string) string { return impacttest.WriteTree(t, files) }

// affected lists the tree's JUnit tests and selects for the changed
// files: the selected files that declare tests, with their reasons.
func affected(t *testing.T, root string, changed ...string) map[string]string {
	return impacttest.Affected(t, root, testdex.JUnit, changed...)
}

func files(m map[string]string) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type selectCase struct {
	name    string
	changed []string
	want    []string
}

func checkSelects(t *testing.T, root string, cases []selectCase) {
	t.Helper()
	for _, c := range cases {
		got := files(affected(t, root, c.changed...))
		want := append([]string{}, c.want...)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: selected\n  %q\nwant\n  %q", c.name, got, want)
		}
	}
}

const (
	priceTest     = "core/src/test/java/com/shop/core/PriceTest.java"
	taxTest       = "core/src/test/java/com/shop/core/TaxTest.java"
	stringsTest   = "core/src/test/java/com/shop/util/StringsTest.java"
	genTest       = "core/src/test/java/com/shop/gen/GenTest.java"
	cartTest      = "app/src/test/java/com/shop/app/CartTest.java"
	reflectTest   = "app/src/test/java/com/shop/app/ReflectTest.java"
	qualifiedTest = "app/src/test/java/com/shop/app/QualifiedTest.java"
	otherTest     = "other/src/test/java/com/other/OtherTest.java"
)

// TestGraphMaven checks each rule of the class graph on mavenTree.
func TestGraphMaven(t *testing.T) {
	root := writeTree(t, mavenTree)
	core := []string{priceTest, taxTest, stringsTest, genTest}
	app := []string{cartTest, reflectTest, qualifiedTest}
	checkSelects(t, root, []selectCase{
		{"a class named without import, through an on-demand import and across modules", []string{"core/src/main/java/com/shop/core/Money.java"},
			[]string{priceTest, cartTest, genTest}},
		{"a class one test names, another by its qualified name", []string{"core/src/main/java/com/shop/core/Tax.java"},
			[]string{taxTest, qualifiedTest, genTest}},
		{"a class imported, and loaded by name", []string{"core/src/main/java/com/shop/util/Strings.java"},
			[]string{stringsTest, reflectTest}},
		// GenTest's unresolved import uses every file of com.shop.core.
		{"a test file", []string{taxTest}, []string{taxTest, genTest}},
		{"another test file", []string{stringsTest}, []string{stringsTest}},
		{"test resources", []string{"core/src/test/resources/data/prices.csv"}, core},
		{"a deleted test resource", []string{"core/src/test/resources/data/gone.csv"}, core},
		{"resources: the module's tests and its dependents'", []string{"core/src/main/resources/app.properties"}, append(core, app...)},
		{"a module's build file", []string{"core/pom.xml"}, append(core, app...)},
		{"the parent POM", []string{"pom.xml"}, append(append(core, app...), otherTest)},
		{"a dependent module's class", []string{"app/src/main/java/com/shop/app/Cart.java"}, []string{cartTest}},
		{"a new class nobody names", []string{"core/src/main/java/com/shop/core/Fresh.java"}, []string{}},
	})
}

// TestGraphDeleted: a deleted class reaches the files that still name
// it, through the path its file had.
func TestGraphDeleted(t *testing.T) {
	tree := map[string]string{}
	for k, v := range mavenTree {
		tree[k] = v
	}
	delete(tree, "core/src/main/java/com/shop/core/Money.java")
	root := writeTree(t, tree)
	got := affected(t, root, "core/src/main/java/com/shop/core/Money.java")
	want := map[string]string{
		priceTest: priceTest + " → (same package) core/src/main/java/com/shop/core/Price.java → (changed) core/src/main/java/com/shop/core/Money.java",
		cartTest:  cartTest + " → (same package) app/src/main/java/com/shop/app/Cart.java → (import com.shop.core.*) core/src/main/java/com/shop/core/Price.java → (changed) core/src/main/java/com/shop/core/Money.java",
		genTest:   genTest + " → (import com.shop.core.ImmutablePrice (no source declares it)) java:com.shop.core → (in package) core/src/main/java/com/shop/core/Price.java → (changed) core/src/main/java/com/shop/core/Money.java",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n  %q\nwant\n  %q", got, want)
	}
}

// TestGraphGradle: project(':x') and projects.x dependencies.
func TestGraphGradle(t *testing.T) {
	root := writeTree(t, gradleTree)
	checkSelects(t, root, []selectCase{
		{"project(':lib')", []string{"lib/src/main/java/x/L.java"}, []string{"app/src/test/java/x/AppTest.java", "lib/src/test/java/x/LTest.java"}},
		{"projects.coreApi", []string{"core-api/src/main/java/y/A.java"}, []string{"web/src/test/java/w/WebTest.java"}},
		{"a dependency's build file", []string{"lib/build.gradle"}, []string{"app/src/test/java/x/AppTest.java", "lib/src/test/java/x/LTest.java"}},
		{"the version catalog", []string{"gradle/libs.versions.toml"}, []string{"app/src/test/java/x/AppTest.java", "lib/src/test/java/x/LTest.java", "web/src/test/java/w/WebTest.java"}},
	})
}

// TestGraphGenerated: a test naming a class no source declares (one an
// annotation processor generates into its package) uses every file of
// the package, its generator's input among them; one whose unresolved
// names may come from an on-demand import of a library does not.
func TestGraphGenerated(t *testing.T) {
	root := writeTree(t, map[string]string{
		"pom.xml":                    `<project><artifactId>g</artifactId></project>`,
		"src/main/java/p/Value.java": "package p;\n\n@Gen\nabstract class Value {\n  abstract int n();\n}\n",
		"src/main/java/p/Other.java": "package p;\n\nclass Other {}\n",
		"src/test/java/p/ValueTest.java": "package p;\n\n" + junit +
			"\nclass ValueTest {\n  static final int MAX_N = 3;\n  @Test <T> void v() { ImmutableValue.builder(); }\n}\n",
		"src/test/java/p/ListTest.java": "package p;\n\n" + junit + "import java.util.*;\n" +
			"\nclass ListTest {\n  @Test void l() { List<String> l = new ArrayList<>(); }\n}\n",
	})
	got := affected(t, root, "src/main/java/p/Value.java")
	want := map[string]string{"src/test/java/p/ValueTest.java": "src/test/java/p/ValueTest.java → (names ImmutableValue, which no source declares) java:p → (changed) src/main/java/p/Value.java"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n  %q\nwant\n  %q", got, want)
	}
}

// TestBrokenMaven: a changed source javac would refuse fails every test
// of its module (Maven compiles a module's sources together), and a main
// source's failure every test of the modules that depend on it; one
// that compiles keeps the class graph's selection.
func TestBrokenMaven(t *testing.T) {
	const tax = "core/src/main/java/com/shop/core/Tax.java"
	core := []string{priceTest, taxTest, stringsTest, genTest}
	app := []string{cartTest, reflectTest, qualifiedTest}
	classLevel := []string{taxTest, qualifiedTest, genTest} // TestGraphMaven's selection for Tax.java
	cases := []struct {
		name, file, content string
		want                []string
		reason              string // the reason of TaxTest.java, when a build rule selects it
	}{
		{"stray brace", tax, "package com.shop.core;\n\npublic class Tax {\n  String label = \"Money\";\n}\n}\n",
			append(core, app...), tax + " does not compile (line 6: syntax error); every test of module core and of the modules that depend on it"},
		{"NUL byte in code", tax, "package com.shop.core;\n\npublic class Tax {\n  String label = \"Money\"; \x00\n}\n", append(core, app...), "does not compile (line 4"},
		{"NUL byte in a comment", tax, "package com.shop.core;\n\npublic class Tax {\n  String label = \"Money\"; // \x00\n}\n", classLevel, ""},
		{"invalid UTF-8", tax, "package com.shop.core;\n\npublic class Tax {\n  String label = \"Mon\xffey\";\n}\n", append(core, app...), "(line 4: invalid UTF-8)"},
		{"undefined call", tax, "package com.shop.core;\n\npublic class Tax {\n  String label = \"Money\";\n  int rate() { return undefinedRate(); }\n}\n",
			append(core, app...), "(it calls undefinedRate(), which no class it can see declares)"},
		{"a call to its own method", tax, "package com.shop.core;\n\npublic class Tax {\n  String label = \"Money\";\n  int rate() { return base() + 1; }\n  int base() { return 1; }\n}\n",
			classLevel, ""},
		{"a call an extended class may declare", tax, "package com.shop.core;\n\npublic class Tax extends Base {\n  int rate() { return inherited(); }\n}\n",
			classLevel, ""},
		{"a test source", taxTest, "package com.shop.core;\n\n" + junit + "\nclass TaxTest {\n  @Test void t() { new Tax(); }\n}}\n",
			core, taxTest + " does not compile (line 7: syntax error); every test of module core"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tree := map[string]string{}
			for k, v := range mavenTree {
				tree[k] = v
			}
			tree[c.file] = c.content
			root := writeTree(t, tree)
			got := affected(t, root, c.file)
			if want := append([]string{}, c.want...); !reflect.DeepEqual(files(got), sorted(want)) {
				t.Errorf("selected\n  %q\nwant\n  %q", files(got), sorted(want))
			}
			if c.reason != "" && !strings.Contains(got[taxTest], c.reason) {
				t.Errorf("TaxTest's reason %q does not say %q", got[taxTest], c.reason)
			}
		})
	}
}

func sorted(s []string) []string {
	sort.Strings(s)
	return s
}
