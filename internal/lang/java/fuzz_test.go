package java

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// FuzzExtract feeds the extractor arbitrary bytes: truncated fixture files,
// binary data, invalid UTF-8. It must never panic, and what it returns must
// be well formed: problems without a path, records with a name and a
// class scope, keys unique, parents declared before their children.
func FuzzExtract(f *testing.F) {
	files, _ := filepath.Glob("../../../testdata/shapes/junit/src/test/java/com/example/*/*.java")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data, false)
			f.Add(data[:len(data)/2], true)
		}
	}
	f.Add([]byte("class A { @Test void t( }"), false)
	f.Add([]byte("@Nested class A { @Nested class B { @ParameterizedTest @CsvSource(textBlock = \"\"\"\na\n#b\nc\n\"\"\") void t(int... x) {} } }"), true)
	f.Add([]byte("class \xff\xfeTest { @RepeatedTest(99999) void r() {} }"), false)
	f.Fuzz(func(t *testing.T, data []byte, all bool) {
		settings := lang.Settings{}
		if all {
			settings[SettingClassFilter] = []string{"all"}
		}
		res := Extractor{}.Extract(&lang.File{Rel: "A.java", Data: data, Framework: testdex.JUnit, Settings: settings})
		for _, p := range res.Problems {
			if p.Path != "" || p.Message == "" {
				t.Fatalf("bad problem %+v", p)
			}
		}
		keys := map[string]bool{}
		for _, r := range res.Tests {
			if r.Name == "" || r.Line <= 0 || (r.Parent != "" && !keys[r.Parent]) {
				t.Fatalf("bad record %+v (keys so far %v)", r, keys)
			}
			if r.Kind != testdex.KindSuite && !strings.HasSuffix(r.Scope, lastSegment(strings.SplitN(r.Key(), ".", 2)[0])) {
				t.Fatalf("scope %q does not name the class of %q", r.Scope, r.Key())
			}
			keys[r.Key()] = true
		}
		if utf8.Valid(data) && !strings.Contains(string(data), "\x00") {
			for _, r := range res.Tests {
				if !utf8.ValidString(r.Name) {
					t.Fatalf("invalid UTF-8 name %q from valid input", r.Name)
				}
			}
		}
	})
}
