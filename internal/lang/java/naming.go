package java

import (
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// naming is JUnit's ID rules. A method's Scope is its class's binary name
// (pkg.Outer$Inner) and its name the method with its parameter types
// (m(TestInfo)), a row following it after "["; the ID keys a method by its
// class's simple name: Outer.m(). Surefire reports a method without its
// parameter types, and a class's methods under the class's binary name.
type naming struct {
	lang.GenericNaming
	l *lang.Listing
	// methods maps project, scope and a method name before its "(" to the
	// listed methods of that name.
	methods map[string][]*testdex.Test
	// classes maps project and a class's binary name to its record.
	classes map[string]*testdex.Test
}

func newNaming(l *lang.Listing) lang.Naming {
	n := naming{lang.GenericNaming{Seps: []string{"["}, KeySeps: []string{".", testdex.IDSep, "["}}, l,
		map[string][]*testdex.Test{}, map[string]*testdex.Test{}}
	for i := range l.Tests {
		t := &l.Tests[i]
		if t.Dynamic || t.Framework != l.Framework {
			continue
		}
		if t.Kind == testdex.KindSuite {
			n.classes[t.Project+"\x00"+joinScope(t.Scope, t.Name)] = t
		} else if base, _, ok := strings.Cut(t.Name, "("); ok && !strings.Contains(t.Name, ")[") {
			k := t.Project + "\x00" + t.Scope + "\x00" + base
			n.methods[k] = append(n.methods[k], t)
		}
	}
	return n
}

// Listed implements lang.Naming: the one listed method a runner reported
// without its parameter types (m or m()[1] for the listed m(TestInfo)).
func (n naming) Listed(r lang.Reported) *testdex.Test {
	base, rest, ok := strings.Cut(r.Name, "()")
	if !ok {
		base, rest = r.Name, ""
	}
	if strings.Contains(base, "(") {
		return nil
	}
	ms := n.methods[r.Project+"\x00"+r.Scope+"\x00"+base]
	if len(ms) != 1 {
		return nil
	}
	if rest == "" {
		return ms[0]
	}
	return n.l.Lookup(r.Project, r.Scope, ms[0].Name+rest)
}

// Outer implements lang.Naming: the listed class whose binary name is the
// test's Scope.
func (n naming) Outer(r lang.Reported) (*testdex.Test, string) {
	if c := n.classes[r.Project+"\x00"+r.Scope]; c != nil && r.Name != "" {
		return c, "." + r.Name
	}
	return nil, ""
}

// TopFile implements lang.Naming: the outer class's file under Maven's
// test sources.
func (naming) TopFile(r lang.Reported) string {
	outer, _, _ := strings.Cut(r.Scope, "$")
	return lang.RootRel(r.Project, "src/test/java/"+strings.ReplaceAll(outer, ".", "/")+".java")
}

// TopKey implements lang.Naming: the class's simple name and the method.
func (naming) TopKey(r lang.Reported) string {
	class := r.Scope
	if i := strings.LastIndex(class, "."); i >= 0 {
		class = class[i+1:]
	}
	return class + "." + r.Name
}

// Child implements lang.Naming: a method under its class takes the
// class's binary name as its Scope.
func (naming) Child(a *testdex.Test, rest string) (scope, name string) {
	if a.Kind == testdex.KindSuite && strings.HasPrefix(rest, ".") {
		return joinScope(a.Scope, a.Name), rest[1:]
	}
	return a.Scope, a.Name + rest
}

// Top implements lang.Naming: Class.method in the package of the file's
// listed records.
func (naming) Top(_ lang.ListedFile, key string, first *testdex.Test) (scope, name string) {
	class, method, _ := strings.Cut(key, ".")
	pkg := ""
	if first != nil {
		pkg, _, _ = strings.Cut(first.Scope, "$")
		if first.Kind != testdex.KindSuite {
			if i := strings.LastIndex(pkg, "."); i >= 0 {
				pkg = pkg[:i]
			} else {
				pkg = ""
			}
		}
	}
	return joinScope(pkg, class), method
}

// Run implements lang.Naming: Class#method, without parameter types or
// row.
func (naming) Run(t *testdex.Test) string {
	base, _, _ := strings.Cut(t.Name, "(")
	base, _, _ = strings.Cut(base, "[")
	return t.Scope + "#" + base
}
