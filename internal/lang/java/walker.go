package java

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// fileWalker reads one file's declarations: a shallow walk over the
// program, class bodies and method headers (no method bodies).
type fileWalker struct {
	src    []byte
	filter string        // "surefire" or "all"
	runs   []surefireRun // Surefire's runs when filter is "surefire"
	facts  Facts
	tests  []lang.Test
	nested map[string]string // simple name of a class declared in the file -> binary name
}

// classCtx is what a class passes to its members.
type classCtx struct {
	binary     string
	params     typeParams
	skip       bool
	tags       []string
	runnable   bool   // JUnit runs it (directly or as @Nested)
	runWith    string // simple name of its @RunWith runner
	parameters bool   // JUnit 4 @RunWith(Parameterized.class)
}

func newFileWalker(src []byte, filter string) *fileWalker {
	return &fileWalker{src: src, filter: filter, nested: map[string]string{}, runs: []surefireRun{{defaultIncludes, defaultExcludes}}}
}

// selected reports whether the class filter takes a class (binary name
// within the file's package): any class for "all", a class one of
// Surefire's runs includes otherwise.
func (x *fileWalker) selected(binary string) bool {
	if x.filter == "all" {
		return true
	}
	rel := binary + ".java"
	if x.facts.Package != "" {
		rel = strings.ReplaceAll(x.facts.Package, ".", "/") + "/" + rel
	}
	for _, r := range x.runs {
		if r.selects(rel) {
			return true
		}
	}
	return false
}

// maxDepth bounds class nesting so hostile input cannot recurse deeply.
const maxDepth = 64

func (x *fileWalker) walkProgram(root *sitter.Node) {
	var decls []*sitter.Node
	for i := 0; i < int(root.NamedChildCount()); i++ {
		n := root.NamedChild(i)
		switch n.Type() {
		case "package_declaration":
			x.facts.Package = x.packageName(n)
		case "import_declaration":
			x.addImport(n)
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
			decls = append(decls, n)
			x.indexNames(n, "", 0)
		case "ERROR":
			decls = append(decls, n)
		}
	}
	for _, d := range decls {
		if d.Type() == "ERROR" {
			x.recoverClass(d)
			continue
		}
		x.walkClass(d, nil, 0)
	}
}

// recoverClass reads a top-level class the parser could not finish (an
// ERROR node holding "class Name" and the members it could parse). The
// class's own annotations are lost; its complete methods are kept.
func (x *fileWalker) recoverClass(n *sitter.Node) {
	var name *sitter.Node
	for i := 0; i+1 < int(n.ChildCount()); i++ {
		if c := n.Child(i); c.Type() == "class" && n.Child(i+1).Type() == "identifier" {
			name = n.Child(i + 1)
			break
		}
	}
	if name == nil {
		return
	}
	fact := ClassFact{Binary: name.Content(x.src), Line: int(name.StartPoint().Row) + 1}
	ctx := &classCtx{binary: fact.Binary, params: typeParams{}, runnable: x.selected(fact.Binary)}
	fact.Runnable = ctx.runnable
	start := len(x.tests)
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "method_declaration" {
			x.method(c, ctx, &fact)
		}
	}
	fact.Emitted = len(x.tests) > start
	x.facts.Classes = append(x.facts.Classes, fact)
	if fact.Emitted {
		x.tests = slices.Insert(x.tests, start, x.suite(&fact))
	}
}

func (x *fileWalker) packageName(n *sitter.Node) string {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "scoped_identifier" || c.Type() == "identifier" {
			return strings.Join(strings.Fields(c.Content(x.src)), "")
		}
	}
	return ""
}

func (x *fileWalker) addImport(n *sitter.Node) {
	var name string
	wild, static := false, false
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch c.Type() {
		case "scoped_identifier", "identifier":
			name = strings.Join(strings.Fields(c.Content(x.src)), "")
		case "asterisk":
			wild = true
		case "static":
			static = true
		}
	}
	switch {
	case name == "" || static:
	case wild:
		x.facts.Wildcards = append(x.facts.Wildcards, name)
	default:
		if x.facts.Imports == nil {
			x.facts.Imports = map[string]string{}
		}
		x.facts.Imports[lastSegment(name)] = name
	}
}

