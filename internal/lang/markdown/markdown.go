// Package markdown extracts markdown spec tests (the semtest convention):
// every *.spec.md or *.test.md file is a test whose content is a prose
// specification, with optional YAML frontmatter carrying tags, a timeout,
// the model to use and a permissions hint. A heading with an ID ("# Title
// - id: slug") starts a scenario, which is a test of its own under the
// file (FILE::slug); a file without one is a single test. The Runner
// (runner.go) has an agent CLI judge them (package specs).
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
const version = "markdown/5"

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

// Extract returns the spec record of a file, Name the file name, and one
// record under it per scenario (Name FILE-NAME::ID, ID FILE::ID); the
// frontmatter fills Tags (the scenarios' too) and Spec. Broken
// frontmatter and semtest's validation findings (a duplicate or missing
// scenario ID) yield warnings, never a missing test; a binary file or
// invalid UTF-8 is an error Problem and no test.
func (Extractor) Extract(f *lang.File) lang.Result {
	if p := checkText(f.Data); p != "" {
		return lang.Result{Problems: []testdex.Problem{{Severity: testdex.SevError, Message: p}}}
	}
	fm, doc := Read(f.Data)
	base := path.Base(f.Rel)
	t := lang.Test{Kind: testdex.KindSpec, Name: base, WholeFile: true, Scope: group(f.Rel), Line: 1, Tags: fm.Tags}
	if fm.Timeout != "" || fm.LLM != "" || fm.SkipPermissionsIfPossible != nil {
		t.Spec = &testdex.SpecMeta{Timeout: fm.Timeout, LLM: fm.LLM, SkipPermissionsIfPossible: fm.SkipPermissionsIfPossible}
	}
	res := lang.Result{Tests: []lang.Test{t}}
	for _, s := range doc.Scenarios {
		res.Tests = append(res.Tests, lang.Test{Kind: testdex.KindSpec, Name: ScenarioName(base, s.ID), Local: s.ID, Parent: base,
			Scope: t.Scope, Line: s.Line, Tags: fm.Tags, Spec: t.Spec})
	}
	for _, p := range doc.Issues {
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevWarning, Line: p.Line, Message: p.Msg})
	}
	return res
}

// ScenarioName is a scenario's Name in the runner's terms: the file's
// name, "::" and the scenario's ID (unique in the file's folder, the
// scope, as the Namer needs).
func ScenarioName(file, id string) string { return file + testdex.IDSep + id }

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
