package java_test

import (
	"testing"

	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/impacttest"
)

// TestInheritedParameterizedRows: a JUnit 4 Parameterized class runs the
// @Test methods it inherits once per row too (maven-resolver's
// BfDependencyCollectorTest): each inherited method gets the dynamic row
// record a method declared in the class gets.
func TestInheritedParameterizedRows(t *testing.T) {
	files := map[string]string{
		"pom.xml": `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version>
<dependencies><dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency></dependencies></project>`,
		"src/test/java/p/BaseSupport.java": "package p;\nimport org.junit.Test;\npublic abstract class BaseSupport {\n    @Test\n    public void testShared() {}\n}\n",
		"src/test/java/p/RowsTest.java": "package p;\nimport java.util.*;\nimport org.junit.runner.RunWith;\nimport org.junit.runners.Parameterized;\n" +
			"@RunWith(Parameterized.class)\npublic class RowsTest extends BaseSupport {\n    @Parameterized.Parameters\n    public static Collection<Object[]> data() { return Arrays.asList(new Object[][]{{1}, {2}}); }\n" +
			"    public RowsTest(int x) {}\n    @Test\n    public void testOwn() {}\n}\n",
	}
	dir := impacttest.WriteTree(t, files)
	ix, err := index.Build(t.Context(), index.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	dynamicUnder := map[string]bool{}
	for _, r := range ix.Tests {
		if r.Dynamic && r.Scope == "p.RowsTest" {
			dynamicUnder[r.Parent] = true
		}
	}
	var parents []string
	for p := range dynamicUnder {
		parents = append(parents, p)
	}
	if len(dynamicUnder) != 2 {
		t.Errorf("dynamic row records under %v, want one under testOwn() and one under the inherited testShared()", parents)
	}
}
