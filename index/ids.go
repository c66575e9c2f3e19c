package index

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex"
)

// The ID rules, in one place. A listed record's ID is FILE::KEY, FILE its
// declaring file and KEY its name within the file (see lang.Test.Key). A
// test the listing does not hold (the runner reported it, or a user names
// it by an ID that some command printed) gets its ID by the same rules, in
// two ways:
//
//   - under its nearest listed ancestor, found through the name (the
//     ancestor's name followed by a separator): ancestor ID + the rest of
//     the name, so a row known only at run time sits under its listed
//     parent; Parent is that ancestor;
//   - at top level, from what the runner says of the test (its file, its
//     scope) and the framework's key rule.
//
// Both directions (a runner's scope and name to an ID, an ID to a record a
// runner can select by name) are here, so that every ID testdex prints is
// an ID `testdex run` takes.

// separators returns what ends a parent's name inside a child's, per
// framework: Go's subtest "/", the " > " between JavaScript titles,
// pytest's and cargo's "::" paths, parameter rows' "[", unittest's dots.
func separators(fw testdex.Framework) []string {
	switch fw {
	case testdex.Go:
		return []string{"/"}
	case testdex.Jest, testdex.Vitest, testdex.Mocha, testdex.NodeTest:
		return []string{" > "}
	case testdex.Pytest:
		return []string{"::", "["}
	case testdex.Cargo:
		return []string{"::"}
	case testdex.Unittest:
		return []string{"."}
	case testdex.JUnit:
		return []string{"["}
	}
	return []string{"/", " > ", "::", "["}
}

// Namer names the tests a runner reports. It is built once per run from
// the listing and is read-only afterwards.
type Namer struct {
	ix    *Index
	byKey map[string]*testdex.Test // project, framework, scope, name
	byID  map[string]*testdex.Test
	// methods maps project, framework, scope and a JUnit method name before
	// its "(" to the listed methods of that name, for runners that report
	// a method without its parameter types (Surefire: "m" for m(TestInfo)).
	methods map[string][]*testdex.Test
	// classes maps project and a JUnit class's binary name to its record.
	classes map[string]*testdex.Test
	// modules maps project, cargo target and module path to the file
	// declaring the module's listed tests.
	modules map[string]string
	// prefixes maps project and framework to the root-relative folder that
	// the framework's file-relative names start from (pytest's rootdir), as
	// the listed records show it.
	prefixes map[string]string
}

// NewNamer indexes the listing for naming run results.
func (ix *Index) NewNamer() *Namer {
	n := &Namer{ix: ix, byKey: make(map[string]*testdex.Test, len(ix.Tests)), byID: make(map[string]*testdex.Test, len(ix.Tests)),
		methods: map[string][]*testdex.Test{}, classes: map[string]*testdex.Test{}, prefixes: map[string]string{}, modules: map[string]string{}}
	for i := range ix.Tests {
		t := &ix.Tests[i]
		n.byID[t.ID] = t
		if t.Dynamic {
			continue
		}
		n.byKey[runtimeKey(t.Project, t.Framework, t.Scope, t.Name)] = t
		switch t.Framework {
		case testdex.JUnit:
			if t.Kind == testdex.KindSuite {
				n.classes[t.Project+"\x00"+joinScope(t.Scope, t.Name)] = t
			} else if base, _, ok := strings.Cut(t.Name, "("); ok && !strings.Contains(t.Name, ")[") {
				k := runtimeKey(t.Project, t.Framework, t.Scope, base)
				n.methods[k] = append(n.methods[k], t)
			}
		case testdex.Cargo:
			if i := strings.LastIndex(t.Name, "::"); i > 0 && t.Kind != testdex.KindDoctest {
				n.modules[t.Project+"\x00"+t.Scope+"\x00"+t.Name[:i]] = t.File
			}
		case testdex.Pytest:
			pk := t.Project + "\x00" + string(t.Framework)
			if _, ok := n.prefixes[pk]; !ok {
				if file, _, ok := strings.Cut(t.Name, testdex.IDSep); ok && strings.HasSuffix(t.File, file) {
					n.prefixes[pk] = strings.TrimSuffix(t.File, file)
				}
			}
		}
	}
	return n
}

