package js

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// naming is the ID rules the JavaScript runners share: a test's name is
// its titles joined by " > ", and the reporters name each test's file
// (Scope, project-relative). For node:test it keeps the listed tests by
// ID, to select a test the listing does not hold through its ancestor.
type naming struct {
	lang.GenericNaming
	tests map[string]*testdex.Test // node:test's listed records by ID
}

func newNaming(l *lang.Listing) lang.Naming {
	n := naming{GenericNaming: lang.GenericNaming{Seps: []string{" > "}}}
	if l != nil && l.Framework == testdex.NodeTest {
		n.tests = map[string]*testdex.Test{}
		for i := range l.Tests {
			if t := &l.Tests[i]; t.Framework == testdex.NodeTest {
				n.tests[t.ID] = t
			}
		}
	}
	return n
}

// TopFile implements lang.Naming: the file the reporter named.
func (naming) TopFile(r lang.Reported) string { return lang.RootRel(r.Project, r.Scope) }

// Run implements lang.Naming. A node:test record the listing does not
// hold (a row named at run time) under a listed test, not a suite, is
// selected as that test is: node runs a test's subtests only when the
// test itself matches (the walker's selector). Else the runner builds
// the pattern from the name.
func (n naming) Run(t *testdex.Test) string {
	if a := n.tests[t.Parent]; a != nil && a.Kind != testdex.KindSuite && a.Run != "" {
		return a.Run
	}
	return ""
}
