package rust

import (
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// naming is libtest's ID rules: a test's name is its module path, joined
// by "::", within its target (Scope). A test only the runner reported
// belongs to the file of the innermost module of its path with a listed
// test, else to the target's root file; a doc test names its file.
type naming struct {
	lang.GenericNaming
	l *lang.Listing
	// modules maps project, target and module path to the file declaring
	// the module's listed tests.
	modules map[string]string
}

func newNaming(l *lang.Listing) lang.Naming {
	n := naming{lang.GenericNaming{Seps: []string{"::"}}, l, map[string]string{}}
	for i := range l.Tests {
		t := &l.Tests[i]
		if t.Dynamic || t.Framework != l.Framework {
			continue
		}
		if i := strings.LastIndex(t.Name, "::"); i > 0 && t.Kind != testdex.KindDoctest {
			n.modules[t.Project+"\x00"+t.Scope+"\x00"+t.Name[:i]] = t.File
		}
	}
	return n
}

// TopFile implements lang.Naming: a doc test's is in its name ("src/a.rs
// - item (line 3)", relative to the crate or its workspace), another's is
// that of the innermost module of its path with a listed test, else the
// target's root file (a module without any listed test is not known
// here: its file is the Rust linker's fact, not kept in the records).
func (n naming) TopFile(r lang.Reported) string {
	if file, _, ok := strings.Cut(r.Name, " - "); ok && strings.HasSuffix(r.Name, ")") {
		for _, f := range n.l.Files {
			if f.Project == r.Project && (f.Path == file || strings.HasSuffix(f.Path, "/"+file)) {
				return f.Path
			}
		}
	}
	for mod := r.Name; ; {
		i := strings.LastIndex(mod, "::")
		if i <= 0 {
			break
		}
		mod = mod[:i]
		if f, ok := n.modules[r.Project+"\x00"+r.Scope+"\x00"+mod]; ok {
			return f
		}
	}
	return lang.RootRel(r.Project, r.Scope)
}

// Top implements lang.Naming: the target of the file's listed tests.
func (n naming) Top(f lang.ListedFile, key string, first *testdex.Test) (scope, name string) {
	if first != nil {
		return first.Scope, key
	}
	return n.GenericNaming.Top(f, key, first)
}

// Run implements lang.Naming: libtest selects by the whole name.
func (naming) Run(t *testdex.Test) string { return t.Name }
