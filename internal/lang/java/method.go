package java

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// testAnnotations are the annotations that make a method a test, JUnit 4's
// org.junit.Test and Jupiter's org.junit.jupiter.api.* alike.
var testAnnotations = map[string]bool{
	"Test": true, "Theory": true, "ParameterizedTest": true, "RepeatedTest": true, "TestFactory": true, "TestTemplate": true,
}

// maxRows caps the rows listed for one method; a larger literal count
// gives a dynamic record instead.
const maxRows = 1000

// method reads one method declaration: its signature always goes into
// the class's facts; a test method's records go into the facts and, when
// the class is runnable, into the file's records.
func (x *fileWalker) method(n *sitter.Node, ctx *classCtx, fact *ClassFact) {
	name := n.ChildByFieldName("name")
	if name == nil {
		return
	}
	anns, kw := modifiersOf(n, x.src)
	params := ctx.params.with(n.ChildByFieldName("type_parameters"), x.src)
	sig := name.Content(x.src) + "(" + params.params(n.ChildByFieldName("parameters"), x.src) + ")"
	fact.Declared = append(fact.Declared, sig)
	x.junit3(n, sig, kw, fact)
	kind := x.testKind(anns)
	if kind == "Theory" && ctx.runWith != "Theories" {
		kind = ""
	}
	if kind == "" {
		return
	}
	m := lang.Test{Kind: testdex.KindTest, Name: sig, Local: sig, Line: int(name.StartPoint().Row) + 1,
		Skip: hasAnn(anns, "Disabled") || hasAnn(anns, "Ignore"), Tags: tagsOf(anns, x.src, x.resolve)}
	mf := MethodFact{Sig: sig, Tests: []lang.Test{m}}
	for _, r := range x.rows(kind, anns, ctx) {
		r.Kind, r.Parent, r.Line = testdex.KindSubtest, sig, m.Line
		r.Skip, r.Tags = m.Skip, m.Tags
		r.Name = sig + r.Name
		r.Local = r.Name
		mf.Tests = append(mf.Tests, r)
	}
	fact.Methods = append(fact.Methods, mf)
	if ctx.runnable {
		for _, t := range mf.Tests {
			x.tests = append(x.tests, place(t, x.qualify(ctx.binary), ctx.binary, ctx.skip, ctx.tags))
		}
	}
}

// place puts a class-relative method or row record into a class: Scope,
// Local, Parent and Run, with the class's Skip and Tags added.
func place(t lang.Test, fqn, binary string, skip bool, tags []string) lang.Test {
	t.Scope = fqn
	t.Local = binary + "." + t.Local
	if t.Parent == "" {
		t.Parent = binary
	} else {
		t.Parent = binary + "." + t.Parent
	}
	method, _, _ := strings.Cut(t.Name, "(")
	t.Run = fqn + "#" + method
	t.Skip = t.Skip || skip
	t.Tags = appendNew(append([]string(nil), t.Tags...), tags...)
	return t
}

// testKind returns the test annotation's simple name, "" for a method
// that is not a test. An annotation imported from outside JUnit (TestNG's
// org.testng.annotations.Test) does not count.
func (x *fileWalker) testKind(anns []annotation) string {
	for i := range anns {
		s := anns[i].simpleName()
		if !testAnnotations[s] {
			continue
		}
		fq := anns[i].name
		if !strings.Contains(fq, ".") {
			if imp, ok := x.facts.Imports[s]; ok {
				fq = imp
			}
		}
		if strings.Contains(fq, ".") && !strings.HasPrefix(fq, "org.junit.") {
			continue
		}
		return s
	}
	return ""
}

// rows returns a test's invocation rows: Name is "[i]" for a counted row,
// the {placeholder} alone for a dynamic one.
func (x *fileWalker) rows(kind string, anns []annotation, ctx *classCtx) []lang.Test {
	switch kind {
	case "ParameterizedTest":
		return x.parameterRows(anns)
	case "RepeatedTest":
		for i := range anns {
			if anns[i].simpleName() == "RepeatedTest" {
				if n, ok := intValue(anns[i].args["value"], x.src); ok && n <= maxRows {
					return numbered(n)
				}
				return []lang.Test{dynamic(anns[i].node, x.src)}
			}
		}
	case "TestFactory", "TestTemplate":
		for i := range anns {
			if anns[i].simpleName() == kind {
				return []lang.Test{dynamic(anns[i].node, x.src)}
			}
		}
	case "Test":
		if ctx.parameters {
			return []lang.Test{{Name: "{@Parameters}", Dynamic: true}}
		}
	}
	return nil
}

// parameterRows counts the arguments of a @ParameterizedTest's literal
// sources, which JUnit concatenates in declaration order. Any source it
// cannot count makes one dynamic row instead.
func (x *fileWalker) parameterRows(anns []annotation) []lang.Test {
	total, sources := 0, 0
	for i := range anns {
		a := &anns[i]
		s := a.simpleName()
		if !strings.HasSuffix(s, "Source") && s != "NullAndEmptySource" {
			continue
		}
		sources++
		n, ok := x.countSource(a)
		if !ok {
			return []lang.Test{dynamic(a.node, x.src)}
		}
		total += n
	}
	if sources == 0 || total > maxRows {
		return []lang.Test{{Name: "{arguments}", Dynamic: true}}
	}
	return numbered(total)
}

