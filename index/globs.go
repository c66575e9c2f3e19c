package index

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// A globSet is a compiled list of testMatch or testPathIgnorePatterns
// patterns. Matching runs once per walked file and framework, so the common
// shapes get fast paths and only the rest go through doublestar (about
// 1 µs a pattern):
//
//	**/*_test.go     suffix of the path
//	node_modules     any path component equal to it (no "/" in the pattern)
//	**/testdata/**   any folder component equal to it
type globSet struct {
	suffixes   []string // **/*LIT
	components []string // NAME, **/NAME/**, **/NAME
	compGlobs  []string // a "/"-free pattern with metacharacters: any component
	globs      []string // everything else, against the whole path
}

// compileGlobs validates and compiles patterns. ignore selects the ignore
// semantics: a pattern also excludes everything below a matching folder.
func compileGlobs(patterns []string, ignore bool) (*globSet, error) {
	g := &globSet{}
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

// match reports whether the root-relative, slash-separated path matches.
func (g *globSet) match(rel string) bool {
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

// empty reports whether the set has no patterns.
func (g *globSet) empty() bool {
	return len(g.suffixes)+len(g.components)+len(g.compGlobs)+len(g.globs) == 0
}
