// Package markdown extracts markdown spec tests (the semtest convention):
// every *.spec.md or *.test.md file is one test whose content is a prose
// specification, with optional YAML frontmatter carrying tags, a timeout,
// the model to use and a permissions hint.
package markdown

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// version is bumped whenever Extract's output changes for the same input.
const version = "markdown/4"

// Extractor is the semtest extractor. Its zero value is ready to use.
type Extractor struct{}

var _ lang.Extractor = Extractor{}

// Framework implements lang.Extractor.
func (Extractor) Framework() testdex.Framework { return testdex.Semtest }

// TestMatch returns semtest's default testMatch.
func (Extractor) TestMatch() []string { return []string{"**/*.spec.md", "**/*.test.md"} }

// TestPathIgnorePatterns returns semtest's default ignore list.
func (Extractor) TestPathIgnorePatterns() []string {
	return []string{"node_modules", "dist", ".git", "vendor"}
}

// CacheKey implements lang.Extractor.
func (Extractor) CacheKey() string { return version }

// IsTestFile reports whether a file name follows the spec convention.
func IsTestFile(name string) bool {
	return strings.HasSuffix(name, ".spec.md") || strings.HasSuffix(name, ".test.md")
}

// Extract returns the one spec record of a file: Name is the file name and
// the frontmatter fills Tags and Spec. Broken frontmatter yields warnings,
// never a missing test; a binary file or invalid UTF-8 is an error Problem
// and no test.
func (Extractor) Extract(f *lang.File) lang.Result {
	if p := checkText(f.Data); p != "" {
		return lang.Result{Problems: []testdex.Problem{{Severity: testdex.SevError, Message: p}}}
	}
	fm, _, probs := Split(f.Data)
	t := lang.Test{Kind: testdex.KindSpec, Name: path.Base(f.Rel), WholeFile: true, Scope: group(f.Rel), Line: 1, Tags: fm.Tags}
	if fm.Timeout != "" || fm.LLM != "" || fm.SkipPermissionsIfPossible != nil {
		t.Spec = &testdex.SpecMeta{Timeout: fm.Timeout, LLM: fm.LLM, SkipPermissionsIfPossible: fm.SkipPermissionsIfPossible}
	}
	res := lang.Result{Tests: []lang.Test{t}}
	for _, p := range probs {
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevWarning, Line: p.Line, Message: p.Msg})
	}
	return res
}

// checkText rejects content that is not a text file.
func checkText(data []byte) string {
	head := data
	if len(head) > 8000 {
		head = head[:8000]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "binary file (contains NUL bytes); not a markdown spec"
	}
	if !utf8.Valid(data) {
		return "invalid UTF-8; not a markdown spec"
	}
	return ""
}

// Spec is a markdown spec test with its content, as semtest's pipeline
// consumes it. Group is the folder relative to the root ("" at the root).
type Spec struct {
	Name        string
	FilePath    string // absolute
	Content     string // without frontmatter
	RawContent  string // as on disk
	Frontmatter Frontmatter
	Tags        []string
	Group       string
}

// Load reads one spec file. root is the folder groups are relative to; the
// returned issues describe broken frontmatter.
func Load(root, file string) (*Spec, []Issue, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("read spec: %w", err)
	}
	if p := checkText(raw); p != "" {
		return nil, nil, fmt.Errorf("%s: %s", file, p)
	}
	fm, body, probs := Split(raw)
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, nil, fmt.Errorf("read spec: %w", err)
	}
	return &Spec{
		Name:        filepath.Base(abs),
		FilePath:    abs,
		Content:     string(body),
		RawContent:  string(raw),
		Frontmatter: fm,
		Tags:        fm.Tags,
		Group:       Group(root, abs),
	}, probs, nil
}

// group is the folder of a root-relative path, "" at the root.
func group(rel string) string {
	if d := path.Dir(rel); d != "." {
		return d
	}
	return ""
}

// Group returns the folder of file relative to root, slash-separated, ""
// for a file at the root or outside it.
func Group(root, file string) string {
	rel, err := filepath.Rel(root, filepath.Dir(file))
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel)
}
