package python

import (
	"path"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// pytestNaming is pytest's ID rules. A name is a node ID: the file's path
// from the rootdir, then "::" and the test's key; a parameter row follows
// its test after "[". The rootdir is the listed records' (the folder their
// paths start from, kept per project), else the project's folder.
type pytestNaming struct {
	lang.GenericNaming
	// prefixes maps a project to the root-relative folder that its node
	// IDs' paths start from, as the listed records show it.
	prefixes map[string]string
}

func newPytestNaming(l *lang.Listing) lang.Naming {
	n := pytestNaming{lang.GenericNaming{Seps: []string{testdex.IDSep, "["}}, map[string]string{}}
	for i := range l.Tests {
		t := &l.Tests[i]
		if t.Dynamic || t.Framework != l.Framework {
			continue
		}
		if _, ok := n.prefixes[t.Project]; !ok {
			if file, _, ok := strings.Cut(t.Name, testdex.IDSep); ok && strings.HasSuffix(t.File, file) {
				n.prefixes[t.Project] = strings.TrimSuffix(t.File, file)
			}
		}
	}
	return n
}

// Cut implements lang.Naming: the last "::" or "[", but a "::" inside a
// row's parameters is not one: the row's "[" is.
func (n pytestNaming) Cut(s string) int {
	best := lang.LastSep(s, n.Seps)
	if strings.HasSuffix(s, "]") {
		if open := strings.Index(s, "["); open >= 0 && open < best {
			return open
		}
	}
	return best
}

// CutKey implements lang.Naming: as Cut.
func (n pytestNaming) CutKey(key string) int { return n.Cut(key) }

// prefix is the folder a project's node IDs start from.
func (n pytestNaming) prefix(project string) string {
	if p, ok := n.prefixes[project]; ok {
		return p
	}
	return strings.TrimPrefix(project+"/", "./")
}

// TopFile implements lang.Naming: the node ID's file.
func (n pytestNaming) TopFile(r lang.Reported) string {
	if file, _, ok := strings.Cut(r.Name, testdex.IDSep); ok {
		return path.Clean(n.prefix(r.Project) + file)
	}
	return r.Project
}

// TopKey implements lang.Naming: the node ID after its file.
func (n pytestNaming) TopKey(r lang.Reported) string {
	if _, key, ok := strings.Cut(r.Name, testdex.IDSep); ok {
		return key
	}
	return r.Name
}

// Top implements lang.Naming: the node ID of the key in the file.
func (n pytestNaming) Top(f lang.ListedFile, key string, _ *testdex.Test) (scope, name string) {
	return "", strings.TrimPrefix(f.Path, n.prefix(f.Project)) + testdex.IDSep + key
}

// unittestNaming is unittest's ID rules. A name is dotted,
// module.Class.method; the ID keeps the module as the file and joins the
// class and the method with "::".
type unittestNaming struct{ lang.GenericNaming }

func newUnittestNaming(*lang.Listing) lang.Naming {
	return unittestNaming{lang.GenericNaming{Seps: []string{"."}, KeySeps: []string{".", testdex.IDSep, "["}}}
}

// Rest implements lang.Naming: a method's "." becomes the ID's "::".
func (unittestNaming) Rest(rest string) string {
	if strings.HasPrefix(rest, ".") {
		return testdex.IDSep + rest[1:]
	}
	return rest
}

// TopFile implements lang.Naming: the module's file.
func (unittestNaming) TopFile(r lang.Reported) string {
	mod := r.Name
	for i := 0; i < 2; i++ { // module.Class.method
		if j := strings.LastIndex(mod, "."); j > 0 {
			mod = mod[:j]
		}
	}
	return lang.RootRel(r.Project, strings.ReplaceAll(mod, ".", "/")+".py")
}

// TopKey implements lang.Naming: Class::method.
func (unittestNaming) TopKey(r lang.Reported) string {
	parts := strings.Split(r.Name, ".")
	if len(parts) >= 2 {
		return strings.Join(parts[len(parts)-2:], testdex.IDSep)
	}
	return r.Name
}

// Child implements lang.Naming: the ID's "::" become dots.
func (unittestNaming) Child(a *testdex.Test, rest string) (scope, name string) {
	return a.Scope, a.Name + strings.ReplaceAll(rest, testdex.IDSep, ".")
}

// Top implements lang.Naming: the module's dotted path, then the key's.
func (unittestNaming) Top(f lang.ListedFile, key string, _ *testdex.Test) (scope, name string) {
	rel := lang.ProjectRel(f.Project, f.Path)
	return "", strings.ReplaceAll(strings.TrimSuffix(rel, ".py"), "/", ".") + "." + strings.ReplaceAll(key, testdex.IDSep, ".")
}
