package python

import (
	"encoding/json"
	"path"
	"strings"
)

// fileFacts is what one file tells the Linker (Result.Facts, JSON): its
// imports, its classes with their candidate test methods, and the
// module-level marks that apply to every test in it.
type fileFacts struct {
	// Imports maps a local name to the dotted name it was imported as
	// ("ut" -> "unittest", "TestCase" -> "unittest.TestCase", "Base" ->
	// ".base.Base" for a relative import).
	Imports map[string]string `json:"i,omitempty"`
	// ImportLines are the lines of the imports, by local name.
	ImportLines map[string]int `json:"il,omitempty"`
	Classes     []classFact    `json:"c,omitempty"`
	Module      markSet        `json:"m"`
	// Funcs are the module-level test functions (pytest only).
	Funcs []fnFact `json:"fn,omitempty"`
	// Fixtures are the module-level fixtures, by fixture name (the last
	// definition of a name wins, as in the module's namespace).
	Fixtures map[string]fixtureFact `json:"fx,omitempty"`
	// Dyn are the places where the module makes tests at run time.
	Dyn []dynFact `json:"dy,omitempty"`
	// Factories are the module-level functions that make classes, by name.
	Factories map[string]maker `json:"fa,omitempty"`
	// Mutators are the module-level functions that set test attributes on
	// their first parameter: class decorators that add test methods.
	Mutators []string `json:"mu,omitempty"`
	// MutHides are the test names a mutator may set to None on its class
	// (cls.test_x = None, setattr(cls, "test_x", None)), by mutator: whether
	// it does may hang on a condition, so the class's static records leave
	// them to its dynamic record.
	MutHides map[string][]string `json:"mh,omitempty"`
	// MutSrc is the source of a mutator that reads its class's __dict__,
	// by name: the Linker runs it over the namespaces of the classes
	// other modules decorate with it (decorun.go).
	MutSrc map[string]string `json:"ms,omitempty"`
	// Defs are the module-level functions bound once, by def, and the
	// undecorated classes bound once, by class: their __name__ is their
	// name (the Linker checks imported names with them).
	Defs []string `json:"df,omitempty"`
	// Doctests are the docstrings with examples (--doctest-modules) or,
	// for a --doctest-glob text file, the file itself.
	Doctests []docFact `json:"dt,omitempty"`
	// DocDyn are the places that make doctests at run time.
	DocDyn []docDyn `json:"dd,omitempty"`
	// Consts are the module-level constants (UPPER names bound once)
	// whose str() is known: numbers, bools, None, members of the module's
	// enums. A table of another module that imports one names it so.
	Consts map[string]string `json:"cn,omitempty"`
	// Seqs are the module-level constants (UPPER names bound once) bound
	// to a list or tuple whose elements' IDs are known, each an ID or
	// constObject (argname+index): a table of another module whose
	// argvalues is one imported names its rows so (table.SeqFrom).
	Seqs map[string][]string `json:"sq,omitempty"`
	// Skips are the module-level statements that skip the module on
	// import depending on the tree around it (fsskip.go).
	Skips []skipFact `json:"sk,omitempty"`
	// DirSkips are the module-level functions that raise SkipTest unless
	// a folder exists, by name.
	DirSkips map[string]dirSkipper `json:"ds,omitempty"`
	// Skipped: the module skips on import on this host whatever the tree
	// (skipsOnHost): a package's __init__ so skips every module under it.
	Skipped bool `json:"sd,omitempty"`
}

// classFact is one class definition, at module level or nested.
type classFact struct {
	Name  string   `json:"n"`
	Line  int      `json:"l"`
	Outer int      `json:"o"` // index of the enclosing class, -1 at module level
	Bases []string `json:"b,omitempty"`
	// HasInit is true when the class defines __init__ or __new__.
	HasInit bool `json:"h,omitempty"`
	// TestAttr is the class body's __test__ (nil when not set).
	TestAttr *bool    `json:"x,omitempty"`
	Marks    markSet  `json:"k"`
	Methods  []fnFact `json:"f,omitempty"`
	// Hidden are the test-like names the class body last binds to a value
	// that is not callable (test_x = None): the name hides an inherited
	// test method from pytest and unittest alike.
	Hidden []string `json:"nx,omitempty"`
	// Fixtures are the fixtures the class body defines, by fixture name.
	Fixtures map[string]fixtureFact `json:"fx,omitempty"`
	// Meta is what the class's metaclass adds to it and to every class
	// derived from it, when known (metaclass.go).
	Meta *metaFact `json:"mc,omitempty"`
	// Qual is the class's own __qualname__ when the module binds it to
	// another name (Name): a class a factory made (specialize.go).
	Qual string `json:"q,omitempty"`
	// NS is the class's namespace, for a class decorator of another
	// module to be run over (decons.go); only for a class so decorated.
	NS []nsEntry `json:"ns,omitempty"`
}

// qualName is the class's __qualname__ at module level: the name
// unittest's IDs use.
func (c *classFact) qualName() string {
	if c.Qual != "" {
		return c.Qual
	}
	return c.Name
}

