package python

import (
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// dynPlace is a confirmed place where a module makes unittest tests at
// run time: the tests of a module (prefix "pkg.mod") or of one class
// (class set, prefix "pkg.mod.Class").
type dynPlace struct {
	prefix string // dotted module or class the tests' IDs start with
	class  string // local name of the class, "" for a module
	what   string // placeholder text, without braces
	line   int
	hides  []string // the test names a mutating decorator may hide on the class
}

// dynPlaces confirms a module's dynFacts: a class made at run time needs a
// TestCase-like or unknown base, a call needs a class factory or a
// metaclass, a decorator a mutator. classes maps the local names of the
// module's emitted test classes to their dotted names; tests added to
// another class are put on the module.
func (l *linker) dynPlaces(cl *classes, m *modFile, classes map[string]string) []dynPlace {
	own := moduleName(m.rel)
	var out []dynPlace
	seen := map[string]bool{}
	add := func(p dynPlace) {
		if p.class != "" && classes[p.class] == "" {
			p.class, p.prefix = "", own
		}
		if p.class != "" {
			p.prefix = classes[p.class]
		}
		if key := p.prefix + "\x00" + p.what; !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	for _, f := range m.facts.Dyn {
		switch f.Why {
		case whyLoadTests:
			add(dynPlace{prefix: own, what: whyLoadTests, line: f.Line})
			for _, t := range f.Targets {
				if f.Renamed != nil && !f.Renamed.Rest && t == f.Renamed.Target && !foreignClasses(cl, cl.module(m, t)) {
					continue // every test it loads is named (renamedRecords)
				}
				if name := l.targetModule(cl, m, t); name != "" && name != own {
					add(dynPlace{prefix: name, what: whyLoadTests + ":" + name, line: f.Line})
				}
			}
		case whyType, whyLoop:
			if f.Open || anyTestCase(cl, m, f.Bases) {
				add(dynPlace{prefix: own, what: f.Why, line: f.Line})
			}
		case whyGlobals:
			add(dynPlace{prefix: own, what: f.Why, line: f.Line})
		case whySetattr, whyLocals:
			add(dynPlace{class: f.Class, what: f.Why, line: f.Line})
		case whyCall:
			if isMetaclass(cl, m, f.Call) && (f.Open || anyTestCase(cl, m, f.Bases)) {
				add(dynPlace{prefix: own, what: "metaclass:" + f.Call, line: f.Line})
			} else if l.isFactory(cl, m, f.Call) {
				add(dynPlace{prefix: own, what: f.Call + "()", line: f.Line})
			}
		case whyMeta:
			// The class itself must be a test class: metaclasses on
			// helper classes (a custom __instancecheck__) make no tests.
			if i := m.findClass(f.Class); i >= 0 && cl.info(classRef{m, i}, 0).testCase && isMetaclass(cl, m, f.Call) {
				add(dynPlace{prefix: own, what: "metaclass:" + f.Call, line: f.Line})
			}
		case whyDecorator:
			if m.decorated[f.Class] {
				continue // run over the class: what it adds is listed (decorun.go)
			}
			if mod, name := l.function(cl, m, f.Call); mod != nil && contains(mod.facts.Mutators, name) {
				add(dynPlace{class: f.Class, what: "@" + f.Call, line: f.Line, hides: mod.facts.MutHides[name]})
			}
		}
	}
	return out
}

// dynRecord makes a place's dynamic record: a suite for a module's
// unknown tests (its ID's name is {what}), a test under its class for a
// class's. The name's literal text before "{" is the dotted prefix of the
// tests it covers; running it runs the declaring module or the class.
func dynRecord(m *modFile, p dynPlace) lang.Test {
	ph := "{" + p.what + "}"
	if p.class != "" {
		return lang.Test{Kind: testdex.KindTest, Name: p.prefix + "." + ph, Local: p.class + "::" + ph, Parent: p.class,
			Line: p.line, Dynamic: true, Run: p.prefix}
	}
	return lang.Test{Kind: testdex.KindSuite, Name: p.prefix + "." + ph, Local: ph, Line: p.line, Dynamic: true, Run: moduleName(m.rel)}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// targetModule names a module a load_tests hook loads as the listing
// names tests: the project-relative dotted name of a project module, the
// absolute name of one outside the project; "" for an unknown relative
// name.
func (l *linker) targetModule(cl *classes, m *modFile, dotted string) string {
	mod := cl.module(m, dotted)
	if mod != nil && !strings.HasPrefix(mod.rel, "../") {
		return moduleName(mod.rel)
	}
	if strings.HasPrefix(dotted, ".") {
		return ""
	}
	return dotted
}

// anyTestCase reports whether some base resolves to a TestCase class.
func anyTestCase(cl *classes, m *modFile, bases []string) bool {
	for _, b := range bases {
		ref, testCase, found := cl.resolve(m, b, 0)
		if testCase || (found && cl.info(ref, 0).testCase) {
			return true
		}
	}
	return false
}

// isMetaclass reports whether a name resolves to a project class that
// derives from type. Metaclasses outside the project (abc.ABCMeta,
// enum's) do not make tests.
func isMetaclass(cl *classes, m *modFile, name string) bool {
	ref, _, found := cl.resolve(m, name, 0)
	if !found || !inProject(ref.m) {
		return false
	}
	for _, r := range cl.info(ref, 0).mro {
		if contains(r.fact().Bases, "type") {
			return true
		}
	}
	return false
}

// inProject reports whether a module lies in the project folder: helpers
// outside it (the standard library above CPython's Lib/test) do not make
// tests, whatever their functions do to classes.
func inProject(m *modFile) bool { return !strings.HasPrefix(m.rel, "../") }

// function finds the module and name of a module-level function a callee
// expression names, as seen from m; nil when it is not in the project.
func (l *linker) function(cl *classes, m *modFile, callee string) (*modFile, string) {
	for depth := 0; depth < 4 && inProject(m); depth++ {
		if !strings.Contains(callee, ".") {
			if _, ok := m.facts.Factories[callee]; ok || contains(m.facts.Mutators, callee) {
				return m, callee
			}
		}
		first, rest, hasRest := strings.Cut(callee, ".")
		full, ok := m.facts.Imports[first]
		if !ok {
			return nil, ""
		}
		if hasRest {
			full += "." + rest
		}
		dot := strings.LastIndexByte(full, '.')
		if dot < 0 {
			return nil, ""
		}
		mod := cl.module(m, full[:dot])
		if mod == nil {
			return nil, ""
		}
		m, callee = mod, full[dot+1:]
	}
	return nil, ""
}

// isFactory reports whether a callee is a class factory that makes a
// TestCase-like class (or one with an unknown base).
func (l *linker) isFactory(cl *classes, m *modFile, callee string) bool {
	mod, name := l.function(cl, m, callee)
	if mod == nil {
		return false
	}
	f, ok := mod.facts.Factories[name]
	return ok && (f.Open || anyTestCase(cl, mod, f.Bases))
}

// renamedRecords lists the tests a load_tests hook loads from fresh
// imports of a project module under renamed classes (renamed): every
// TestCase class of that module's namespace, once per suffix, named
// Class+suffix in the module, as unittest names them after the hook
// renames their __qualname__. They run through the hook's module. None
// when the module is not the project's or imports a TestCase class (one
// shared by the imports would be renamed twice).
func (l *linker) renamedRecords(cl *classes, m *modFile) []lang.Test {
	var out []lang.Test
	for _, f := range m.facts.Dyn {
		if f.Why != whyLoadTests || f.Renamed == nil {
			continue
		}
		tm := cl.module(m, f.Renamed.Target)
		if tm == nil || !inProject(tm) || slices.ContainsFunc(importedClasses(cl, tm), func(r imported) bool { return cl.info(r.ref, 0).testCase }) {
			continue
		}
		last := map[string]int{} // the namespace holds a name's last class
		for i, c := range tm.facts.Classes {
			if c.Outer == -1 {
				last[c.Name] = i
			}
		}
		run := moduleName(m.rel)
		for _, suffix := range f.Renamed.Suffixes {
			for i, c := range tm.facts.Classes {
				ci := cl.info(classRef{tm, i}, 0)
				if c.Outer != -1 || last[c.Name] != i || !ci.testCase {
					continue
				}
				fns := unittestMethods(cl, ci)
				if len(fns) == 0 {
					continue
				}
				skip := cl.marks(ci).Skip
				local := c.qualName() + suffix
				dotted := moduleName(tm.rel) + "." + local
				out = append(out, lang.Test{Kind: testdex.KindSuite, Name: dotted, Local: local, Line: f.Line, Skip: skip, Run: run})
				for _, fn := range fns {
					out = append(out, lang.Test{Kind: testdex.KindTest, Name: dotted + "." + fn.Name, Local: local + "::" + fn.Name,
						Parent: local, Line: f.Line, Skip: skip || fn.Marks.Skip, Run: run})
				}
			}
		}
	}
	return out
}

// docSuiteRecords lists the doctests a load_tests hook adds through
// DocTestSuite: one per docstring with examples of the module named
// (dynFact.Docs), named as DocTestFinder names them (module.Class.method),
// run through the hook's module. Those a module makes at run time
// (facts.DocDyn: batched.__doc__ = ...) stay under the hook's dynamic
// records, which every such hook keeps.
func docSuiteRecords(cl *classes, m *modFile) []lang.Test {
	var out []lang.Test
	seen := map[string]bool{}
	for _, f := range m.facts.Dyn {
		if f.Why != whyLoadTests {
			continue
		}
		for _, d := range f.Docs {
			tm := m
			if d != "" {
				tm = cl.module(m, d)
			}
			if tm == nil || !inProject(tm) {
				continue
			}
			mod := moduleName(tm.rel)
			for _, doc := range tm.facts.Doctests {
				name := mod
				if doc.Qual != "" {
					name += "." + doc.Qual
				}
				if doc.Text || seen[name] {
					continue
				}
				seen[name] = true
				out = append(out, lang.Test{Kind: testdex.KindDoctest, Name: name, Local: name, Line: f.Line, Skip: doc.Skip,
					Run: moduleName(m.rel)})
			}
		}
	}
	return out
}
