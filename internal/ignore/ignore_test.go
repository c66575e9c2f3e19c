package ignore

import (
	"strings"
	"testing"
)

// TestMatch checks hand-picked cases, each a gitignore file, a path and the
// expected deciding line (0 for none) and verdict.
func TestMatch(t *testing.T) {
	tests := []struct {
		ignore  string
		path    string
		isDir   bool
		line    int
		ignored bool
	}{
		{"*.log", "a/b/c.log", false, 1, true},
		{"*.log\n!keep.log", "keep.log", false, 2, false},
		{"!keep.log\n*.log", "keep.log", false, 2, true}, // later lines win
		{"# c.log", "# c.log", false, 0, false},
		{"\\#c.log", "#c.log", false, 1, true},
		{"\\!x", "!x", false, 1, true},
		{"x  ", "x", false, 1, true},
		{"x\\ ", "x ", false, 1, true},
		{"x\\ ", "x", false, 0, false},
		{"build/", "build", false, 0, false},
		{"build/", "a/build", true, 1, true},
		{"/build", "a/build", true, 0, false},
		{"/build", "build", true, 1, true},
		{"a/b", "x/a/b", false, 0, false}, // a middle slash anchors
		{"a/b", "a/b", false, 1, true},
		{"a/*.go", "a/b/c.go", false, 0, false},
		{"**/foo", "x/y/foo", false, 1, true},
		{"foo/**", "foo", true, 0, false},
		{"foo/**", "foo/x/y", false, 1, true},
		{"a/**/b", "a/b", false, 1, true},
		{"a/**/b", "a/x/y/b", false, 1, true},
		{"a**/*", "a", false, 1, true}, // git matches the literal start apart
		{"f?o", "fxo", false, 1, true},
		{"f?o", "f/o", false, 0, false},
		{"[a-c]x", "bx", false, 1, true},
		{"[!a-c]x", "bx", false, 0, false},
		{"[^a-c]x", "dx", false, 1, true},
		{"[]]", "]", false, 1, true},
		{"[[:digit:]]*", "9lives", false, 1, true},
		{"[ab", "[ab", false, 0, false}, // malformed: skipped
		{"*", "anything", false, 1, true},
		{"\r\n*.tmp\r", "x.tmp", false, 2, true},
		{"\xef\xbb\xbf*.tmp", "x.tmp", false, 1, true},
	}
	for _, tt := range tests {
		rules, _ := Parse(".gitignore", []byte(tt.ignore))
		d := New("", nil, rules).Match(tt.path, tt.isDir)
		line := 0
		if d.Rule != nil {
			line = d.Rule.Line
		}
		if line != tt.line || d.Ignored() != tt.ignored {
			t.Errorf("%q on %q (dir %v): line %d ignored %v, want line %d ignored %v",
				tt.ignore, tt.path, tt.isDir, line, d.Ignored(), tt.line, tt.ignored)
		}
	}
}

// TestPrecedence checks that deeper files win and info/exclude comes last.
func TestPrecedence(t *testing.T) {
	parse := func(src, text string) []Rule { r, _ := Parse(src, []byte(text)); return r }
	root := New("", parse(".git/info/exclude", "*.txt\n*.md"), parse(".gitignore", "*.log\n!*.md"))
	sub := root.Child("sub", parse("sub/.gitignore", "!*.log"))
	for _, tt := range []struct{ path, want string }{
		{"sub/x.log", "sub/.gitignore:1: !*.log"},
		{"x.log", ".gitignore:1: *.log"},
		{"sub/x.txt", ".git/info/exclude:1: *.txt"},
		{"x.md", ".gitignore:2: !*.md"},
	} {
		if got := sub.Match(tt.path, false).Rule.String(); got != tt.want {
			t.Errorf("%s: decided by %q, want %q", tt.path, got, tt.want)
		}
	}
	if sub.Match("other/x.log", false).Rule.Source != ".gitignore" {
		t.Errorf("sub/.gitignore applied outside sub")
	}
	var none *Matcher
	if none.Match("x", false).Ignored() {
		t.Errorf("nil matcher ignored a path")
	}
}

// TestParseProblems checks that unusable lines are reported with their line.
func TestParseProblems(t *testing.T) {
	rules, probs := Parse("a/.gitignore", []byte("ok\n[ab\nx\\\n!\n[[:nope:]]\nfine"))
	if len(rules) != 2 {
		t.Errorf("got %d rules, want 2", len(rules))
	}
	var lines []int
	for _, p := range probs {
		lines = append(lines, p.Line)
		if p.Path != "a/.gitignore" || p.Message != strings.ToLower(p.Message[:1])+p.Message[1:] {
			t.Errorf("bad problem %v", p)
		}
	}
	if len(lines) != 4 || lines[0] != 2 || lines[3] != 5 {
		t.Errorf("problems on lines %v, want [2 3 4 5]: %v", lines, probs)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"*.log\n!a", "[a-", "\\", "a/**/b/", "[[:x", " \\ \r\n#"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, _ := Parse(".gitignore", data)
		m := New("", nil, rules)
		m.Match("a/b/c", false)
		m.Match("a", true)
	})
}

func FuzzMatch(f *testing.F) {
	f.Add("a/**/b", "a/x/b")
	f.Add("[!a-]*", "-x")
	f.Add("**/*.go", "x/y.go")
	f.Add("a*b*c", "aXbYbc")
	f.Fuzz(func(t *testing.T, pattern, path string) {
		wildmatch(pattern, path, true)
		wildmatch(pattern, path, false)
		rules, _ := Parse(".gitignore", []byte(pattern))
		New("", nil, rules).Match(path, false)
	})
}

// BenchmarkMatch matches a realistic rule set against a mix of paths.
func BenchmarkMatch(b *testing.B) {
	root, _ := Parse(".gitignore", []byte("*.log\n/build/\nnode_modules/\n*.tmp\n!important.log\ndocs/**/*.pdf\n.env*\ncoverage/\n*.py[cod]\n__pycache__/"))
	sub, _ := Parse("src/.gitignore", []byte("generated/\n*_gen.go"))
	m := New("", nil, root).Child("src", sub)
	paths := []string{"src/main.go", "src/a/b/c_gen.go", "src/x.log", "src/important.log", "src/pkg/util.py", "src/pkg/util.pyc", "src/docs/a/b.pdf", "src/generated"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.Match(paths[i%len(paths)], i%len(paths) == 7)
	}
}
