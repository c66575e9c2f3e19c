package golang

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseHead: reading only a file's head gives the same imports as the
// whole file wherever the head ends: inside the import block, right after
// it, inside the first declaration's keyword, in a comment after it.
func TestParseHead(t *testing.T) {
	dir := t.TempDir()
	var imports []string
	var block strings.Builder
	block.WriteString("import (\n")
	for i := 0; i < 40; i++ {
		ip := fmt.Sprintf("example.com/m/pkg%02d", i)
		imports = append(imports, ip)
		fmt.Fprintf(&block, "\t%q // a comment long enough to matter\n", ip)
	}
	block.WriteString(")\n\nimport \"example.com/m/last\"\n")
	imports = append(imports, "example.com/m/last")
	tail := "/* a comment */ func F() {}\n" + strings.Repeat("// filler\n", 600)
	base := "package p\n\n" + block.String()
	// Slide the end of the imports across the head's end.
	for pad := headSize - len(base) - 40; pad < headSize-len(base)+40; pad++ {
		if pad < 0 {
			continue
		}
		src := "// " + strings.Repeat("x", pad) + "\n" + base + tail
		abs := filepath.Join(dir, "p.go")
		if err := os.WriteFile(abs, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		var g goFile
		g.parse(token.NewFileSet(), os.ReadFile, abs, buildFilter{})
		if g.err != nil || !slices.Equal(g.imports, imports) {
			t.Fatalf("pad %d: err %v, %d imports, want %d", pad, g.err, len(g.imports), len(imports))
		}
	}
}

// TestEmbedPatterns: the patterns of //go:embed lines, quoted or not.
func TestEmbedPatterns(t *testing.T) {
	src := "package p\n\nimport _ \"embed\"\n\n//go:embed a.txt \"b c.txt\" `d/*.html`\nvar x string\n\n// go:embed not.txt\n//go:embedded no.txt\n\t//go:embed all:static \"e\\\"q.txt\"\n"
	got := embedPatterns([]byte(src))
	want := []string{"a.txt", "b c.txt", "d/*.html", "all:static", "e\"q.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestBuildFilter: a file counts when some platform builds it with the
// configured tags.
func TestBuildFilter(t *testing.T) {
	for _, c := range []struct {
		header string
		tags   []string
		want   bool
	}{
		{"", nil, true},
		{"//go:build linux && !cgo", nil, true},
		{"//go:build windows && arm64 && go1.99", nil, true},
		{"//go:build ignore", nil, false},
		{"//go:build ignore", []string{"ignore"}, true},
		{"//go:build purego || (amd64 && !purego)", nil, true},
		{"//go:build purego", nil, false},
		{"//go:build linux && !linux", nil, false},
		{"// +build ignore", nil, false},
	} {
		bf := buildFilter{tags: map[string]bool{}}
		for _, tag := range c.tags {
			bf.tags[tag] = true
		}
		if got := bf.keep([]byte(c.header + "\n\npackage p\n")); got != c.want {
			t.Errorf("%q with tags %v: got %v, want %v", c.header, c.tags, got, c.want)
		}
	}
}
