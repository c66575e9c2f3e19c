package markdown

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"
)

// Frontmatter is the YAML header of a spec file. Absent fields keep their
// zero values; Tags is never nil after Split.
type Frontmatter struct {
	Tags                      []string
	Timeout                   string // the scalar as written: "30", "2m"
	LLM                       string
	SkipPermissionsIfPossible *bool
	// Paths are the globs of the files the spec is about, as written (a
	// list or a comma-separated string): `testdex affected` selects the
	// spec when a matching file changes (see Grapher for how they are
	// read). nil when absent; PathsInvalid is true when the field is
	// present but unusable (not YAML, not a list or string, a bad glob),
	// and the spec is then selected by any change.
	Paths        []string
	PathsInvalid bool
}

// Issue is a problem found in a spec's frontmatter: a 1-based line and a
// sentence without a path.
type Issue struct {
	Line int
	Msg  string
}

// Split separates a leading "---" frontmatter block from the body. It
// returns the frontmatter, the body (content without frontmatter) and the
// issues found. A file without
// frontmatter returns its whole content as body. The parse is lenient: a
// YAML syntax error or a field of the wrong type costs only the fields it
// touches, never the file.
func Split(raw []byte) (Frontmatter, []byte, []Issue) {
	fm := Frontmatter{Tags: []string{}}
	block, body, ok, line := cut(raw)
	if !ok {
		if line > 0 {
			return fm, raw, []Issue{{1, "frontmatter opened here is never closed with ---; read as content"}}
		}
		return fm, raw, nil
	}
	var problems []Issue
	for _, field := range fields(block) {
		problems = append(problems, fm.set(field)...)
	}
	return fm, body, problems
}

// cut finds the frontmatter block. ok is false when there is none; line is 1
// when an opening delimiter was seen without a closing one.
func cut(raw []byte) (block, body []byte, ok bool, line int) {
	s := bytes.TrimPrefix(raw, []byte("\ufeff"))
	first, rest, found := bytes.Cut(s, []byte("\n"))
	if !found || string(bytes.TrimRight(first, " \t\r")) != "---" {
		return nil, raw, false, 0
	}
	off := 0
	for off <= len(rest) {
		end := bytes.IndexByte(rest[off:], '\n')
		var ln []byte
		next := len(rest) + 1
		if end < 0 {
			ln = rest[off:]
		} else {
			ln = rest[off : off+end]
			next = off + end + 1
		}
		if t := string(bytes.TrimRight(ln, " \t\r")); t == "---" || t == "..." {
			if next > len(rest) {
				return rest[:off], nil, true, 0
			}
			return rest[:off], rest[next:], true, 0
		}
		off = next
	}
	return nil, raw, false, 1
}

// field is one top-level key of the frontmatter with its YAML source.
type field struct {
	key  string
	src  []byte // "key: value" plus its indented continuation lines
	line int    // 1-based line in the file
}

// fields splits the block at top-level keys so that each is decoded on its
// own: a syntax error in one field cannot hide the others.
func fields(block []byte) []field {
	var out []field
	lines := bytes.SplitAfter(block, []byte("\n"))
	for i, ln := range lines {
		if len(ln) == 0 {
			continue
		}
		c := ln[0]
		top := c != ' ' && c != '\t' && c != '#' && c != '-' && c != '\n' && c != '\r'
		if top {
			key, _, _ := strings.Cut(string(ln), ":")
			out = append(out, field{key: strings.TrimSpace(key), src: append([]byte(nil), ln...), line: i + 2})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].src = append(out[len(out)-1].src, ln...)
		}
	}
	return out
}

// set decodes one field into fm.
func (fm *Frontmatter) set(f field) []Issue {
	var doc map[string]yaml.Node
	if err := yaml.Unmarshal(f.src, &doc); err != nil {
		then := "ignored"
		if f.key == "paths" {
			fm.PathsInvalid = true
			then = "any change selects this spec until it is fixed"
		}
		return []Issue{{f.line, fmt.Sprintf("frontmatter field %q is not valid YAML (%s); %s", f.key, yamlReason(err), then)}}
	}
	for key, n := range doc {
		if p := fm.setNode(key, &n); p != "" {
			return []Issue{{f.line, p}}
		}
	}
	return nil
}

func (fm *Frontmatter) setNode(key string, n *yaml.Node) string {
	switch key {
	case "tags":
		tags, ok := tagList(n)
		if !ok {
			return "frontmatter tags must be a list or a comma-separated string; ignored"
		}
		fm.Tags = tags
	case "timeout":
		if n.Kind != yaml.ScalarNode {
			return "frontmatter timeout must be a number or a duration; ignored"
		}
		fm.Timeout = n.Value
	case "llm":
		if n.Kind != yaml.ScalarNode {
			return "frontmatter llm must be a string; ignored"
		}
		fm.LLM = n.Value
	case "paths":
		paths, ok := tagList(n)
		if !ok {
			fm.PathsInvalid = true
			return "frontmatter paths must be a list or a comma-separated string of globs; any change selects this spec until it is fixed"
		}
		fm.Paths = paths
		for _, p := range paths {
			if !doublestar.ValidatePattern(p) {
				fm.PathsInvalid = true
				return fmt.Sprintf("frontmatter paths: bad glob pattern %q; any change selects this spec until it is fixed", p)
			}
		}
	case "skipPermissionsIfPossible":
		b, err := strconv.ParseBool(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			return "frontmatter skipPermissionsIfPossible must be true or false; ignored"
		}
		fm.SkipPermissionsIfPossible = &b
	}
	return ""
}

// tagList accepts `tags: [a, b]`, a block list, or `tags: "a, b"` (and
// the same shapes of paths).
func tagList(n *yaml.Node) ([]string, bool) {
	tags := []string{}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return tags, true
		}
		for _, t := range strings.Split(n.Value, ",") {
			if t = strings.TrimSpace(t); t != "" {
				tags = append(tags, t)
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, false
			}
			if t := strings.TrimSpace(c.Value); t != "" {
				tags = append(tags, t)
			}
		}
	default:
		return nil, false
	}
	return tags, true
}

func yamlReason(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "yaml: ")
	if rest, ok := strings.CutPrefix(s, "line "); ok { // relative to the field; the Issue has the line
		if _, after, found := strings.Cut(rest, ": "); found {
			s = after
		}
	}
	if i := strings.Index(s, "\n"); i >= 0 {
		s = s[:i]
	}
	return s
}
