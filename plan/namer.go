package plan

import (
	"path"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/languages"
)

// The ID rules' generic algorithm. A listed record's ID is FILE::KEY,
// FILE its declaring file and KEY its name within the file (see
// lang.Test.Key). A test the listing does not hold (the runner reported
// it, or a user names it by an ID that some command printed) gets its ID
// by the same rules, in two ways:
//
//   - under its nearest listed ancestor, found through the name (the
//     ancestor's name followed by a separator): ancestor ID + the rest of
//     the name, so a row known only at run time sits under its listed
//     parent; Parent is that ancestor;
//   - at top level, from what the runner says of the test (its file, its
//     scope) and the framework's key rule.
//
// What differs per framework (its separators, its files, its keys) is the
// framework's lang.Naming, declared in its language package. Both
// directions (a runner's scope and name to an ID, an ID to a record a
// runner can select by name) are here, so that every ID testdex prints is
// an ID `testdex run` takes.

// Namer names the tests a runner reports. It is built once per run from
// the listing and is read-only afterwards.
type Namer struct {
	l     Listing
	byKey map[string]*testdex.Test // project, framework, scope, name
	byID  map[string]*testdex.Test
	// rules are the facts and naming rules over the listing of each
	// framework of its files and records.
	rules   map[testdex.Framework]rules
	listing lang.Listing
}

// rules are one framework's facts and its naming rules over a listing.
type rules struct {
	fw     *lang.Framework
	naming lang.Naming
}

// NewNamer indexes a listing for naming run results.
func NewNamer(ix Listing) *Namer {
	n := &Namer{l: ix, byKey: make(map[string]*testdex.Test, len(ix.Tests)), byID: make(map[string]*testdex.Test, len(ix.Tests)),
		rules: map[testdex.Framework]rules{}}
	present := map[testdex.Framework]bool{}
	last := testdex.Framework("\x00") // records and files come in runs of one framework
	for i := range ix.Tests {
		t := &ix.Tests[i]
		n.byID[t.ID] = t
		if !t.Dynamic {
			n.byKey[ResultKey(t.Project, t.Framework, t.Scope, t.Name)] = t
		}
		if t.Framework != last {
			present[t.Framework], last = true, t.Framework
		}
	}
	for _, f := range ix.Files {
		if f.Framework != last {
			present[f.Framework], last = true, f.Framework
		}
	}
	n.listing = ix.lang()
	for fw := range present {
		n.rules[fw] = n.build(fw)
	}
	return n
}

// build makes a framework's rules over the listing.
func (n *Namer) build(framework testdex.Framework) rules {
	fw := languages.Framework(framework)
	l := n.listing
	l.Framework = framework
	l.Lookup = func(project, scope, name string) *testdex.Test {
		return n.byKey[ResultKey(project, framework, scope, name)]
	}
	return rules{fw, fw.NamingFor(&l)}
}

// lang is what the frameworks' naming rules may read of the listing.
func (l Listing) lang() lang.Listing {
	return lang.Listing{Root: l.Root, Tests: l.Tests, Files: l.Files, Projects: l.Projects}
}

// of returns a framework's rules: the registered framework's (the
// generic ones for a name no language registers). Those of the
// frameworks of the listing's files and records are built once; another's
// (a runner reporting for a framework the listing has no file of) are
// built for the call, so that the Namer stays read-only.
func (n *Namer) of(fw testdex.Framework) rules {
	if r, ok := n.rules[fw]; ok {
		return r
	}
	return n.build(fw)
}

// Result is what a runner said of one test: its project folder (root-
// relative), framework, scope and name in the runner's terms, and, where
// the runner says it, the declaring file (root-relative) and kind.
type Result struct {
	Project   string
	Framework testdex.Framework
	Scope     string
	Name      string
	File      string
	Kind      testdex.Kind
}

// Record returns the record of a reported test: the listed one, or one
// made by the ID rules with Seen ["runtime"].
func (n *Namer) Record(r Result) (testdex.Test, bool) {
	if t := n.byKey[ResultKey(r.Project, r.Framework, r.Scope, r.Name)]; t != nil {
		return *t, true
	}
	nm := n.of(r.Framework).naming
	rep := lang.Reported{Project: r.Project, Scope: r.Scope, Name: r.Name, File: r.File, Kind: r.Kind}
	if t := nm.Listed(rep); t != nil {
		return *t, true
	}
	rec := testdex.Test{Framework: r.Framework, Kind: r.Kind, Scope: r.Scope, Name: r.Name, Project: r.Project,
		Tags: []string{}, Seen: []string{testdex.SeenRuntime}}
	if a, rest := n.ancestor(nm, r, rep); a != nil {
		rec.ID, rec.Parent, rec.File, rec.Line = a.ID+rest, a.ID, a.File, a.Line
		if rec.Kind == "" {
			rec.Kind = childKind(a)
		}
		return rec, false
	}
	if rec.Kind == "" {
		rec.Kind = testdex.KindTest
	}
	rec.File = r.File
	if rec.File == "" {
		rec.File = nm.TopFile(rep)
	}
	rec.ID = testdex.MakeID(rec.File, nm.TopKey(rep))
	return rec, false
}

