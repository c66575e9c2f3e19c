package ignore

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
)

// kind selects how a rule is matched; the first four are fast paths that
// give the same answer as wildmatch on their patterns.
type kind uint8

const (
	baseLiteral kind = iota // no slash, no wildcard: compare the base name
	baseSuffix              // "*literal": compare the end of the base name
	baseGlob                // no slash: wildmatch on the base name
	pathLiteral             // a slash, no wildcard: compare the relative path
	pathGlob                // a slash: wildmatch on the relative path
)

// Rule is one pattern line of an ignore file. Rules are immutable once
// parsed and safe to share between goroutines.
type Rule struct {
	Source  string // the file it came from, root-relative: "a/.gitignore", ".git/info/exclude"
	Line    int    // 1-based line number in Source
	Text    string // the line as written, minus the trailing spaces git trims
	Negate  bool   // a leading '!': a match re-includes the path
	DirOnly bool   // a trailing '/': only folders match

	pat    string // the pattern proper: no '!', no trailing '/', no leading '/'
	kind   kind
	prefix int // length of the literal start of pat (pathGlob only)
}

// String formats the rule as SOURCE:LINE: TEXT, the form `git check-ignore
// -v` uses and the answer to "why was this skipped?".
func (r *Rule) String() string {
	return r.Source + ":" + strconv.Itoa(r.Line) + ": " + r.Text
}

// Parse reads the content of the ignore file source (its root-relative
// path, recorded on each rule) with the syntax of gitignore(5). Blank lines
// and comments give no rule. A line whose pattern can never match anything
// (an unterminated '[' class, an unknown [:name:], a trailing '\', an empty
// pattern such as "!") gives no rule and a warning Problem instead: git
// accepts such lines silently and they match nothing, so skipping them keeps
// the same answers. Parse never fails.
func Parse(source string, data []byte) ([]Rule, []testdex.Problem) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var rules []Rule
	var problems []testdex.Problem
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte{'\n'})
		r, msg := parseLine(string(line))
		if msg != "" {
			problems = append(problems, testdex.Problem{
				Severity: testdex.SevWarning, Path: source, Line: n,
				Message: msg + " in ignore pattern " + strconv.Quote(r.Text) + "; line skipped",
			})
			continue
		}
		if r.Text != "" {
			r.Source, r.Line = source, n
			rules = append(rules, r)
		}
	}
	return rules, problems
}

// parseLine parses one line. A zero Text means the line holds no rule; a
// non-empty msg says why the line is unusable.
func parseLine(line string) (Rule, string) {
	if line == "" || line[0] == '#' {
		return Rule{}, ""
	}
	line = strings.TrimSuffix(line, "\r")
	if i := strings.IndexByte(line, 0); i >= 0 {
		line = line[:i] // git holds patterns as C strings
	}
	line = trimTrailingSpaces(line)
	if line == "" {
		return Rule{}, ""
	}
	r := Rule{Text: line}
	p := line
	if p[0] == '!' {
		r.Negate, p = true, p[1:]
	}
	if strings.HasSuffix(p, "/") {
		r.DirOnly, p = true, p[:len(p)-1]
	}
	if !strings.Contains(p, "/") {
		r.pat, r.kind = p, baseGlob
		if n := literalLen(p); n == len(p) {
			r.kind = baseLiteral
		} else if p[0] == '*' && literalLen(p[1:]) == len(p)-1 {
			r.kind = baseSuffix
		}
	} else {
		r.pat, r.kind = strings.TrimPrefix(p, "/"), pathGlob
		r.prefix = literalLen(r.pat)
		if r.prefix == len(r.pat) {
			r.kind = pathLiteral
		}
	}
	if r.pat == "" {
		return r, "empty pattern"
	}
	return r, check(r.pat)
}

// literalLen is the length of the start of p free of wildcards and escapes.
func literalLen(p string) int {
	for i := 0; i < len(p); i++ {
		if isGlobSpecial(p[i]) {
			return i
		}
	}
	return len(p)
}

// trimTrailingSpaces removes trailing spaces unless escaped by a backslash,
// as git does (tabs are kept).
func trimTrailingSpaces(s string) string {
	end := -1 // start of the current run of unescaped spaces
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if end < 0 {
				end = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			end = -1
		default:
			end = -1
		}
	}
	if end >= 0 {
		return s[:end]
	}
	return s
}

// check returns why pattern p can never match, or "" when it is usable.
func check(p string) string {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
			if i >= len(p) {
				return "trailing backslash"
			}
		case '[':
			end, r := class(p, i, 'x', false)
			if r == abortAll {
				return "unterminated or malformed [ ] class"
			}
			i = end
		}
	}
	return ""
}

// match reports whether the rule matches a path, given as sub, relative to
// the folder of the rule's file, and base, its last element.
func (r *Rule) match(sub, base string, isDir bool) bool {
	if r.DirOnly && !isDir {
		return false
	}
	switch r.kind {
	case baseLiteral:
		return base == r.pat
	case baseSuffix:
		return strings.HasSuffix(base, r.pat[1:])
	case baseGlob:
		return wildmatch(r.pat, base, false)
	case pathLiteral:
		return sub == r.pat
	}
	// Like git, match the literal start apart and the rest on its own: a
	// "**" just after it then counts as the start of a pattern ("a**/*"
	// matches "a").
	return len(sub) >= r.prefix && sub[:r.prefix] == r.pat[:r.prefix] &&
		wildmatch(r.pat[r.prefix:], sub[r.prefix:], true)
}