// countSource counts one literal argument source, ok false when the count
// is not in the source text.
func (x *fileWalker) countSource(a *annotation) (int, bool) {
	switch a.simpleName() {
	case "NullSource", "EmptySource":
		return 1, true
	case "NullAndEmptySource":
		return 2, true
	case "ValueSource":
		if len(a.args) != 1 {
			return 0, false
		}
		for _, v := range a.args {
			return len(elements(v)), true
		}
	case "CsvSource":
		return x.countCsv(a)
	case "EnumSource":
		mode := a.args["mode"]
		names := elements(a.args["names"])
		if len(names) > 0 && (mode == nil || strings.HasSuffix(mode.Content(x.src), "INCLUDE")) {
			return len(names), true
		}
	}
	return 0, false
}

// countCsv counts @CsvSource rows: the value strings, or the non-blank,
// non-comment lines of textBlock; a header row is not an invocation.
func (x *fileWalker) countCsv(a *annotation) (int, bool) {
	n := 0
	if tb := a.args["textBlock"]; tb != nil {
		s, ok := stringValue(tb, x.src)
		if !ok {
			return 0, false
		}
		for _, line := range strings.Split(s, "\n") {
			if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
				n++
			}
		}
	} else {
		for _, e := range elements(a.args["value"]) {
			if _, ok := stringValue(e, x.src); !ok {
				return 0, false
			}
			n++
		}
	}
	if h := a.args["useHeadersInDisplayName"]; h != nil && h.Content(x.src) == "true" && n > 0 {
		n--
	}
	return n, true
}

func numbered(n int) []lang.Test {
	out := make([]lang.Test, n)
	for i := range out {
		out[i].Name = fmt.Sprintf("[%d]", i+1)
	}
	return out
}

// dynamic is a row whose name is the annotation that makes the rows.
func dynamic(ann *sitter.Node, src []byte) lang.Test {
	return lang.Test{Name: "{" + sourceText(ann, src) + "}", Dynamic: true}
}

// junit3 notes a method JUnit 3 would run, were the class a
// junit.framework.TestCase (public void test*() of no arguments, not
// static), and a static suite() method with the classes it adds.
func (x *fileWalker) junit3(n *sitter.Node, sig string, kw map[string]bool, fact *ClassFact) {
	void := false
	if t := n.ChildByFieldName("type"); t != nil && t.Content(x.src) == "void" {
		void = true
	}
	switch {
	case sig == "suite()" && kw["static"] && kw["public"] && !void:
		fact.Suite = true
		x.suiteBody(n.ChildByFieldName("body"), fact)
	case strings.HasPrefix(sig, "test") && strings.HasSuffix(sig, "()") && kw["public"] && !kw["static"] && !kw["abstract"] && void:
		name := n.ChildByFieldName("name")
		t := lang.Test{Kind: testdex.KindTest, Name: sig, Local: sig, Line: int(name.StartPoint().Row) + 1}
		fact.Tests3 = append(fact.Tests3, MethodFact{Sig: sig, Tests: []lang.Test{t}})
	}
}

// suiteBody reads a suite() method's body: the classes of
// addTestSuite(X.class), new JUnit4TestAdapter(X.class) and new
// TestSuite(X.class, ...) (added with addTest or returned); any other
// call or statement shape that may add tests (a loop, a helper,
// addTest(Y.suite())) sets SuiteOther.
func (x *fileWalker) suiteBody(body *sitter.Node, fact *ClassFact) {
	if body == nil {
		fact.SuiteOther = true
		return
	}
	var visit func(n *sitter.Node, depth int)
	visit = func(n *sitter.Node, depth int) {
		if depth > 200 {
			fact.SuiteOther = true
			return
		}
		switch n.Type() {
		case "for_statement", "enhanced_for_statement", "while_statement", "do_statement", "if_statement", "lambda_expression":
			fact.SuiteOther = true
		case "object_creation_expression":
			t, args := n.ChildByFieldName("type"), n.ChildByFieldName("arguments")
			name := ""
			if t != nil {
				name = lastSegment(rawName(t, x.src))
			}
			if (name != "JUnit4TestAdapter" && name != "TestSuite") || args == nil {
				fact.SuiteOther = true
				return
			}
			for i := 0; i < int(args.NamedChildCount()); i++ {
				if a := args.NamedChild(i); a.Type() == "class_literal" && a.NamedChildCount() > 0 {
					fact.SuiteClasses = append(fact.SuiteClasses, rawName(a.NamedChild(0), x.src))
				} else {
					fact.SuiteOther = true
				}
			}
			return
		case "method_invocation":
			nm, args := n.ChildByFieldName("name"), n.ChildByFieldName("arguments")
			if nm == nil || args == nil {
				fact.SuiteOther = true
				return
			}
			switch name := nm.Content(x.src); {
			case name == "addTestSuite" && args.NamedChildCount() == 1 && args.NamedChild(0).Type() == "class_literal":
				if a := args.NamedChild(0); a.NamedChildCount() > 0 {
					fact.SuiteClasses = append(fact.SuiteClasses, rawName(a.NamedChild(0), x.src))
				}
				return
			case name == "addTest" || strings.HasPrefix(name, "set"):
				visit(args, depth+1)
				return
			default:
				fact.SuiteOther = true
				return
			}
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			visit(n.NamedChild(i), depth+1)
		}
	}
	visit(body, 0)
}
