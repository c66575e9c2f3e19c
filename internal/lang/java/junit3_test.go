package java_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

// TestJUnit3 lists testdata/junit3: a module whose Surefire includes come
// from its parent POM's pluginManagement (**/*Check.java, p/AllSuite.class),
// JUnit 3 TestCase classes directly and through a project base class, a
// class whose *TestCase base is in a jar (one dynamic record), a suite()
// adding classes the includes leave out, and a suite() not read
// statically (one dynamic record); @RunWith(Enclosed.class) and
// @RunWith(Suite.class) @SuiteClasses.
func TestJUnit3(t *testing.T) {
	ix, err := index.Build(t.Context(), index.Options{Root: "testdata/junit3"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ix.Tests {
		if r.Kind == testdex.KindSuite {
			continue
		}
		got = append(got, fmt.Sprintf("%s %s %s dynamic=%v", r.Scope, r.Name, r.Run, r.Dynamic))
	}
	sort.Strings(got)
	want := []string{
		"p.EnclosedCheck$Inner inner() p.EnclosedCheck$Inner#inner dynamic=false",
		"p.J4 adapted() p.J4#adapted dynamic=false",
		"p.Listed testListed() p.Listed#testListed dynamic=false",
		"p.MoreCheck {suite()} p.MoreCheck dynamic=true",
		"p.Other4 viaSuiteClasses() p.Other4#viaSuiteClasses dynamic=false",
		"p.OneCheck testOne() p.OneCheck#testOne dynamic=false",
		"p.OneCheck testTwo() p.OneCheck#testTwo dynamic=false",
		"p.PlexusCheck {JUnit 3 tests? extends PlexusTestCase} p.PlexusCheck dynamic=true",
		"p.TwoCheck testOverridden() p.TwoCheck#testOverridden dynamic=false",
		"p.TwoCheck testOwn() p.TwoCheck#testOwn dynamic=false",
		"p.TwoCheck testShared() p.TwoCheck#testShared dynamic=false",
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
	for _, p := range ix.Problems {
		t.Errorf("problem %s:%d %s", p.Path, p.Line, p.Message)
	}
}
