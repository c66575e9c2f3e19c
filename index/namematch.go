package index

import (
	"fmt"
	"regexp"
	"strings"
)

// nameMatcher selects names the way `go test -run` does, for every
// framework: the pattern is split at unbracketed, unparenthesized "/" into
// one regular expression per level, and at top-level "|" into
// alternatives; a name is selected when each of its levels matches the
// expression of its level. A record's levels are its "/"-separated name
// (a Go test's), or the labels of its lineage as the tree view shows them
// (a pytest test, then its row; a describe, then its test), so that a
// name holding a path ("tests/test_m.py::test_rows") is matched by what a
// user sees of it. Levels beyond the pattern are
// unconstrained (TestX selects all of TestX's subtests), and a name with
// fewer levels than the pattern is selected too, as go test runs a parent
// to reach a matching child.
type nameMatcher [][]*regexp.Regexp

func compileNameMatcher(pattern string) (nameMatcher, error) {
	var m nameMatcher
	for _, alt := range splitPattern(pattern) {
		var levels []*regexp.Regexp
		for _, l := range alt {
			re, err := regexp.Compile(l)
			if err != nil {
				return nil, fmt.Errorf("bad name pattern %q: %w", pattern, err)
			}
			levels = append(levels, re)
		}
		m = append(m, levels)
	}
	return m, nil
}

// matchName matches a name split at "/" (a Go test's name is its levels).
func (m nameMatcher) matchName(name string) bool { return m.match(strings.Split(name, "/")) }

// match matches a name's levels.
func (m nameMatcher) match(elems []string) bool {
	for _, alt := range m {
		ok := true
		for i, e := range elems {
			if i >= len(alt) {
				break
			}
			if !alt[i].MatchString(e) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// splitPattern is testing's splitRegexp: alternatives of levels.
func splitPattern(s string) [][]string {
	var alts [][]string
	var levels []string
	brackets, parens := 0, 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '[':
			brackets++
		case ']':
			if brackets--; brackets < 0 { // an unmatched ']' is legal
				brackets = 0
			}
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/', '|':
			if brackets == 0 && parens == 0 {
				levels = append(levels, s[:i])
				if s[i] == '|' {
					alts = append(alts, levels)
					levels = nil
				}
				s = s[i+1:]
				i = 0
				continue
			}
		}
		i++
	}
	return append(alts, append(levels, s))
}
