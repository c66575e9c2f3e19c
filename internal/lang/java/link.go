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
	run := map[*classRef]bool{}
	var queue []*classRef
	for _, c := range order {
		if c.fact.Runnable {
			run[c] = true
			queue = append(queue, c)
		}
	}
	for i := 0; i < len(queue); i++ {
		c := queue[i]
		fresh := !c.fact.Runnable // runs only because a suite() adds it
		if c.fact.Suite && (c.fact.RunWith == "" || c.fact.RunWith == "Suite") {
			dropOwn(c)
			other := c.fact.SuiteOther
			for _, name := range c.fact.SuiteClasses {
				r := resolveIn(c, name, classes)
				if r == nil {
					other = true
					continue
				}
				if !run[r] {
					run[r] = true
					queue = append(queue, r)
				}
			}
			if other {
				addRecords(c, []lang.Test{classDynamic(c, "{suite()}")})
			}
			continue
		}
		if c.fact.RunWith == "Enclosed" {
			dropOwn(c)
			for i := range c.facts.Classes {
				r := classes[qualify(c.facts.Package, c.facts.Classes[i].Binary)]
				if r == nil || !r.fact.Member || outerOf(r.fact.Binary) != c.fact.Binary {
					continue
				}
				if !run[r] {
					run[r] = true
					queue = append(queue, r)
				}
			}
			continue
		}
		kind := junit3No
		if c.fact.RunWith == "" {
			kind = testCase(c, classes)
		}
		switch kind {
		case junit3Yes:
			dropOwn(c)
			addRecords(c, inherited(c, classes, true))
		default:
			var recs []lang.Test
			if fresh {
				recs = own(c)
			}
			recs = append(recs, inherited(c, classes, false)...)
			if kind == junit3Unknown {
				recs = append(recs, classDynamic(c, "{JUnit 3 tests? extends "+c.fact.Super+"}"))
			}
			addRecords(c, recs)
		}
	}
	return probs
}

// JUnit 3 kinds of a class: not a junit.framework.TestCase, one, or
// maybe one (its superclass chain leaves the project at a class named
// *TestCase, PlexusTestCase say, that may extend TestCase).
const (
	junit3No = iota
	junit3Yes
	junit3Unknown
)

// testCase follows c's superclass chain through the project's classes.
func testCase(c *classRef, classes map[string]*classRef) int {
	visited := map[*classRef]bool{}
	for n := 0; n < maxSupers && !visited[c]; n++ {
		visited[c] = true
		s := c.fact.Super
		if s == "" {
			return junit3No
		}
		if r := resolveIn(c, s, classes); r != nil {
			c = r
			continue
		}
		if isJUnit3TestCase(c.facts, s) {
			return junit3Yes
		}
		if strings.HasSuffix(lastSegment(s), "TestCase") {
			return junit3Unknown
		}
		return junit3No
	}
	return junit3No
}

// isJUnit3TestCase reports whether a superclass name written in a file
// that declares no such class denotes junit.framework.TestCase.
func isJUnit3TestCase(f *Facts, name string) bool {
	const tc = "junit.framework.TestCase"
	switch {
	case name == tc:
		return true
	case name != "TestCase":
		return false
	}
	if imp, ok := f.Imports["TestCase"]; ok {
		return imp == tc
	}
	return slices.Contains(f.Wildcards, "junit.framework")
}

// own places a class's own test methods (for a class that the extractor
// did not list because only a suite() makes it run).
func own(c *classRef) []lang.Test {
	fqn := qualify(c.facts.Package, c.fact.Binary)
	var out []lang.Test
	for _, m := range c.fact.Methods {
		for _, t := range m.Tests {
			out = append(out, place(t, fqn, c.fact.Binary, c.fact.Skip, c.fact.Tags))
		}
	}
	return out
}

// classDynamic is one dynamic record standing for the tests of class c
// that cannot be named statically; it runs the whole class.
func classDynamic(c *classRef, name string) lang.Test {
	fqn := qualify(c.facts.Package, c.fact.Binary)
	return lang.Test{Kind: testdex.KindTest, Name: name, Local: c.fact.Binary + "." + name, Parent: c.fact.Binary,
		Scope: fqn, Run: fqn, Dynamic: true, Line: c.fact.Line, Skip: c.fact.Skip, Tags: c.fact.Tags}
}

// dropOwn removes the records the extractor listed for class c itself
// (its suite and methods; nested classes keep theirs).
func dropOwn(c *classRef) {
	if !c.fact.Emitted {
		return
	}
	c.file.Result.Tests = slices.DeleteFunc(c.file.Result.Tests, func(t lang.Test) bool {
		return t.Key() == c.fact.Binary || strings.HasPrefix(t.Key(), c.fact.Binary+".")
	})
	c.fact.Emitted = false
}

// inherited returns the tests class c inherits, placed under c; junit3
// takes the JUnit 3 test*() methods of c and its supertypes instead of
// the annotated ones of its supertypes.
func inherited(c *classRef, classes map[string]*classRef, junit3 bool) []lang.Test {
	hidden := map[string]bool{}
	for _, d := range c.fact.Declared {
		hidden[d] = true
	}
	fqn := qualify(c.facts.Package, c.fact.Binary)
	visited := map[string]bool{fqn: true}
	queue := supers(c, classes)
	var added []lang.Test
	tags := c.fact.Tags
	if junit3 {
		hidden = map[string]bool{}
		for _, m := range c.fact.Tests3 {
			hidden[m.Sig] = true
			for _, t := range m.Tests {
				added = append(added, place(t, fqn, c.fact.Binary, c.fact.Skip, tags))
			}
		}
		for _, d := range c.fact.Declared {
			hidden[d] = true
		}
	}
	for n := 0; len(queue) > 0 && n < maxSupers; n++ {
		b := queue[0]
		queue = queue[1:]
		bfqn := qualify(b.facts.Package, b.fact.Binary)
		if visited[bfqn] {
			continue
		}
		visited[bfqn] = true
		tags = appendNew(slices.Clone(tags), b.fact.Tags...)
		methods := b.fact.Methods
		if junit3 {
			methods = b.fact.Tests3
		}
		for _, m := range methods {
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
	return added
}

// addRecords adds records of class c to its file's records, after the
// class's own (with its suite record first when it had none).
func addRecords(c *classRef, added []lang.Test) {
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
