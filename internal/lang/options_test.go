package lang

import (
	"strings"
	"testing"
)

// TestGlobs: testdex.toml's patterns replace the defaults, the extra
// ignores add to them, and a bad pattern is a Problem naming the table.
func TestGlobs(t *testing.T) {
	def, defIg := []string{"**/*.spec.md"}, []string{"vendor/**"}
	match, pats, p := FrameworkOptions{}.Globs("semtest", def, defIg, "out")
	if p != nil || strings.Join(pats, ",") != "**/*.spec.md" {
		t.Fatalf("defaults: patterns %v, problem %v", pats, p)
	}
	for rel, want := range map[string]bool{"a/x.spec.md": true, "vendor/x.spec.md": false, "out/x.spec.md": false, "x.md": false} {
		if match(rel) != want {
			t.Errorf("defaults: match(%q) = %v", rel, !want)
		}
	}
	match, _, p = FrameworkOptions{TestMatch: []string{"**/*.md"}, TestPathIgnorePatterns: []string{}}.Globs("semtest", def, defIg)
	if p != nil || !match("vendor/x.md") {
		t.Errorf("set patterns: vendor/x.md not matched (problem %v)", p)
	}
	if _, _, p = (FrameworkOptions{TestMatch: []string{"[x"}}).Globs("semtest", def, defIg); p == nil || !strings.Contains(p.Message, "[semtest] testMatch") {
		t.Errorf("bad testMatch: problem %v", p)
	}
	if _, _, p = (FrameworkOptions{TestPathIgnorePatterns: []string{"[x"}}).Globs("skilltest", def, defIg); p == nil || !strings.Contains(p.Message, "[skilltest] testPathIgnorePatterns") {
		t.Errorf("bad ignore: problem %v", p)
	}
}
