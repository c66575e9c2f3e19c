package java

import (
	"regexp"
	"slices"
	"testing"
)

func TestAntMatch(t *testing.T) {
	for _, c := range []struct {
		pat, name string
		want      bool
	}{
		{"**/*Test.java", "a/b/FooTest.java", true},
		{"**/*Test.java", "FooTest.java", true},
		{"**/*Test.java", "a/FooTests.java", false},
		{"**/*$*", "a/Outer$Inner.java", true},
		{"**/*$*", "a/Outer.java", false},
		{"a/**/X.java", "a/X.java", true},
		{"a/**/X.java", "a/b/c/X.java", true},
		{"a/*/X.java", "a/b/c/X.java", false},
		{"**/Test?.java", "p/TestA.java", true},
		{"**/[x].java", "p/[x].java", true},
	} {
		if got := antMatch(c.pat, c.name); got != c.want {
			t.Errorf("antMatch(%q, %q) = %v", c.pat, c.name, got)
		}
	}
}

func TestSurefireSelection(t *testing.T) {
	strs := func(s ...string) *[]string { return &s }
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name     string
		conf     surefireConf
		inc, exc []string
		warns    int
	}{
		{"defaults", surefireConf{}, defaultIncludes, defaultExcludes, 0},
		{"includes", surefireConf{Includes: strs("**/JUnit4SuiteTest.java", "x/Y.class")}, []string{"**/JUnit4SuiteTest.java", "x/Y.java"}, defaultExcludes, 0},
		{"excludes replace the default", surefireConf{Excludes: strs("**/Slow*")}, defaultIncludes, []string{"**/Slow*"}, 0},
		{"property", surefireConf{Includes: strs("${it.includes}")}, defaultIncludes, defaultExcludes, 1},
		{"regex", surefireConf{Includes: strs("%regex[.*Foo.*]")}, defaultIncludes, defaultExcludes, 1},
		{"test overrides", surefireConf{Test: str("Outer$Suite, !Bad*, M#one"), Includes: strs("**/Z.java")},
			[]string{"**/Outer$Suite.java", "**/M.java"}, []string{"**/Bad*.java"}, 1},
	} {
		r, warns := c.conf.selection()
		if !slices.Equal(r.includes, c.inc) || !slices.Equal(r.excludes, c.exc) || len(warns) != c.warns {
			t.Errorf("%s: got %v %v %q", c.name, r.includes, r.excludes, warns)
		}
	}
	if !(surefireRun{includes: []string{"**/Outer$Suite.java"}}).selects("p/Outer$Suite.java") {
		t.Error("a <test> naming a nested class selects it")
	}
}

func TestAntRegex(t *testing.T) {
	for _, c := range []struct {
		pat, class string
		want       bool
	}{
		{"**/JUnit4SuiteTest.java", "org.x.JUnit4SuiteTest", true},
		{"**/JUnit4SuiteTest.java", "JUnit4SuiteTest", true},
		{"**/JUnit4SuiteTest.java", "org.x.JUnit4SuiteTests", false},
		{"org/x/*Test.java", "org.x.FooTest", true},
		{"org/x/*Test.java", "org.x.y.FooTest", false},
		{"**/*$*", "a.Outer$Inner", true},
		{"**/*$*", "a.Outer", false},
		{"**/Outer$Suite.java", "p.Outer$Suite", true},
	} {
		if got := regexp.MustCompile(antRegex(c.pat)).MatchString(c.class); got != c.want {
			t.Errorf("antRegex(%q) = %s on %q: %v", c.pat, antRegex(c.pat), c.class, got)
		}
	}
}
