package java

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// linker reports the test methods a runnable class inherits from base
// classes and interfaces declared anywhere in the project (a base in a
// file Surefire does not include, an abstract class, a test interface's
// default methods) under that class, in the class's own file. A supertype
// is resolved from its name as written: a class of the same file, a
// single-type import, the same package, an on-demand import, then a fully
// qualified name. Supertypes outside the project (library jars) are not
// followed. An override, tested or not, hides the inherited method, as in
// JUnit.
type linker struct{}

// classRef is one class of the project with the file that declares it.
type classRef struct {
	fact  *ClassFact
	facts *Facts
	file  *lang.Linked
}

// maxSupers bounds the supertype walk of one class (cycles are also cut
// by a visited set).
const maxSupers = 64

func (linker) Link(_ *lang.Project, files []*lang.Linked) []testdex.Problem {
	var probs []testdex.Problem
	classes := map[string]*classRef{}
	var order []*classRef
	for _, f := range files {
		if len(f.Result.Facts) == 0 {
			continue
		}
		facts := &Facts{}
		if err := json.Unmarshal(f.Result.Facts, facts); err != nil {
			probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: f.RootRel,
				Message: "unreadable cached facts; inherited tests are missing (run with --no-cache)"})
			continue
		}
		for i := range facts.Classes {
			ref := &classRef{fact: &facts.Classes[i], facts: facts, file: f}
			classes[qualify(facts.Package, ref.fact.Binary)] = ref
			order = append(order, ref)
		}
	}
	for _, c := range order {
		if c.fact.Runnable {
			inherit(c, classes)
		}
	}
	return probs
}

// inherit adds the tests class c inherits to its file's records.
func inherit(c *classRef, classes map[string]*classRef) {
	hidden := map[string]bool{}
	for _, d := range c.fact.Declared {
		hidden[d] = true
	}
	fqn := qualify(c.facts.Package, c.fact.Binary)
	visited := map[string]bool{fqn: true}
	queue := supers(c, classes)
	var added []lang.Test
	tags := c.fact.Tags
	for n := 0; len(queue) > 0 && n < maxSupers; n++ {
		b := queue[0]
		queue = queue[1:]
		bfqn := qualify(b.facts.Package, b.fact.Binary)
		if visited[bfqn] {
			continue
		}
		visited[bfqn] = true
		tags = appendNew(slices.Clone(tags), b.fact.Tags...)
		for _, m := range b.fact.Methods {
			if hidden[m.Sig] {
				continue
			}
			hidden[m.Sig] = true
			for _, t := range withRows(m, c.fact.Parameterized && !b.fact.Parameterized) {
				t = place(t, fqn, c.fact.Binary, c.fact.Skip, tags)
				t.Line = c.fact.Line
				added = append(added, t)
			}
		}
		for _, d := range b.fact.Declared {
			hidden[d] = true
		}
		queue = append(queue, supers(b, classes)...)
	}
	if len(added) == 0 {
		return
	}
	tests := c.file.Result.Tests
	if !c.fact.Emitted {
		c.fact.Emitted = true
		added = append([]lang.Test{suiteRecord(c.facts.Package, c.fact)}, added...)
		c.file.Result.Tests = append(tests, added...)
		return
	}
	at := len(tests)
	for i, t := range tests {
		if t.Key() == c.fact.Binary || strings.HasPrefix(t.Key(), c.fact.Binary+".") {
			at = i + 1
		}
	}
	c.file.Result.Tests = slices.Insert(tests, at, added...)
}

// withRows returns an inherited method's records; rows, when the class
// that inherits it runs with Parameterized and the class declaring it
// does not, adds the dynamic row record the extractor gives a JUnit 4
// @Test of a Parameterized class (method.go), for each plain @Test.
func withRows(m MethodFact, rows bool) []lang.Test {
	if !rows || len(m.Tests) != 1 || m.Tests[0].Dynamic {
		return m.Tests
	}
	t := m.Tests[0]
	r := lang.Test{Kind: testdex.KindSubtest, Name: t.Name + "{@Parameters}", Local: t.Name + "{@Parameters}", Parent: t.Local,
		Line: t.Line, Dynamic: true, Skip: t.Skip, Tags: t.Tags}
	return []lang.Test{t, r}
}

// supers resolves a class's superclass and interfaces within the project,
// superclass first.
func supers(c *classRef, classes map[string]*classRef) []*classRef {
	var out []*classRef
	for _, name := range append([]string{c.fact.Super}, c.fact.Interfaces...) {
		if name == "" {
			continue
		}
		if r := resolveIn(c, name, classes); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// resolveIn finds the project class a name written in c's file refers to.
func resolveIn(c *classRef, name string, classes map[string]*classRef) *classRef {
	f := c.facts
	first, rest, dotted := strings.Cut(name, ".")
	suffix := dollar(rest, dotted)
	var cands []string
	// A class declared in the same file: the innermost enclosing scope first.
	for scope := c.fact.Binary; scope != ""; scope = outerOf(scope) {
		cands = append(cands, qualify(f.Package, scope+"$"+first+suffix))
	}
	for i := range f.Classes {
		if lastSegment(f.Classes[i].Binary) == first {
			cands = append(cands, qualify(f.Package, f.Classes[i].Binary+suffix))
		}
	}
	if imp, ok := f.Imports[first]; ok {
		cands = append(cands, imp+suffix)
	}
	cands = append(cands, qualify(f.Package, first+suffix))
	for _, w := range f.Wildcards {
		cands = append(cands, w+"."+first+suffix, w+"$"+first+suffix)
	}
	if dotted {
		cands = append(cands, binaryForms(name)...)
	}
	for _, cand := range cands {
		if r, ok := classes[cand]; ok && r != c {
			return r
		}
	}
	return nil
}

// outerOf strips the last $Inner of a binary name, "" at top level.
func outerOf(bin string) string {
	if i := strings.LastIndexByte(bin, '$'); i >= 0 {
		return bin[:i]
	}
	return ""
}

// binaryForms lists the binary names a dotted name may denote:
// a.b.C.D as a.b.C.D, a.b.C$D, a.b$C$D, ...
func binaryForms(name string) []string {
	parts := strings.Split(name, ".")
	var out []string
	for i := len(parts); i >= 1; i-- {
		out = append(out, strings.Join(parts[:i], ".")+joinDollar(parts[i:]))
	}
	return out
}

func joinDollar(parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	return "$" + strings.Join(parts, "$")
}