func joinScope(scope, name string) string {
	if scope == "" {
		return name
	}
	return scope + "." + name
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
	if t := n.byKey[runtimeKey(r.Project, r.Framework, r.Scope, r.Name)]; t != nil {
		return *t, true
	}
	if t := n.junitMethod(r); t != nil {
		return *t, true
	}
	rec := testdex.Test{Framework: r.Framework, Kind: r.Kind, Scope: r.Scope, Name: r.Name, Project: r.Project,
		Tags: []string{}, Seen: []string{SeenRuntime}}
	if a, rest := n.ancestor(r); a != nil {
		rec.ID, rec.Parent, rec.File, rec.Line = a.ID+rest, a.ID, a.File, a.Line
		if rec.Kind == "" {
			rec.Kind = childKind(a)
		}
		return rec, false
	}
	if rec.Kind == "" {
		rec.Kind = testdex.KindTest
	}
	rec.File = n.topFile(r)
	rec.ID = testdex.MakeID(rec.File, n.topKey(r))
	return rec, false
}

// childKind is the kind of a test found under a listed record.
func childKind(a *testdex.Test) testdex.Kind {
	if a.Kind == testdex.KindSuite {
		return testdex.KindTest
	}
	return testdex.KindSubtest
}

// junitMethod finds the one listed method a runner reported without its
// parameter types (m or m()[1] for the listed m(TestInfo)).
func (n *Namer) junitMethod(r Result) *testdex.Test {
	if r.Framework != testdex.JUnit {
		return nil
	}
	base, rest, ok := strings.Cut(r.Name, "()")
	if !ok {
		base, rest = r.Name, ""
	}
	if strings.Contains(base, "(") {
		return nil
	}
	ms := n.methods[runtimeKey(r.Project, r.Framework, r.Scope, base)]
	if len(ms) != 1 {
		return nil
	}
	if rest == "" {
		return ms[0]
	}
	return n.byKey[runtimeKey(r.Project, r.Framework, r.Scope, ms[0].Name+rest)]
}

// ancestor finds the nearest listed ancestor of a reported test and the
// rest of the ID under it.
func (n *Namer) ancestor(r Result) (*testdex.Test, string) {
	for cut := len(r.Name); cut > 0; {
		best := lastSeparator(r.Framework, r.Name[:cut])
		if best <= 0 {
			break
		}
		if a := n.byKey[runtimeKey(r.Project, r.Framework, r.Scope, r.Name[:best])]; a != nil {
			rest := r.Name[best:]
			if r.Framework == testdex.Unittest && strings.HasPrefix(rest, ".") {
				rest = testdex.IDSep + rest[1:]
			}
			return a, rest
		}
		cut = best
	}
	if r.Framework == testdex.JUnit {
		if c := n.classes[r.Project+"\x00"+r.Scope]; c != nil && r.Name != "" {
			return c, "." + r.Name
		}
	}
	return nil, ""
}

// lastSeparator returns the index of the last separator of fw's names in
// s, -1 when there is none. A pytest "::" inside a row's parameters is not
// one: the row's "[" is.
func lastSeparator(fw testdex.Framework, s string) int {
	best := -1
	for _, sep := range separators(fw) {
		if i := strings.LastIndex(s, sep); i > best {
			best = i
		}
	}
	if fw == testdex.Pytest && strings.HasSuffix(s, "]") {
		if open := strings.Index(s, "["); open >= 0 && open < best {
			return open
		}
	}
	return best
}

// topFile is the declaring file of a reported test that has no listed
// ancestor: the file the runner names, else the framework's rule.
func (n *Namer) topFile(r Result) string {
	if r.File != "" {
		return r.File
	}
	dir := r.Project
	switch r.Framework {
	case testdex.Pytest:
		if file, _, ok := strings.Cut(r.Name, testdex.IDSep); ok {
			prefix, known := n.prefixes[r.Project+"\x00"+string(r.Framework)]
			if !known {
				prefix = strings.TrimPrefix(dir+"/", "./")
			}
			return path.Clean(prefix + file)
		}
	case testdex.Cargo:
		return n.cargoFile(r)
	case testdex.Jest, testdex.Vitest, testdex.Mocha, testdex.NodeTest:
		return rootRel(dir, r.Scope)
	case testdex.Go:
		dir := n.goPackageDir(r)
		if f := n.goDeclaringFile(dir, r.Name); f != "" {
			return f
		}
		return dir
	case testdex.Unittest:
		mod := r.Name
		for i := 0; i < 2; i++ { // module.Class.method
			if j := strings.LastIndex(mod, "."); j > 0 {
				mod = mod[:j]
			}
		}
		return rootRel(dir, strings.ReplaceAll(mod, ".", "/")+".py")
	case testdex.JUnit:
		outer, _, _ := strings.Cut(r.Scope, "$")
		return rootRel(dir, "src/test/java/"+strings.ReplaceAll(outer, ".", "/")+".java")
	}
	return dir
}

