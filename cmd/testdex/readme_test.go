package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// maxReadmeLines bounds README.md: what testdex is, the two commands, one
// example per verb and the list of docs/ pages. Everything else belongs in
// a page of docs/.
const maxReadmeLines = 200

// TestReadmeLength fails when README.md grows past maxReadmeLines.
func TestReadmeLength(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(readme, []byte("\n")); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail into a page of docs/ and link it", n, maxReadmeLines)
	}
}

// TestDocLinks checks every relative link of README.md and docs/*.md: the
// file it names exists, and a #fragment into a markdown file names one of
// its headings as GitHub anchors them.
func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../../README.md")
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links(string(data)) {
			if msg := checkLink(page, l.target); msg != "" {
				rel, _ := filepath.Rel("../..", page)
				t.Errorf("%s:%d: link %q: %s", filepath.ToSlash(rel), l.line, l.target, msg)
			}
		}
	}
}

// A link is a markdown link's target and the line it is on.
type link struct {
	target string
	line   int
}

var (
	linkRE = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	codeRE = regexp.MustCompile("`[^`]*`")
)

// links returns the targets of the inline links of a markdown text,
// outside fenced code blocks and code spans.
func links(md string) []link {
	var out []link
	fenced := false
	for i, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(line, ""), -1) {
			out = append(out, link{target: m[1], line: i + 1})
		}
	}
	return out
}

// checkLink returns why the target of a link on page is broken, or "".
// Links with a scheme (https:, mailto:) are not checked.
func checkLink(page, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, frag, _ := strings.Cut(target, "#")
	path := page
	if file != "" {
		if filepath.IsAbs(file) {
			return "an absolute path: link relative to the page"
		}
		path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
		if _, err := os.Stat(path); err != nil {
			return "no such file"
		}
	}
	if frag == "" || !strings.HasSuffix(path, ".md") {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if !anchors(string(data))[frag] {
		return "no heading with that anchor"
	}
	return ""
}

// anchors returns the anchors GitHub gives a markdown text's headings:
// lowercased, spaces to hyphens, punctuation but '-' and '_' dropped, and
// a repeated anchor suffixed -1, -2, ...
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		title, ok := strings.CutPrefix(line, "#")
		if fenced || !ok {
			continue
		}
		title = strings.TrimLeft(title, "#")
		if !strings.HasPrefix(title, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(title)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		for n, base := 1, a; out[a]; n++ {
			a = base + "-" + strconv.Itoa(n)
		}
		out[a] = true
	}
	return out
}
