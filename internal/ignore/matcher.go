package ignore

import "strings"

// Matcher holds the ignore rules that apply inside one folder: that folder's
// own .gitignore, chained to the matchers of the folders above it up to the
// root of the repository, plus the repository's .git/info/exclude. A Matcher
// is immutable, so any number of goroutines may use it, and a child shares
// its parent instead of copying it. The nil *Matcher ignores nothing.
//
// Precedence follows git: within a file the last matching line wins; a
// deeper .gitignore wins over a shallower one; .git/info/exclude is
// consulted last. The user's global core.excludesFile is deliberately never
// read, so a listing is the same on every machine.
type Matcher struct {
	parent  *Matcher
	base    string // root-relative folder the rules are relative to; "" is the root
	rules   []Rule
	exclude *Matcher // the repository's .git/info/exclude, relative to its root
}

// Decision is the outcome of matching one path: the rule that decided it,
// or nil when no rule matched.
type Decision struct {
	Rule *Rule
}

// Ignored reports whether the path is ignored: a rule matched and it is not
// a negation.
func (d Decision) Ignored() bool { return d.Rule != nil && !d.Rule.Negate }

// New starts a chain for a repository whose root is the root-relative folder
// base ("" for the walk root): exclude holds the rules of its
// .git/info/exclude and rules those of base/.gitignore. A nested repository
// starts a new chain, as in git, where the enclosing repository's rules stop
// at the nested one's top folder.
func New(base string, exclude, rules []Rule) *Matcher {
	m := &Matcher{base: base, rules: rules}
	if len(exclude) > 0 {
		m.exclude = &Matcher{base: base, rules: exclude}
	}
	return m
}

// Child returns the matcher for the subfolder base (root-relative) of m's
// folder, whose .gitignore holds rules. With no rules it returns m itself.
func (m *Matcher) Child(base string, rules []Rule) *Matcher {
	if len(rules) == 0 {
		return m
	}
	if m == nil {
		return &Matcher{base: base, rules: rules}
	}
	return &Matcher{parent: m, base: base, rules: rules, exclude: m.exclude}
}

// Match decides the root-relative, slash-separated path rel, a folder when
// isDir is set, against the chain. It judges rel alone: callers walking a
// tree never reach a path whose parent folder is ignored, which is how git's
// rule that nothing inside an ignored folder can be re-included is kept.
func (m *Matcher) Match(rel string, isDir bool) Decision {
	if m == nil {
		return Decision{}
	}
	for c := m; c != nil; c = c.parent {
		if r := c.decide(rel, isDir); r != nil {
			return Decision{Rule: r}
		}
	}
	if m.exclude != nil {
		return Decision{Rule: m.exclude.decide(rel, isDir)}
	}
	return Decision{}
}

// decide returns the last of m's own rules that matches rel, or nil.
func (m *Matcher) decide(rel string, isDir bool) *Rule {
	sub := rel
	if m.base != "" {
		if len(rel) <= len(m.base) || rel[len(m.base)] != '/' || !strings.HasPrefix(rel, m.base) {
			return nil
		}
		sub = rel[len(m.base)+1:]
	}
	base := sub[strings.LastIndexByte(sub, '/')+1:]
	for i := len(m.rules) - 1; i >= 0; i-- {
		if m.rules[i].match(sub, base, isDir) {
			return &m.rules[i]
		}
	}
	return nil
}