// fixtureFact is one @pytest.fixture definition: what pytest needs to
// parametrize the tests that request it, directly or through other
// fixtures.
type fixtureFact struct {
	// Params is the params= table (Argnames: the fixture's name); nil
	// when the fixture is not parametrized.
	Params *table `json:"p,omitempty"`
	// Args are the fixtures it requests, in order.
	Args []string `json:"a,omitempty"`
	// Scope is scope= ("" for function); "?" when not a literal.
	Scope string `json:"s,omitempty"`
	// Auto is autouse=True; AutoUnknown an autouse= that is not a literal.
	Auto        bool `json:"u,omitempty"`
	AutoUnknown bool `json:"uu,omitempty"`
}

// markSet is the marks of a module, class or function: tag names, whether
// they statically skip, and parametrize tables in application order.
type markSet struct {
	Tags   []string `json:"t,omitempty"`
	Skip   bool     `json:"s,omitempty"`
	Tables []table  `json:"p,omitempty"`
	// Uses are the fixtures @pytest.mark.usefixtures requests.
	Uses []string `json:"u,omitempty"`
}

// fnFact is a function that may be a test: its name, line and own marks.
type fnFact struct {
	Name  string  `json:"n"`
	Line  int     `json:"l"`
	Marks markSet `json:"k"`
	// Args are the parameters that name fixtures (no self, none with a
	// default value), in order.
	Args []string `json:"a,omitempty"`
}

// table is one parametrize call's rows with pytest's unique IDs, or the
// source of a table that cannot be known statically.
type table struct {
	Rows    []row  `json:"r,omitempty"`
	Dynamic string `json:"d,omitempty"`
	// Argnames are the names the table parametrizes.
	Argnames []string `json:"n,omitempty"`
	// Indirect are the argnames indirect= passes to their fixtures: pytest
	// still follows those fixtures' own requests.
	Indirect []string `json:"in,omitempty"`
	// Assumed are the dotted names of imported objects the rows' IDs take
	// for functions (__name__: the last part). When the Linker finds one
	// is a module of the project (__name__: the dotted name), the table
	// becomes the dynamic Unless.
	Assumed []string `json:"as,omitempty"`
	// Consts are the dotted names of imported constants the rows' IDs
	// hold as constPlaceholder: the Linker puts in the str() their
	// module gives them (fileFacts.Consts), or makes the table Unless.
	Consts []string `json:"cs,omitempty"`
	// SeqFrom is the dotted name of an imported constant that is the
	// whole argvalues of a one-name table without ids=: the Linker makes
	// the rows from its module's fileFacts.Seqs, or makes the table
	// Unless.
	SeqFrom string `json:"sf,omitempty"`
	Unless  string `json:"un,omitempty"`
	// Partial is the dynamic name of the rows whose IDs cannot be known
	// beside Rows, which hold the rest (partialRows says when that is
	// sound); "" when every row is in Rows.
	Partial string `json:"p,omitempty"`
	// once is the dynamic name of a table whose argvalues or ids= is an
	// iterator, spent by the first test pytest collects with it (spent.go);
	// the walker keeps its rows only for a module-level function.
	once string
}

// row is one parameter set: its ID and its own marks.
type row struct {
	ID   string   `json:"i"`
	Tags []string `json:"t,omitempty"`
	Skip bool     `json:"s,omitempty"`
	// anchor, while the table is built, marks a row whose ID cannot be
	// known but holds this part of it (paramRow).
	anchor string
}

func (f *fileFacts) encode() []byte {
	b, _ := json.Marshal(f)
	return b
}

func decodeFacts(b []byte) *fileFacts {
	f := &fileFacts{}
	if len(b) > 0 {
		_ = json.Unmarshal(b, f)
	}
	return f
}

// merge returns the union of two mark sets: s's tables first (pytest
// applies the function's own marks, then the class's, then the module's).
func (s markSet) merge(o markSet) markSet {
	out := markSet{Skip: s.Skip || o.Skip}
	out.Tags = appendUnique(append([]string(nil), s.Tags...), o.Tags...)
	out.Tables = append(append([]table(nil), s.Tables...), o.Tables...)
	out.Uses = appendUnique(append([]string(nil), s.Uses...), o.Uses...)
	return out
}

func appendUnique(dst []string, add ...string) []string {
	for _, a := range add {
		found := false
		for _, d := range dst {
			if d == a {
				found = true
				break
			}
		}
		if !found {
			dst = append(dst, a)
		}
	}
	return dst
}

// matchesOption is pytest's _matches_prefix_or_glob_option: a name matches
// an option that is its prefix, or a glob (with * ? [) that fnmatch
// accepts.
func matchesOption(name string, options []string) bool {
	for _, o := range options {
		if strings.HasPrefix(name, o) {
			return true
		}
		if strings.ContainsAny(o, "*?[") && fnmatch(o, name) {
			return true
		}
	}
	return false
}

// fnmatch is Python's fnmatch.fnmatchcase: * and ? also match "/", and
// [!x] negates.
func fnmatch(pattern, name string) bool {
	p := strings.ReplaceAll(pattern, "[!", "[^")
	p = strings.ReplaceAll(p, `\`, `\\`)
	// path.Match stops * at "/"; fnmatch does not.
	ok, err := path.Match(strings.ReplaceAll(p, "/", "\x00"), strings.ReplaceAll(name, "/", "\x00"))
	return err == nil && ok
}