// indexNames records every class declared in the file by simple name, so
// that a reference to a sibling nested class resolves to its binary name.
func (x *fileWalker) indexNames(n *sitter.Node, outer string, depth int) {
	name := n.ChildByFieldName("name")
	if name == nil || depth > maxDepth {
		return
	}
	bin := joinBinary(outer, name.Content(x.src))
	if _, dup := x.nested[name.Content(x.src)]; !dup {
		x.nested[name.Content(x.src)] = bin
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	for i := 0; i < int(body.NamedChildCount()); i++ {
		if c := body.NamedChild(i); isTypeDecl(c) {
			x.indexNames(c, bin, depth+1)
		}
	}
}

func isTypeDecl(n *sitter.Node) bool {
	switch n.Type() {
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
		return true
	}
	return false
}

func joinBinary(outer, name string) string {
	if outer == "" {
		return name
	}
	return outer + "$" + name
}

// resolve turns a class name as written in this file into a binary name
// (com.x.Outer$Inner) as far as the file alone can tell.
func (x *fileWalker) resolve(name string) string {
	first, rest, dotted := strings.Cut(name, ".")
	if bin, ok := x.nested[first]; ok {
		return x.qualify(bin + dollar(rest, dotted))
	}
	if fq, ok := x.facts.Imports[first]; ok {
		return fq + dollar(rest, dotted)
	}
	if dotted {
		return name
	}
	return x.qualify(name)
}

func dollar(rest string, dotted bool) string {
	if !dotted {
		return ""
	}
	return "$" + strings.ReplaceAll(rest, ".", "$")
}

func (x *fileWalker) qualify(bin string) string { return qualify(x.facts.Package, bin) }

// qualify joins a package and a binary name within it.
func qualify(pkg, bin string) string {
	if pkg == "" {
		return bin
	}
	return pkg + "." + bin
}

// walkClass reads one type declaration and its members, appending its
// records (suite first, then methods, then nested classes) and its facts.
func (x *fileWalker) walkClass(n *sitter.Node, outer *classCtx, depth int) {
	name := n.ChildByFieldName("name")
	if name == nil || depth > maxDepth {
		return
	}
	anns, kw := modifiersOf(n, x.src)
	fact := ClassFact{Line: int(name.StartPoint().Row) + 1}
	ctx := &classCtx{params: typeParams{}}
	if outer != nil {
		fact.Binary = joinBinary(outer.binary, name.Content(x.src))
		if !kw["static"] && n.Type() == "class_declaration" {
			ctx.params = outer.params
		}
	} else {
		fact.Binary = name.Content(x.src)
	}
	ctx.binary = fact.Binary
	ctx.params = ctx.params.with(n.ChildByFieldName("type_parameters"), x.src)
	x.supertypes(n, &fact)
	isClass := n.Type() == "class_declaration"
	concrete := isClass && !kw["abstract"]
	nestedAnn := hasAnn(anns, "Nested")
	switch {
	case outer == nil:
		ctx.runnable = concrete && x.selected(fact.Binary)
	case nestedAnn && !kw["static"]:
		ctx.runnable = concrete && outer.runnable
		fact.Parent = outer.binary
	default:
		ctx.runnable = concrete && (kw["static"] || n.Type() != "class_declaration") && x.selected(fact.Binary)
	}
	fact.Runnable = ctx.runnable
	ctx.skip = hasAnn(anns, "Disabled") || hasAnn(anns, "Ignore")
	ctx.tags = tagsOf(anns, x.src, x.resolve)
	if outer != nil && nestedAnn {
		ctx.skip = ctx.skip || outer.skip
		ctx.tags = appendNew(ctx.tags, outer.tags...)
	}
	fact.Skip, fact.Tags = ctx.skip, ctx.tags
	fact.RunWith = runWith(anns, x.src)
	ctx.runWith = fact.RunWith
	fact.Member = outer != nil && concrete && kw["static"] && kw["public"]
	ctx.parameters = fact.RunWith == "Parameterized"
	fact.Parameterized = ctx.parameters

	start := len(x.tests)
	x.tests = append(x.tests, lang.Test{}) // the suite record, filled in below
	var nestedDecls []*sitter.Node
	if body := n.ChildByFieldName("body"); body != nil {
		for i := 0; i < int(body.NamedChildCount()); i++ {
			c := body.NamedChild(i)
			switch {
			case c.Type() == "method_declaration":
				x.method(c, ctx, &fact)
			case isTypeDecl(c):
				nestedDecls = append(nestedDecls, c)
			}
		}
	}
	if fact.RunWith == "Suite" {
		x.suiteClasses(anns, &fact)
	}
	own := len(x.tests) - start - 1
	fi := len(x.facts.Classes)
	x.facts.Classes = append(x.facts.Classes, fact)
	for _, c := range nestedDecls {
		x.walkClass(c, ctx, depth+1)
	}
	if len(x.tests) == start+1 || (!ctx.runnable && own == 0) {
		x.tests = slices.Delete(x.tests, start, start+1)
		return
	}
	x.facts.Classes[fi].Emitted = true
	x.tests[start] = x.suite(&x.facts.Classes[fi])
}

// suite builds a class's suite record.
func (x *fileWalker) suite(f *ClassFact) lang.Test { return suiteRecord(x.facts.Package, f) }

// suiteRecord builds the suite record of a class of package pkg.
func suiteRecord(pkg string, f *ClassFact) lang.Test {
	return lang.Test{Kind: testdex.KindSuite, Scope: pkg, Name: f.Binary, Parent: f.Parent,
		Line: f.Line, Skip: f.Skip, Tags: f.Tags, Run: qualify(pkg, f.Binary)}
}

func (x *fileWalker) supertypes(n *sitter.Node, f *ClassFact) {
	if sc := n.ChildByFieldName("superclass"); sc != nil && sc.NamedChildCount() > 0 {
		f.Super = rawName(sc.NamedChild(int(sc.NamedChildCount())-1), x.src)
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		if c.Type() != "super_interfaces" && c.Type() != "extends_interfaces" {
			continue
		}
		for j := 0; j < int(c.NamedChildCount()); j++ {
			tl := c.NamedChild(j)
			for k := 0; k < int(tl.NamedChildCount()); k++ {
				f.Interfaces = append(f.Interfaces, rawName(tl.NamedChild(k), x.src))
			}
		}
	}
}

// runWith returns the simple name of a @RunWith runner class, "" when none.
func runWith(anns []annotation, src []byte) string {
	for i := range anns {
		if anns[i].simpleName() == "RunWith" {
			if v := anns[i].args["value"]; v != nil && v.Type() == "class_literal" && v.NamedChildCount() > 0 {
				return lastSegment(rawName(v.NamedChild(0), src))
			}
		}
	}
	return ""
}

func hasAnn(anns []annotation, simple string) bool {
	for i := range anns {
		if anns[i].simpleName() == simple {
			return true
		}
	}
	return false
}

// appendNew appends the values not already in s.
func appendNew(s []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	return s
}

// surefireName applies Surefire's default includes (**/Test*.java,
// **/*Test.java, **/*Tests.java, **/*TestCase.java) and excludes
// (**/*$*) to a class's binary name within its package.
func surefireName(binary string) bool {
	if strings.Contains(binary, "$") {
		return false
	}
	return strings.HasPrefix(binary, "Test") || strings.HasSuffix(binary, "Test") ||
		strings.HasSuffix(binary, "Tests") || strings.HasSuffix(binary, "TestCase")
}

// suiteClasses reads the classes of JUnit 4's @RunWith(Suite.class)
// @SuiteClasses({X.class, ...}), which replace a suite() method's.
func (x *fileWalker) suiteClasses(anns []annotation, fact *ClassFact) {
	fact.Suite, fact.SuiteClasses, fact.SuiteOther = true, nil, true
	for i := range anns {
		if anns[i].simpleName() != "SuiteClasses" {
			continue
		}
		fact.SuiteOther = false
		for _, e := range elements(anns[i].args["value"]) {
			if e.Type() == "class_literal" && e.NamedChildCount() > 0 {
				fact.SuiteClasses = append(fact.SuiteClasses, rawName(e.NamedChild(0), x.src))
			} else {
				fact.SuiteOther = true
			}
		}
	}
}