// cargoFile is the file declaring a cargo test: a doc test's is in its
// name ("src/a.rs - item (line 3)", relative to the crate or its
// workspace), another's is that of the innermost module of its path with a
// listed test, else the target's root file (a module without any listed
// test is not known here: its file is the Rust linker's fact, not kept in
// the records).
func (n *Namer) cargoFile(r Result) string {
	if file, _, ok := strings.Cut(r.Name, " - "); ok && strings.HasSuffix(r.Name, ")") {
		for _, f := range n.ix.Files {
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
	return rootRel(r.Project, r.Scope)
}

// goDeclaringFile finds, among the candidate files of a package folder,
// the one declaring a test the listing does not hold (a file a build
// constraint left out of the listing, run with -tags): the first whose
// source has "func NAME(x *T)" for the test's top-level name, the
// parameter a *T, *B or *F, or none for an example (TestMain(m
// *testing.M) is no test). "" when none does. It reads files only for
// tests the runner alone reported.
func (n *Namer) goDeclaringFile(dir, name string) string {
	top, _, _ := strings.Cut(name, "/")
	decl := []byte("func " + top + "(")
	for _, f := range n.ix.Files {
		if f.Framework != testdex.Go || path.Dir(f.Path) != dir {
			continue
		}
		data, err := os.ReadFile(filepath.Join(n.ix.Root, filepath.FromSlash(f.Path)))
		if err == nil && declaresTest(data, decl) {
			return f.Path
		}
	}
	return ""
}

// declaresTest reports whether src holds decl ("func NAME(") with no
// parameter or one whose type is a pointer to a T, B or F.
func declaresTest(src, decl []byte) bool {
	for {
		i := bytes.Index(src, decl)
		if i < 0 {
			return false
		}
		src = src[i+len(decl):]
		params, _, ok := bytes.Cut(src, []byte(")"))
		params = bytes.TrimSpace(params)
		if ok && (len(params) == 0 || bytes.Contains(params, []byte("*")) && bytes.ContainsAny(params[len(params)-1:], "TBF")) {
			return true // an example, or a test, benchmark or fuzz target
		}
	}
}

// goPackageDir is the root-relative folder of a Go package: that of a
// listed record of the package, else the import path under the module.
func (n *Namer) goPackageDir(r Result) string {
	for i := range n.ix.Tests {
		t := &n.ix.Tests[i]
		if t.Framework == testdex.Go && t.Project == r.Project && t.Scope == r.Scope {
			return path.Dir(t.File)
		}
	}
	for _, p := range n.ix.Projects {
		if p.Dir == r.Project && p.Name != "" {
			if rest, ok := strings.CutPrefix(r.Scope, p.Name+"/"); ok {
				return rootRel(r.Project, rest)
			}
		}
	}
	return r.Project
}

// topKey is the key of a reported test that has no listed ancestor.
func (n *Namer) topKey(r Result) string {
	switch r.Framework {
	case testdex.Pytest:
		if _, key, ok := strings.Cut(r.Name, testdex.IDSep); ok {
			return key
		}
	case testdex.Unittest:
		parts := strings.Split(r.Name, ".")
		if len(parts) >= 2 {
			return strings.Join(parts[len(parts)-2:], testdex.IDSep)
		}
	case testdex.JUnit:
		class := r.Scope
		if i := strings.LastIndex(class, "."); i >= 0 {
			class = class[i+1:]
		}
		return class + "." + r.Name
	}
	return r.Name
}

// projectRel makes a root-relative path relative to a project folder.
func projectRel(project, p string) string {
	if project == "." || project == "" {
		return p
	}
	return strings.TrimPrefix(p, project+"/")
}

// rootRel joins a project folder and a project-relative path.
func rootRel(project, rel string) string {
	if project == "." || project == "" {
		return path.Clean(rel)
	}
	return path.Join(project, rel)
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
	rec := testdex.Test{ID: id, Framework: f.Framework, Project: f.Project, File: file, Tags: []string{}, Seen: []string{SeenRuntime}}
	if a, rest := n.ancestorOfID(f.Framework, file, key); a != nil {
		rec.Parent, rec.Line, rec.Kind, rec.Scope = a.ID, a.Line, childKind(a), a.Scope
		switch {
		case a.Framework == testdex.JUnit && a.Kind == testdex.KindSuite && strings.HasPrefix(rest, "."):
			rec.Scope, rec.Name = joinScope(a.Scope, a.Name), rest[1:]
		case a.Framework == testdex.Unittest:
			rec.Name = a.Name + strings.ReplaceAll(rest, testdex.IDSep, ".")
		default:
			rec.Name = a.Name + rest
		}
	} else {
		rec.Kind = testdex.KindTest
		rec.Scope, rec.Name = n.topName(f, key)
	}
	rec.Run = runFor(rec)
	return rec, true
}

// runFor is the native selector of a record made by the ID rules, where
// the runner cannot build it from the name alone.
func runFor(t testdex.Test) string {
	switch t.Framework {
	case testdex.Cargo:
		return t.Name
	case testdex.JUnit:
		base, _, _ := strings.Cut(t.Name, "(")
		base, _, _ = strings.Cut(base, "[")
		return t.Scope + "#" + base
	}
	return ""
}

// fileOf finds the candidate file (or, for Go, the package folder) an ID
// starts with.
func (n *Namer) fileOf(file string) (File, bool) {
	for _, f := range n.ix.Files {
		if f.Path == file {
			return f, true
		}
	}
	for _, f := range n.ix.Files { // a Go package folder (a test only the runner reported)
		if f.Framework == testdex.Go && path.Dir(f.Path) == file {
			return File{Path: file, Framework: f.Framework, Project: f.Project}, true
		}
	}
	return File{}, false
}

// ancestorOfID finds the nearest listed ancestor of an unlisted ID by
// cutting its key back at fw's separators.
func (n *Namer) ancestorOfID(fw testdex.Framework, file, key string) (*testdex.Test, string) {
	seps := separators(fw)
	if fw == testdex.JUnit || fw == testdex.Unittest {
		seps = []string{".", "::", "["}
	}
	for cut := len(key); cut > 0; {
		best := -1
		for _, sep := range seps {
			if i := strings.LastIndex(key[:cut], sep); i > best {
				best = i
			}
		}
		if fw == testdex.Pytest && strings.HasSuffix(key[:cut], "]") {
			if open := strings.Index(key[:cut], "["); open >= 0 && open < best {
				best = open
			}
		}
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

// topName is the scope and name of an unlisted top-level test of a file.
func (n *Namer) topName(f File, key string) (scope, name string) {
	rel := projectRel(f.Project, f.Path)
	var listed *testdex.Test
	for i := range n.ix.Tests {
		t := &n.ix.Tests[i]
		if t.Framework == f.Framework && (t.File == f.Path || f.Framework == testdex.Go && path.Dir(t.File) == f.Path) {
			listed = t
			break
		}
	}
	switch f.Framework {
	case testdex.Pytest:
		prefix, ok := n.prefixes[f.Project+"\x00"+string(f.Framework)]
		if !ok {
			prefix = strings.TrimPrefix(f.Project+"/", "./")
		}
		return "", strings.TrimPrefix(f.Path, prefix) + testdex.IDSep + key
	case testdex.Unittest:
		return "", strings.ReplaceAll(strings.TrimSuffix(rel, ".py"), "/", ".") + "." + strings.ReplaceAll(key, testdex.IDSep, ".")
	case testdex.JUnit:
		class, method, _ := strings.Cut(key, ".")
		pkg := ""
		if listed != nil {
			pkg, _, _ = strings.Cut(listed.Scope, "$")
			if listed.Kind != testdex.KindSuite {
				if i := strings.LastIndex(pkg, "."); i >= 0 {
					pkg = pkg[:i]
				} else {
					pkg = ""
				}
			}
		}
		return joinScope(pkg, class), method
	case testdex.Go, testdex.Cargo:
		if listed != nil {
			return listed.Scope, key
		}
		if f.Framework == testdex.Go {
			return n.goImportPath(f), key
		}
	}
	return rel, key
}

// goImportPath is the import path of a Go package folder without listed
// tests: the module path and the folder under the module.
func (n *Namer) goImportPath(f File) string {
	dir := f.Path
	if path.Ext(dir) == ".go" {
		dir = path.Dir(dir)
	}
	for _, p := range n.ix.Projects {
		if p.Dir != f.Project || p.Name == "" {
			continue
		}
		rel := dir
		if p.Dir != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(dir, p.Dir), "/")
		}
		if rel == "" || rel == "." {
			return p.Name
		}
		return p.Name + "/" + rel
	}
	return ""
}
