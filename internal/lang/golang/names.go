package golang

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// namer gives subtests the names package testing gives them: rewritten
// (rewrite) and made unique among the siblings of one parent (unique). It
// mirrors the matcher in $GOROOT/src/testing/match.go, whose subNames map is
// keyed by the full name, so one namer serves a whole file.
type namer struct {
	subNames map[string]int32
	// journal records, while marks > 0, the old count of every name the
	// namer changes, so that rollback can undo them (exclusive paths).
	journal []journalEntry
	marks   int
	// rolled is set once a rollback undid a change: names given before
	// may be given again.
	rolled bool
}

type journalEntry struct {
	key string
	n   int32
	had bool
}

// mark starts recording changes and returns the point to roll back to.
// Every mark ends with one rollback or keep.
func (m *namer) mark() int {
	m.marks++
	return len(m.journal)
}

// rollback undoes the changes made since the mark that returned at.
func (m *namer) rollback(at int) {
	if len(m.journal) > at {
		m.rolled = true
	}
	for i := len(m.journal) - 1; i >= at; i-- {
		e := m.journal[i]
		if e.had {
			m.subNames[e.key] = e.n
		} else {
			delete(m.subNames, e.key)
		}
	}
	m.keep(at)
}

// keep ends a mark without undoing its changes (an enclosing mark still
// may).
func (m *namer) keep(at int) {
	m.marks--
	if m.marks == 0 {
		m.journal = m.journal[:0]
	}
}

// set changes a count, journaling the old one.
func (m *namer) set(key string, n int32) {
	if m.marks > 0 {
		old, had := m.subNames[key]
		m.journal = append(m.journal, journalEntry{key, old, had})
	}
	m.subNames[key] = n
}

func newNamer() *namer { return &namer{subNames: map[string]int32{}} }

// name returns the full name of the subtest that t.Run(subname) starts under
// the test named parent, and records it, exactly as testing's
// matcher.fullName does for a test at level > 0.
func (m *namer) name(parent, subname string) string {
	return m.unique(parent, rewrite(subname))
}

// unique is testing's matcher.unique: "#NN" suffixes for repeated names,
// skipping numbers that collide with names explicitly ending in #NN.
func (m *namer) unique(parent, subname string) string {
	base := parent + "/" + subname
	for {
		n := m.subNames[base]
		if n < 0 {
			return base // testing panics on overflow; never reached in practice
		}
		m.set(base, n+1)
		if n == 0 && subname != "" {
			prefix, nn := parseSubtestNumber(base)
			if len(prefix) < len(base) && nn < m.subNames[prefix] {
				continue
			}
			return base
		}
		name := base + "#" + pad2(n)
		if m.subNames[name] != 0 {
			continue
		}
		return name
	}
}

// pad2 is fmt's %02d for a non-negative n.
func pad2(n int32) string {
	s := strconv.Itoa(int(n))
	if len(s) < 2 {
		s = "0" + s
	}
	return s
}

// parseSubtestNumber is testing's: it splits a "#%02d" suffix off s.
func parseSubtestNumber(s string) (prefix string, nn int32) {
	i := strings.LastIndex(s, "#")
	if i < 0 {
		return s, 0
	}
	prefix, suffix := s[:i], s[i+1:]
	if len(suffix) < 2 || (len(suffix) > 2 && suffix[0] == '0') {
		return s, 0
	}
	if suffix == "00" && !strings.HasSuffix(prefix, "/") {
		return s, 0
	}
	n, err := strconv.ParseInt(suffix, 10, 32)
	if err != nil || n < 0 {
		return s, 0
	}
	return prefix, int32(n)
}

// rewrite is testing's: white space becomes "_" and unprintable runes are
// escaped as strconv.QuoteRune escapes them.
func rewrite(s string) string {
	plain := true // printable ASCII without white space: unchanged
	for i := 0; i < len(s) && plain; i++ {
		plain = s[i] > ' ' && s[i] < 0x7f
	}
	if plain {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case isSpace(r):
			b = append(b, '_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b = append(b, q[1:len(q)-1]...)
		default:
			b = append(b, string(r)...)
		}
	}
	return string(b)
}

// isSpace is testing's notion of white space (not Unicode's Z class).
func isSpace(r rune) bool {
	if r < 0x2000 {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680:
			return true
		}
		return false
	}
	if r <= 0x200a {
		return true
	}
	switch r {
	case 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return false
}

// runPattern is the -run (or -bench) pattern that selects exactly the test
// with the full name name: each "/"-separated element, as testing splits
// names, anchored and quoted, as in ^TestFoo$/^case_1$. Package testing
// splits the pattern on the unescaped "/" outside brackets and parentheses,
// which QuoteMeta guarantees are exactly these joins.
func runPattern(name string) string {
	var b strings.Builder
	b.Grow(len(name) + 2*strings.Count(name, "/") + 2)
	writePattern(&b, name)
	return b.String()
}

// writePattern writes runPattern(name) to b.
func writePattern(b *strings.Builder, name string) {
	for {
		p, rest, more := strings.Cut(name, "/")
		b.WriteByte('^')
		b.WriteString(regexp.QuoteMeta(p))
		b.WriteByte('$')
		if !more {
			return
		}
		b.WriteByte('/')
		name = rest
	}
}

// joinPatterns joins -run (or -bench) patterns, each runPattern's shape
// (^A$/^b$), into one that go test matches fast: the patterns that differ
// only in their last level share one element, ^A$/^(?:b|c)$, and the
// whole tests one ^(?:A|B)$. go test splits a pattern on its top-level
// "|" and matches each alternative in turn through a regexp cache of one
// entry, so 500 alternatives recompile 500 regexps for every test it
// runs (go-toml: 20 s where the package runs in 0.7 s). A pattern of
// another shape is kept as it is.
func joinPatterns(pats []string) string {
	var order []string
	last := map[string][]string{} // the levels before the last -> the last levels' names
	var odd []string
	for _, p := range pats {
		levels := strings.Split(p, "$/^")
		if !strings.HasPrefix(p, "^") || !strings.HasSuffix(p, "$") || strings.Contains(p, "(?:") {
			odd = append(odd, p)
			continue
		}
		levels[0] = strings.TrimPrefix(levels[0], "^")
		levels[len(levels)-1] = strings.TrimSuffix(levels[len(levels)-1], "$")
		prefix := strings.Join(levels[:len(levels)-1], "$/^")
		if _, ok := last[prefix]; !ok {
			order = append(order, prefix)
		}
		if name := levels[len(levels)-1]; !slices.Contains(last[prefix], name) {
			last[prefix] = append(last[prefix], name)
		}
	}
	out := make([]string, 0, len(order)+len(odd))
	for _, prefix := range order {
		names := last[prefix]
		elem := "^" + names[0] + "$"
		if len(names) > 1 {
			elem = "^(?:" + strings.Join(names, "|") + ")$"
		}
		if prefix != "" {
			elem = "^" + prefix + "$/" + elem
		}
		out = append(out, elem)
	}
	return strings.Join(append(out, odd...), "|")
}
