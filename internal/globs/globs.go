// Package globs matches root-relative, slash-separated paths against
// testMatch and testPathIgnorePatterns lists, in the vocabulary of semtest
// and Jest, with doublestar syntax.
package globs

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// A Set is a compiled list of testMatch or testPathIgnorePatterns
// patterns. The zero Set and a nil *Set match nothing. Matching runs once per walked file and framework, so the common
// shapes get fast paths and only the rest go through doublestar (about
// 1 µs a pattern):
//
//	**/*_test.go     suffix of the path
//	node_modules     any path component equal to it (no "/" in the pattern)
//	**/testdata/**   any folder component equal to it
type Set struct {
	suffixes   []string // **/*LIT
	components []string // NAME, **/NAME/**, **/NAME
	compGlobs  []string // a "/"-free pattern with metacharacters: any component
	globs      []string // everything else, against the whole path
}

// Compile validates and compiles include patterns (testMatch).
func Compile(patterns []string) (*Set, error) { return compile(patterns, false) }

// CompileIgnore compiles exclude patterns (testPathIgnorePatterns): a
// pattern also excludes everything below a matching folder, and a pattern
// without "/" matches any path component of that name.
func CompileIgnore(patterns []string) (*Set, error) { return compile(patterns, true) }

func compile(patterns []string, ignore bool) (*Set, error) {
	g := &Set{}
	for _, p := range patterns {
		if !doublestar.ValidatePattern(p) {
			return nil, fmt.Errorf("bad glob pattern %q", p)
		}
		p = strings.TrimPrefix(p, "./")
		switch {
		case strings.HasPrefix(p, "**/*") && !hasMeta(p[4:]) && !strings.Contains(p[4:], "/"):
			g.suffixes = append(g.suffixes, p[4:])
		case !strings.Contains(p, "/") && !hasMeta(p) && ignore:
			g.components = append(g.components, p)
		case strings.HasPrefix(p, "**/") && strings.HasSuffix(p, "/**") && !hasMeta(p[3:len(p)-3]) && !strings.Contains(p[3:len(p)-3], "/"):
			g.components = append(g.components, p[3:len(p)-3])
		case !strings.Contains(p, "/") && ignore:
			g.compGlobs = append(g.compGlobs, p)
		default:
			g.globs = append(g.globs, p)
			if ignore && !strings.HasSuffix(p, "/**") {
				g.globs = append(g.globs, p+"/**")
			}
		}
	}
	return g, nil
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[{\\") }

// Match reports whether the slash-separated relative path matches.
func (g *Set) Match(rel string) bool {
	if g == nil {
		return false
	}
	for _, s := range g.suffixes {
		if strings.HasSuffix(rel, s) {
			return true
		}
	}
	if len(g.components) > 0 || len(g.compGlobs) > 0 {
		for c := range strings.SplitSeq(rel, "/") {
			for _, name := range g.components {
				if c == name {
					return true
				}
			}
			for _, p := range g.compGlobs {
				if ok, _ := doublestar.Match(p, c); ok {
					return true
				}
			}
		}
	}
	for _, p := range g.globs {
		if ok, _ := doublestar.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// Empty reports whether the set has no patterns.
func (g *Set) Empty() bool {
	if g == nil {
		return true
	}
	return len(g.suffixes)+len(g.components)+len(g.compGlobs)+len(g.globs) == 0
}
