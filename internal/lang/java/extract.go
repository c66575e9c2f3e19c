package java

import (
	"bytes"
	"encoding/json"
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Settings keys read by the Extractor.
const (
	// SettingClassFilter selects which classes of a file are test classes:
	// "surefire" (Maven: top-level classes named Test*, *Test, *Tests or
	// *TestCase; nested classes only through @Nested) or "all" (Gradle:
	// every class, static nested ones included). Absent means "surefire".
	SettingClassFilter = "classFilter"
)

// Extractor reads the JUnit 3, 4 and 5 (Jupiter) tests of one Java file
// with tree-sitter's Java grammar. It walks only the declarations (package,
// imports, class bodies), never method bodies but that of a JUnit 3
// static suite(). Its zero value is ready to use and safe for concurrent
// use.
//
// Records: a test class is a suite (Scope the package, Name the binary name
// within it, Outer$Inner); a test method is a test (Scope the class's
// binary name com.x.Outer$Inner, Name method(SimpleTypes), the form of
// Jupiter's default display name and of the console launcher's listing;
// Local Outer$Inner.method(SimpleTypes)); literal @ValueSource,
// @CsvSource, @NullSource, @EmptySource rows and literal @RepeatedTest counts
// are subtests method(Types)[1], [2], ... as JUnit numbers invocations;
// other parameter sources, @TestFactory, @TestTemplate and JUnit 4
// Parameterized rows are one dynamic subtest each. Abstract classes and
// interfaces give no records: their tests are carried in Result.Facts and
// the Linker reports them under each concrete subclass. JUnit 3 is the
// Linker's too: a class is a junit.framework.TestCase only through its
// supertypes, and a suite() (or @RunWith(Suite.class), Enclosed) makes
// classes of other files run.
type Extractor struct{}

// Framework is testdex.JUnit.
func (Extractor) Framework() testdex.Framework { return testdex.JUnit }

// CacheKey names the extractor's version.
func (Extractor) CacheKey() string { return "java/3" }

// Extract reads one file's tests. A file with a NUL byte is reported as
// binary and not parsed; invalid UTF-8 and syntax errors are error
// Problems carrying a line, with the tests that could still be read.
func (Extractor) Extract(f *lang.File) lang.Result {
	var res lang.Result
	if i := bytes.IndexByte(f.Data, 0); i >= 0 {
		res.Problems = append(res.Problems, problemAt(f.Data, i, "binary file (NUL byte); not Java source"))
		return res
	}
	if off, bad := tsgrammars.InvalidUTF8(f.Data); bad {
		res.Problems = append(res.Problems, problemAt(f.Data, off, "invalid UTF-8; names near it may be wrong (save the file as UTF-8)"))
	}
	tree, err := tsgrammars.Parse(tsgrammars.Java, f.Data)
	if err != nil || tree == nil {
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevError, Message: "the Java parser gave up on this file"})
		return res
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		res.Problems = append(res.Problems, syntaxProblem(root))
	}
	x := newFileWalker(f.Data, filterOf(f.Settings))
	if runs := parseRuns(f.Settings[SettingSurefireRuns]); runs != nil {
		x.runs = runs
	}
	x.walkProgram(root)
	res.Tests = x.tests
	res.Package = x.facts.Package
	if len(x.facts.Classes) > 0 {
		facts, err := json.Marshal(&x.facts)
		if err == nil {
			res.Facts = facts
		}
	}
	return res
}

// filterOf reads SettingClassFilter.
func filterOf(s lang.Settings) string {
	if v := s[SettingClassFilter]; len(v) == 1 && v[0] == "all" {
		return "all"
	}
	return "surefire"
}

func problemAt(data []byte, off int, msg string) testdex.Problem {
	return testdex.Problem{Severity: testdex.SevError, Line: tsgrammars.Line(data, off), Message: msg}
}

// syntaxProblem locates the first ERROR or MISSING node, descending only
// into subtrees that contain an error.
func syntaxProblem(n *sitter.Node) testdex.Problem {
	for depth := 0; depth < 200; depth++ {
		if n.IsError() || n.IsMissing() {
			break
		}
		var next *sitter.Node
		for i := 0; i < int(n.ChildCount()); i++ {
			c := n.Child(i)
			if c != nil && (c.HasError() || c.IsMissing()) {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	line := int(n.StartPoint().Row) + 1
	if n.IsError() && n.ChildCount() > 0 {
		// An ERROR node wrapping good declarations: the parser gave up
		// where its last piece starts.
		line = int(n.Child(int(n.ChildCount())-1).StartPoint().Row) + 1
	}
	what := "syntax error"
	if n.IsMissing() {
		what = fmt.Sprintf("syntax error: missing %s", n.Type())
	}
	return testdex.Problem{Severity: testdex.SevError, Line: line,
		Message: what + "; tests after this point may be missing (fix the file, then list again)"}
}
