package golang

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// reachTree is a module whose package reaches functions through an
// interface call on values another caller registered, a package-level
// var's initialiser, function values and a closure; nanotime is tied by a
// //go:linkname.
var reachTree = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"a/a.go": `package a

type Shape interface{ Area() int }

type Sq struct{ n int }

func (s Sq) Area() int { return s.n * s.n }

type tri struct{}

func (tri) side() int { return 1 }

var registry = map[string]Shape{}

func Register(name string, s Shape) { registry[name] = s }

func Total() int {
	t := 0
	for _, s := range registry {
		t += s.Area()
	}
	return t
}

func double(x int) int { return 2 * x }

var op = double

func Apply(x int) int { return op(x) }

func hook() int { return 3 }

func Hooks() []func() int { return []func() int{hook} }

func CallHooks() int { return Hooks()[0]() }

func closure() func() int { return func() int { return double(1) } }

func Lonely() int { return 1 }

type E struct{}

func (E) Error() string { return "e" }

var errs []error

func Report() string { return errs[0].Error() }
`,
	"a/link.go": `package a

import _ "unsafe"

//go:linkname nanotime runtime.nanotime
func nanotime() int64
`,
	"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) { Total() }\n",
	"x/x.go":      "package x\n\nfunc X() {}\n",
}

// Reaches follows interface calls to every method of the name, package
// vars' initialisers, function values and closures; a function outside
// the graph or one with a //go:linkname is unknown.
func TestReaches(t *testing.T) {
	root := t.TempDir()
	for rel, text := range reachTree {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := &lang.GraphInput{Project: &lang.Project{Dir: root}, Root: root, Files: []string{"a/a_test.go"}, ReadFile: os.ReadFile}
	gr := &grapher{}
	if _, err := gr.Graph(in); err != nil {
		t.Fatal(err)
	}
	a := func(name string) lang.FuncRef { return lang.FuncRef{File: "a/a.go", Name: name} }
	for _, c := range []struct {
		from          []lang.FuncRef
		to            lang.FuncRef
		reached, know bool
	}{
		{[]lang.FuncRef{a("Total")}, a("Sq.Area"), true, true},  // s.Area() on a registered value
		{[]lang.FuncRef{a("Report")}, a("E.Error"), true, true}, // e.Error(), a name types keep
		{[]lang.FuncRef{a("Apply")}, a("double"), true, true},   // var op = double
		{[]lang.FuncRef{a("CallHooks")}, a("hook"), true, true}, // a function value
		{[]lang.FuncRef{a("closure")}, a("double"), true, true}, // a closure's call
		{[]lang.FuncRef{{File: "a/a_test.go", Name: "TestTotal"}}, a("Sq.Area"), true, true},
		{[]lang.FuncRef{a("double")}, a("double"), true, true},                   // itself
		{[]lang.FuncRef{a("Lonely")}, a("double"), false, true},                  // nothing
		{[]lang.FuncRef{a("Total")}, a("tri.side"), false, true},                 // no selector .side
		{[]lang.FuncRef{a("Lonely"), {File: "a/a.go"}}, a("hook"), true, true},   // code outside functions: the whole file
		{[]lang.FuncRef{{File: "x/x.go", Name: "X"}}, a("double"), false, false}, // no test loads x
		{[]lang.FuncRef{a("Lonely"), a("Nope")}, a("double"), false, false},      // a function the graph lacks
		{[]lang.FuncRef{a("Nope"), a("Apply")}, a("double"), true, true},         // another one reaches
		{[]lang.FuncRef{a("Lonely")}, lang.FuncRef{File: "a/link.go", Name: "nanotime"}, false, false},
		{[]lang.FuncRef{a("Lonely")}, a("Nope"), false, false},
	} {
		reached, known := gr.Reaches(in, c.from, c.to)
		if reached != c.reached || known != c.know {
			t.Errorf("Reaches(%v, %v) = %v, %v; want %v, %v", c.from, c.to, reached, known, c.reached, c.know)
		}
	}
}
