package changes

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

// Affected is one test file a change can affect, with the records it
// declares and why.
type Affected struct {
	File   string         `json:"file"`
	Tests  []testdex.Test `json:"-"`
	Reason Reason         `json:"reason"`
}

// Reason says why a test file is affected: the changed file, and the chain
// of uses from the test file to it.
type Reason struct {
	// Changed is the changed file the chain ends at.
	Changed string `json:"changed"`
	// Chain runs from the test file to the changed file; each step after
	// the first says why its predecessor uses it. Empty when the test
	// file itself changed or a rule selects its whole project.
	Chain []Step `json:"chain,omitempty"`
	// Rule names what selected the file without a chain: "changed" (the
	// test file itself), "global" (a file every test of the project
	// depends on), "no evidence" (a project testdex has no graph for),
	// "declared" (a rule of testdex.toml's [affected]).
	Rule string `json:"rule,omitempty"`
	// Declared is the [affected] rule that selected the file, as it
	// reads in testdex.toml.
	Declared string `json:"declared,omitempty"`
}

// Step is one node of a chain and why the previous one uses it.
type Step struct {
	Node string `json:"node"`
	Why  string `json:"why,omitempty"`
}

// String renders the reason on one line: "a_test.go → (import) pkg →
// (changed) b.go".
func (r Reason) String() string {
	switch r.Rule {
	case "changed":
		return "changed"
	case "global":
		return "changed " + r.Changed + " (every test of the project depends on it)"
	case "no evidence":
		return "changed " + r.Changed + " (no dependency graph for this project: any change selects its tests)"
	case "declared":
		return "changed " + r.Changed + " (declared in testdex.toml: [affected] " + r.Declared + ")"
	}
	var b strings.Builder
	for i, s := range r.Chain {
		if i > 0 {
			b.WriteString(" → ")
			if s.Why != "" {
				b.WriteString("(" + s.Why + ") ")
			}
		}
		b.WriteString(s.Node)
	}
	return b.String()
}

// Select returns the test files of the listing that the change set can
// affect, by path, each with one shortest reason. A test file is affected
// when it changed itself, when a file its project declares global
// changed, when its project has no evidence and anything in it changed, or
// when a walk over the graph's uses leads from a changed file to it.
func (g *Graph) Select(ix *index.Index, set Set) []Affected {
	byFile := map[string]*Affected{}
	pick := func(file string, r Reason) {
		if _, ok := byFile[file]; !ok {
			byFile[file] = &Affected{File: file, Reason: r}
		}
	}
	tests := map[string]bool{}
	for _, p := range g.projects {
		for _, f := range p.files {
			tests[f] = true
		}
	}
	for _, c := range set {
		if tests[c.Path] && c.Status != Deleted {
			pick(c.Path, Reason{Changed: c.Path, Rule: "changed"})
		}
	}
	for _, c := range set {
		for _, p := range g.projects {
			// A global file may lie outside the project's folder (a
			// go.work, a workspace's lock file above it).
			inside := p.in(c.Path) || c.Old != "" && p.in(c.Old)
			rule := ""
			switch {
			case !p.evidence && inside:
				rule = "no evidence"
			case p.evidence && (matchesAny(p.global, c.Path) || c.Old != "" && matchesAny(p.global, c.Old)):
				rule = "global"
			}
			if rule != "" {
				for _, f := range p.files {
					pick(f, Reason{Changed: c.Path, Rule: rule})
				}
			}
		}
	}
	g.selectDeclared(set, pick)
	g.walk(set, g.narrow(ix.Root, set), tests, pick)
	recs := map[string][]testdex.Test{} // file -> its records, in listing order
	for _, t := range ix.Tests {
		if _, ok := byFile[t.File]; ok {
			recs[t.File] = append(recs[t.File], t)
		}
	}
	out := make([]Affected, 0, len(byFile))
	for _, a := range byFile {
		a.Tests = recs[a.File]
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// walk goes from every node a change reaches, over the reversed edges,
// to the test files, breadth first, so each file's chain is a shortest.
// The changes a Grapher narrowed walk from their own start nodes over
// the edges it gave for them (the project's edges say what uses a file,
// not what uses a declaration).
func (g *Graph) walk(set Set, narrowed map[string][]string, tests map[string]bool, pick func(string, Reason)) {
	g.bfs(g.users, set, func(c Change) []string { return g.startNodes(c, narrowed) }, tests, pick)
	if len(narrowed) > 0 {
		g.bfs(g.narrowUsers, set, func(c Change) []string { return narrowed[c.Path] }, tests, pick)
	}
}

// bfs walks from the start nodes of each change over users.
func (g *Graph) bfs(users map[string][]use, set Set, starts func(Change) []string, tests map[string]bool, pick func(string, Reason)) {
	prev := map[string]use{} // node -> the node it was reached from, and why
	var queue []string
	for _, c := range set {
		for _, n := range starts(c) {
			if _, seen := prev[n]; !seen {
				prev[n] = use{from: "", why: c.Path}
				queue = append(queue, n)
			}
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if tests[n] {
			pick(n, g.chain(n, prev))
		}
		for _, u := range users[n] {
			if _, seen := prev[u.from]; !seen {
				prev[u.from] = use{from: n, why: u.why}
				queue = append(queue, u.from)
			}
		}
	}
}

// startNodes are the nodes a change reaches directly: the file (and its
// old name) and its folder's owner (unless a Grapher narrowed the
// change: see walk), and the project's special nodes.
func (g *Graph) startNodes(c Change, narrowed map[string][]string) []string {
	nodes := []string{c.Path}
	paths := []string{c.Path}
	if _, ok := narrowed[c.Path]; ok {
		nodes, paths = nil, nil
	}
	if c.Old != "" {
		nodes = append(nodes, c.Old)
		paths = append(paths, c.Old)
	}
	for _, p := range paths {
		if owner, ok := g.owner(p); ok {
			nodes = append(nodes, owner)
		}
	}
	for _, p := range g.projects {
		if !p.evidence || !p.in(c.Path) && (c.Old == "" || !p.in(c.Old)) {
			continue
		}
		nodes = append(nodes, anyNode(p))
		if c.Status != Modified {
			nodes = append(nodes, unresolvedNode(p))
		}
	}
	return nodes
}

// chain follows the walk back from a test file to the change.
func (g *Graph) chain(file string, prev map[string]use) Reason {
	r := Reason{Chain: []Step{{Node: file}}}
	for n := file; ; {
		u := prev[n]
		if u.from == "" {
			r.Changed = u.why
			if n != u.why { // reached through an owner or a special node
				r.Chain = append(r.Chain, Step{Node: u.why, Why: "changed"})
			} else {
				r.Chain[len(r.Chain)-1].Why = "changed"
			}
			return r
		}
		r.Chain = append(r.Chain, Step{Node: u.from, Why: u.why})
		n = u.from
	}
}

func matchesAny(globs []string, file string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, file); ok {
			return true
		}
	}
	return false
}

// Summary is the line printed when nothing is affected.
func Summary(set Set, affected []Affected) string {
	if len(affected) == 0 {
		return fmt.Sprintf("no test is affected by %d changed %s", len(set), plural(len(set), "file", "files"))
	}
	return fmt.Sprintf("%d test %s affected by %d changed %s", len(affected), plural(len(affected), "file", "files"), len(set), plural(len(set), "file", "files"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
