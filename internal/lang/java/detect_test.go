package java_test

import (
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/java"
)

// fakeEnv serves manifest contents from a map.
func fakeEnv(files map[string]string) *lang.DetectEnv {
	return &lang.DetectEnv{Root: "/r", ReadFile: func(abs string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(abs)]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}}
}

func TestDetect(t *testing.T) {
	env := fakeEnv(map[string]string{
		"/r/pom.xml":         `<project><parent><groupId>g</groupId></parent><artifactId>a</artifactId><build><testSourceDirectory>${project.basedir}/tests</testSourceDirectory></build></project>`,
		"/r/prop/pom.xml":    `<project><groupId>g</groupId><artifactId>p</artifactId><build><testSourceDirectory>${tests.dir}</testSourceDirectory></build></project>`,
		"/r/bad/pom.xml":     `<project><artifactId>`,
		"/r/gr/build.gradle": `dependencies { testImplementation 'org.junit.jupiter:junit-jupiter:5.10.2' }`,
	})
	cases := []struct {
		dir, manifest, name string
		match, nomatch      []string
		problems            int
		lister              bool
	}{
		{"/r", "pom.xml", "g:a", []string{"tests/a/BTest.java", "tests/a/Base.java"}, []string{"src/test/java/a/BTest.java", "tests/module-info.java", "tests/a/B.kt"}, 0, true},
		{"/r/prop", "pom.xml", "g:p", []string{"src/test/java/XTest.java"}, []string{"tests/XTest.java"}, 0, true},
		{"/r/bad", "pom.xml", "", []string{"src/test/java/XTest.java"}, nil, 1, true},
		{"/r/gr", "build.gradle", "", []string{"src/test/java/a/Anything.java"}, []string{"src/main/java/a/ATest.java"}, 0, false},
	}
	for _, c := range cases {
		p, probs := java.Detector.Detect(env, c.dir, []string{c.manifest})
		if len(probs) != c.problems {
			t.Errorf("%s: problems %v, want %d", c.dir, probs, c.problems)
		}
		if p == nil || p.Name != c.name || p.Manifest != c.manifest {
			t.Fatalf("%s: project %+v, want name %q", c.dir, p, c.name)
		}
		s := p.Frameworks[0]
		if s.Framework != testdex.JUnit || (s.Lister != nil) != c.lister {
			t.Errorf("%s: setup %+v", c.dir, s)
		}
		for _, m := range c.match {
			if !s.Match(m) {
				t.Errorf("%s: Match(%q) = false", c.dir, m)
			}
		}
		for _, m := range c.nomatch {
			if s.Match(m) {
				t.Errorf("%s: Match(%q) = true", c.dir, m)
			}
		}
	}
}

// TestClassFilter checks Surefire's name rules against Gradle's scan-all
// on one file: Maven lists only the Test-named top-level class, Gradle
// every concrete class with tests, static nested ones included.
func TestClassFilter(t *testing.T) {
	src := []byte(`package p;
import org.junit.jupiter.api.Test;
class Helper { @Test void h() {} static class Inner { @Test void i() {} } }
class HelperTest { @Test void t() {} }
`)
	for filter, want := range map[string][]string{
		"surefire": {"HelperTest", "HelperTest.t()"},
		"all":      {"Helper", "Helper.h()", "Helper$Inner", "Helper$Inner.i()", "HelperTest", "HelperTest.t()"},
	} {
		res := java.Extractor{}.Extract(&lang.File{Rel: "p/Helper.java", Data: src, Settings: lang.Settings{java.SettingClassFilter: {filter}}})
		var got []string
		for _, r := range res.Tests {
			got = append(got, r.Key())
		}
		if len(got) != len(want) {
			t.Errorf("%s: got %v, want %v", filter, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: got %v, want %v", filter, got, want)
				break
			}
		}
	}
}

// TestBadInput checks the problems of broken files.
func TestBadInput(t *testing.T) {
	cases := map[string]struct {
		src   string
		line  int
		tests int
	}{
		"unfinished": {"package p;\nclass ATest {\n  @Test void a() {}\n  @Test void b( {\n", 4, 2},
		"binary":     {"class ATest {}\x00\x01", 1, 0},
		"utf8":       {"class ATest {\n @Test void a() {} // \xff\n}\n", 2, 2},
	}
	for name, c := range cases {
		res := java.Extractor{}.Extract(&lang.File{Rel: "ATest.java", Data: []byte(c.src)})
		if len(res.Problems) == 0 || res.Problems[0].Severity != testdex.SevError || res.Problems[0].Line != c.line {
			t.Errorf("%s: problems %v, want an error at line %d", name, res.Problems, c.line)
		}
		if len(res.Tests) < c.tests {
			t.Errorf("%s: %d records, want at least %d", name, len(res.Tests), c.tests)
		}
	}
}
