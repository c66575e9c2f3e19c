package fidelity

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/internal/treecopy"
)

// Breakage is a copy of a project with assertions broken on purpose: in a
// test the static listing holds, in one it cannot see (declared through an
// alias or a helper), and in a row built from data. Natively exactly Want
// fail; through testdex exactly the same must fail and nothing else.
type Breakage struct {
	Edits []Edit
	// Files are copied from testdata/breakage/PROJECT into the copy, at the
	// same relative path (new test files of the shapes the project lacks).
	Files []string
	Want  []Key
}

// Edit replaces the first Old in File (relative to the project) by New.
type Edit struct {
	File, Old, New string
}

// shared are the top-level folders a copy links to instead of copying:
// installed dependencies and build output, which the breakage never
// touches.
var shared = []string{"node_modules", ".venv", "target"}

// Break makes the broken copy of the project in src at dst: src's files
// copied (its dependency folders linked), b's edits applied, b's files
// added from testdata (the folder of breakage files for this project).
func (b *Breakage) Break(src, dst, testdata string) error {
	if err := treecopy.Copy(src, dst, shared); err != nil {
		return err
	}
	for _, e := range b.Edits {
		p := filepath.Join(dst, filepath.FromSlash(e.File))
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !strings.Contains(string(data), e.Old) {
			return fmt.Errorf("breakage: %s no longer holds %q (the project changed: update breakage.go)", e.File, e.Old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(data), e.Old, e.New, 1)), 0o644); err != nil {
			return err
		}
	}
	for _, f := range b.Files {
		data, err := os.ReadFile(filepath.Join(testdata, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		p := filepath.Join(dst, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

const broken = "fidelity: broken on purpose"

var itsdangerousBreakage = &Breakage{
	Edits: []Edit{{
		File: "tests/test_itsdangerous/test_encoding.py",
		Old:  "def test_base64_bad():\n",
		New:  "def test_base64_bad():\n    assert False, \"" + broken + "\"\n",
	}},
	Files: []string{"tests/test_itsdangerous/test_fidelity_hidden.py"},
	Want: []Key{
		{"pytest", "", "tests/test_itsdangerous/test_encoding.py::test_base64_bad"},
		{"pytest", "", "tests/test_itsdangerous/test_fidelity_hidden.py::test_made_by_a_helper"},
		{"pytest", "", "tests/test_itsdangerous/test_fidelity_hidden.py::test_squares[2-5]"},
	},
}

var pyasn1Breakage = &Breakage{
	Edits: []Edit{{
		File: "tests/type/test_namedval.py",
		Old:  "    def testClone(self):\n",
		New:  "    def testClone(self):\n        assert False, '" + broken + "'\n",
	}},
	Files: []string{"tests/test_fidelity_hidden.py"},
	Want: []Key{
		{"unittest", "", "tests.type.test_namedval.NamedValuesCaseBase.testClone"},
		{"unittest", "", "tests.test_fidelity_hidden.HelperMade.test_made_by_type"},
		{"unittest", "", "tests.test_fidelity_hidden.RowsTestCase.test_square_2"},
	},
}

var jestBreakage = &Breakage{
	// The project's own tests are compiled TypeScript, `(0,
	// globals_1.test)(...)`: none is in the static listing.
	Edits: []Edit{{
		File: "lib/Matchers.spec.js",
		Old:  "(0, globals_1.test)('returns true for null', () => {",
		New:  "(0, globals_1.test)('returns true for null', () => {\n            throw new Error('" + broken + "');",
	}},
	Files: []string{"lib/fidelity.spec.js"},
	Want: []Key{
		{"jest", "lib/Matchers.spec.js", "Matchers > any > returns true for null"},
		{"jest", "lib/fidelity.spec.js", "a listed test fails"},
		{"jest", "lib/fidelity.spec.js", "declared through an alias fails"},
		{"jest", "lib/fidelity.spec.js", "fidelity rows > squares 2"},
	},
}

var vitestBreakage = &Breakage{
	Edits: []Edit{
		{
			File: "src/v4/core/tests/locales/ru.test.ts",
			Old:  `expect(error).toContain("-2 элемента");`,
			New:  `expect(error).toContain("-2 fidelity");`,
		},
		{ // a row of the TEST_CASES table the describe and it titles are built from
			File: "src/v4/core/tests/locales/ru.test.ts",
			Old:  `{ count: 5, expected: "5 элементов" },`,
			New:  `{ count: 5, expected: "5 fidelity" },`,
		},
	},
	Files: []string{"src/v4/core/tests/fidelity-hidden.test.ts"},
	Want: []Key{
		{"vitest", "src/v4/core/tests/locales/ru.test.ts", "Russian localization > pluralization rules > handles negative numbers correctly"},
		{"vitest", "src/v4/core/tests/locales/ru.test.ts", "Russian localization > pluralization rules > array pluralization > correctly pluralizes 5 array"},
		{"vitest", "src/v4/core/tests/fidelity-hidden.test.ts", "declared through an alias fails"},
	},
}

var mochaBreakage = &Breakage{
	Edits: []Edit{{
		File: "spec/index.spec.js",
		Old:  "it('should work when an options object is provided', function() {\n",
		New:  "it('should work when an options object is provided', function() {\n      assert.fail('" + broken + "');\n",
	}},
	Files: []string{"spec/fidelity_hidden.spec.js"},
	Want: []Key{
		{"mocha", "spec/index.spec.js", "json-schema-traverse > Legacy v0.3.1 API > should work when an options object is provided"},
		{"mocha", "spec/fidelity_hidden.spec.js", "fidelity hidden > declared through an alias fails"},
		{"mocha", "spec/fidelity_hidden.spec.js", "fidelity rows > squares 2"},
	},
}

var nodeBreakage = &Breakage{
	Edits: []Edit{{
		File: "test/index.test.js",
		Old:  "test('passes headers', (t, done) => {\n",
		New:  "test('passes headers', (t, done) => {\n  throw new Error('" + broken + "')\n",
	}},
	Files: []string{"test/fidelity-hidden.test.js"},
	Want: []Key{
		{"node", "test/index.test.js", "passes headers"},
		{"node", "test/fidelity-hidden.test.js", "declared through an alias fails"},
		{"node", "test/fidelity-hidden.test.js", "fidelity rows > squares 2"},
	},
}

// gotomlBreakage breaks a test the listing holds (TestMarshalFloats) and a
// subtest that a helper of the test files starts four levels down
// (testWithFlags, called through testWithAllFlags from TestMarshal's table
// loop): go test fails it and each of its ancestors.
var gotomlBreakage = &Breakage{
	Edits: []Edit{
		{File: "marshaler_test.go", Old: "\texpected := `'+inf' = inf\n", New: "\texpected := `'+inf' = " + "broken\n"},
		{File: "marshaler_test.go", Old: "\tif len(setters) == 0 {\n\t\ttestfn(t, flags)\n",
			New: "\tif len(setters) == 0 {\n\t\tif t.Name() == \"" + gotomlHelperMade + "\" {\n\t\t\tt.Error(\"" + broken + "\")\n\t\t}\n\t\ttestfn(t, flags)\n"},
	},
	Want: []Key{
		{"go", "github.com/pelletier/go-toml/v2", "TestMarshalFloats"},
		{"go", "github.com/pelletier/go-toml/v2", gotomlHelperMade},
		{"go", "github.com/pelletier/go-toml/v2", "TestMarshal/simple_map_and_string/arrays-multiline=true/tables-inline=true"},
		{"go", "github.com/pelletier/go-toml/v2", "TestMarshal/simple_map_and_string/arrays-multiline=true"},
		{"go", "github.com/pelletier/go-toml/v2", "TestMarshal/simple_map_and_string"},
		{"go", "github.com/pelletier/go-toml/v2", "TestMarshal"},
	},
}

// gotomlHelperMade is the subtest gotomlBreakage breaks.
const gotomlHelperMade = "TestMarshal/simple_map_and_string/arrays-multiline=true/tables-inline=true/indent-tables=true"