// childKind is the kind of a test found under a listed record.
func childKind(a *testdex.Test) testdex.Kind {
	if a.Kind == testdex.KindSuite {
		return testdex.KindTest
	}
	return testdex.KindSubtest
}

// ancestor finds the nearest listed ancestor of a reported test and the
// rest of the ID under it: the name cut back at the framework's
// separators, else the framework's outer record.
func (n *Namer) ancestor(nm lang.Naming, r Result, rep lang.Reported) (*testdex.Test, string) {
	for cut := len(r.Name); cut > 0; {
		best := nm.Cut(r.Name[:cut])
		if best <= 0 {
			break
		}
		if a := n.byKey[ResultKey(r.Project, r.Framework, r.Scope, r.Name[:best])]; a != nil {
			return a, nm.Rest(r.Name[best:])
		}
		cut = best
	}
	return nm.Outer(rep)
}

// ForID returns the record an ID names: the listed one, or, for an ID the
// listing does not hold, a record made by the same rules that a runner can
// select by name (a row known only at run time under its listed parent, a
// test only the runner reported at the top of a listed file). Whether the
// runner knows such a test is for the run to tell. ok is false when the ID
// cannot name a test: its file is not a test file or package folder of the
// listing.
func (n *Namer) ForID(id string) (testdex.Test, bool) {
	if t := n.byID[id]; t != nil {
		return *t, true
	}
	file, key := testdex.SplitID(id)
	if key == "" {
		return testdex.Test{}, false
	}
	f, ok := n.fileOf(file)
	if !ok {
		return testdex.Test{}, false
	}
	nm := n.of(f.Framework).naming
	rec := testdex.Test{ID: id, Framework: f.Framework, Project: f.Project, File: file, Tags: []string{}, Seen: []string{testdex.SeenRuntime}}
	if a, rest := n.ancestorOfID(nm, file, key); a != nil {
		rec.Parent, rec.Line, rec.Kind = a.ID, a.Line, childKind(a)
		rec.Scope, rec.Name = n.of(a.Framework).naming.Child(a, rest)
	} else {
		rec.Kind = testdex.KindTest
		rec.Scope, rec.Name = nm.Top(f, key, n.firstOf(f))
	}
	rec.Run = nm.Run(&rec)
	return rec, true
}

// fileOf finds the candidate file (or the folder of one, for a framework
// whose IDs may start with a folder) an ID starts with.
func (n *Namer) fileOf(file string) (lang.ListedFile, bool) {
	for _, f := range n.l.Files {
		if f.Path == file {
			return f, true
		}
	}
	for _, f := range n.l.Files { // a Go package folder (a test only the runner reported)
		if n.of(f.Framework).fw.FolderIDs && path.Dir(f.Path) == file {
			return lang.ListedFile{Path: file, Framework: f.Framework, Project: f.Project}, true
		}
	}
	return lang.ListedFile{}, false
}

// firstOf is the first listed record of a file (or folder) of the
// listing; nil when there is none.
func (n *Namer) firstOf(f lang.ListedFile) *testdex.Test {
	folders := n.of(f.Framework).fw.FolderIDs
	for i := range n.l.Tests {
		t := &n.l.Tests[i]
		if t.Framework == f.Framework && (t.File == f.Path || folders && path.Dir(t.File) == f.Path) {
			return t
		}
	}
	return nil
}

// ancestorOfID finds the nearest listed ancestor of an unlisted ID by
// cutting its key back at the framework's separators.
func (n *Namer) ancestorOfID(nm lang.Naming, file, key string) (*testdex.Test, string) {
	for cut := len(key); cut > 0; {
		best := nm.CutKey(key[:cut])
		if best <= 0 {
			return nil, ""
		}
		if a := n.byID[testdex.MakeID(file, key[:best])]; a != nil && !a.Dynamic {
			return a, key[best:]
		}
		cut = best
	}
	return nil, ""
}

// ResultKey identifies a test by project, framework, scope and name: two
// projects' tests may share the rest.
func ResultKey(project string, fw testdex.Framework, scope, name string) string {
	return project + "\x00" + string(fw) + "\x00" + scope + "\x00" + name
}
