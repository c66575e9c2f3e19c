package js

import (
	"github.com/testdex/testdex/internal/lang"
)

// naming is the ID rules the JavaScript runners share: a test's name is
// its titles joined by " > ", and the reporters name each test's file
// (Scope, project-relative).
type naming struct{ lang.GenericNaming }

func newNaming(*lang.Listing) lang.Naming {
	return naming{lang.GenericNaming{Seps: []string{" > "}}}
}

// TopFile implements lang.Naming: the file the reporter named.
func (naming) TopFile(r lang.Reported) string { return lang.RootRel(r.Project, r.Scope) }
