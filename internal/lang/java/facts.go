package java

import "github.com/testdex/testdex/internal/lang"

// Facts are what one file tells the Linker: its package, imports and
// classes with their supertypes and test methods. They are stored as JSON
// in lang.Result.Facts.
type Facts struct {
	Package string `json:"pkg,omitempty"`
	// Imports maps a single-type import's simple name to its qualified
	// name; Wildcards are the packages (or classes) of on-demand imports.
	Imports   map[string]string `json:"imports,omitempty"`
	Wildcards []string          `json:"wild,omitempty"`
	Classes   []ClassFact       `json:"classes,omitempty"`
}

// ClassFact is one class or interface declared in the file.
type ClassFact struct {
	// Binary is the binary name within the package: Outer$Inner.
	Binary string `json:"bin"`
	Line   int    `json:"line"`
	// Super and Interfaces are the supertypes as written, generic
	// arguments removed: Base, com.y.Base, Outer.Inner.
	Super      string   `json:"super,omitempty"`
	Interfaces []string `json:"ifaces,omitempty"`
	// Runnable says JUnit runs the class itself (concrete, and selected
	// by the project's class filter); Emitted that the extractor listed
	// its suite record.
	Runnable bool `json:"run,omitempty"`
	Emitted  bool `json:"emitted,omitempty"`
	// Skip and Tags apply to every test of the class, inherited ones too.
	Skip bool     `json:"skip,omitempty"`
	Tags []string `json:"tags,omitempty"`
	// Parameterized says the class runs with JUnit 4's Parameterized
	// runner: every test method it runs, inherited ones too, has rows.
	Parameterized bool `json:"params,omitempty"`
	// Parent is the key of the enclosing suite record, "" at top level.
	Parent string `json:"parent,omitempty"`
	// Declared lists every method signature m(Types), tests or not: an
	// override hides the inherited test.
	Declared []string `json:"decl,omitempty"`
	// Methods are the class's own test methods.
	Methods []MethodFact `json:"methods,omitempty"`
	// RunWith is the simple name of the class's @RunWith runner, "" when none.
	RunWith string `json:"runWith,omitempty"`
	// Tests3 are the class's public void test*() no-argument instance
	// methods: JUnit 3 tests when the class turns out to extend
	// junit.framework.TestCase (the Linker decides, through the project's
	// supertypes).
	Tests3 []MethodFact `json:"tests3,omitempty"`
	// Suite says the class declares a JUnit 3 static suite() method, which
	// JUnit 4's runner (and Surefire's providers) run instead of the
	// class: SuiteClasses are the classes it adds as written
	// (addTestSuite(X.class), addTest(new JUnit4TestAdapter(X.class))),
	// SuiteOther that its body does anything else as well.
	Suite bool `json:"suite,omitempty"`
	// Member says the class is a public static concrete member class,
	// one that its outer class's @RunWith(Enclosed.class) runs.
	Member       bool     `json:"member,omitempty"`
	SuiteClasses []string `json:"suiteClasses,omitempty"`
	SuiteOther   bool     `json:"suiteOther,omitempty"`
}

// MethodFact is one test method with its rows, keyed relative to the
// class: the method's Local is its signature, a row's Parent is the
// signature. Scope, Run and class-level Skip and Tags are not applied.
type MethodFact struct {
	Sig   string      `json:"sig"`
	Tests []lang.Test `json:"tests"`
}
