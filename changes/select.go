package changes

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/languages"
)

// Affected is one test file a change can affect, with the records it
// declares that the change selects and why.
type Affected struct {
	File string `json:"file"`
	// Tests are the selected records of File, in listing order: all of
	// them, or, when a Grapher named the tests the change reaches
	// (lang.Graph.Tests), those tests and the records below them.
	Tests []testdex.Test `json:"-"`
	// Reason is the file's: the whole file's, or its first selected
	// test's.
	Reason Reason `json:"reason"`
	// Reasons hold each record's reason, parallel to Tests, when only
	// some tests of the file are selected; nil when the whole file is.
	Reasons []Reason `json:"-"`
}

// Whole reports whether every record of the file is selected.
func (a Affected) Whole() bool { return a.Reasons == nil }

// Top returns the indexes in Tests of the selected records whose parent
// is not selected: the tests that, run by ID, run exactly the selection
// (a Go test by its ID runs its subtests).
func (a Affected) Top() []int {
	sel := make(map[string]bool, len(a.Tests))
	for _, t := range a.Tests {
		sel[t.ID] = true
	}
	var top []int
	for i, t := range a.Tests {
		if t.Parent == "" || !sel[t.Parent] {
			top = append(top, i)
		}
	}
	return top
}

// Lines renders the selection on text lines: the file and its reason
// when the whole file is selected, else each top selected test's ID and
// reason.
func (a Affected) Lines() []string {
	if a.Whole() {
		return []string{a.File + "  " + a.Reason.String()}
	}
	var lines []string
	for _, i := range a.Top() {
		lines = append(lines, a.Tests[i].ID+"  "+a.Reasons[i].String())
	}
	return lines
}

// ReasonOf returns the reason of Tests[i].
func (a Affected) ReasonOf(i int) Reason {
	if a.Reasons == nil {
		return a.Reason
	}
	return a.Reasons[i]
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
	// "declared" (a rule of testdex.toml's [affected]); or, with the
	// chain from the test file to the unit that does not build, "build"
	// (a changed file breaks the build of a unit the test uses).
	Rule string `json:"rule,omitempty"`
	// Build, for Rule "build", says what does not build and what that
	// selects (lang.Break's Why).
	Build string `json:"build,omitempty"`
	// Declared is the [affected] rule that selected the file, as it
	// reads in testdex.toml.
	Declared string `json:"declared,omitempty"`
	// Test and Functions, for Rule "covered" (SelectCovered), are the
	// recorded test that executed the changed functions, and their names.
	Test      string   `json:"test,omitempty"`
	Functions []string `json:"functions,omitempty"`
	// Earlier, for Rule "covered", says that Test is not the selected
	// test but one that ran before it in its process (a cache it filled,
	// a sync.Once it ran, may serve the selected test).
	Earlier bool `json:"earlier,omitempty"`
	// Fallback, when a test with coverage was selected by the static
	// evidence, says why its coverage could not answer.
	Fallback string `json:"fallback,omitempty"`
}

// Step is one node of a chain and why the previous one uses it.
type Step struct {
	Node string `json:"node"`
	Why  string `json:"why,omitempty"`
}

// String renders the reason on one line: "a_test.go → (import) pkg →
// (changed) b.go".
func (r Reason) String() string {
	if r.Fallback != "" {
		return r.static() + " (static evidence: " + r.Fallback + ")"
	}
	return r.static()
}

func (r Reason) static() string {
	switch r.Rule {
	case "covered":
		name := r.Test
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		if r.Earlier {
			return "covered: an earlier test of its process, " + name + ", executed " + strings.Join(r.Functions, ", ") + " (changed) in " + r.Changed
		}
		return "covered: " + name + " executed " + strings.Join(r.Functions, ", ") + " (changed) in " + r.Changed
	case "build":
		return r.Build
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
// changed, when its project has no evidence and anything in it changed,
// when a changed file breaks the build of a unit it reaches (a
// lang.BuildChecker's Break: whole, whatever narrowing says), or
// when a walk over the graph's uses leads from a changed file to it. A
// walk that reaches a test file only through nodes a Grapher names as
// its tests (a narrowed Go change: lang.Graph.Tests) selects those tests
// and the records below them, each with its own chain; any other way
// selects the file whole.
func (g *Graph) Select(ix *index.Index, set Set) []Affected {
	byFile := map[string]*picked{}
	pick := func(file, test string, r Reason) {
		p := byFile[file]
		if p == nil {
			p = &picked{tests: map[string]Reason{}}
			byFile[file] = p
		}
		switch {
		case test == "":
			if !p.whole {
				p.whole, p.reason = true, r
			}
		case !p.whole:
			if _, ok := p.tests[test]; !ok {
				p.tests[test] = r
			}
		}
	}
	tests := map[string]bool{}
	for _, p := range g.projects {
		for _, f := range p.files {
			tests[f] = true
		}
	}
	narrowed := g.narrow(ix.Root, set)
	g.walkBroken(g.broken(ix.Root, set), tests, pick)
	for _, c := range set {
		if _, ok := narrowed[c.Path]; tests[c.Path] && c.Status != Deleted && !ok {
			pick(c.Path, "", Reason{Changed: c.Path, Rule: "changed"})
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
					pick(f, "", Reason{Changed: c.Path, Rule: rule})
				}
			}
		}
	}
	g.selectDeclared(set, func(file string, r Reason) { pick(file, "", r) })
	g.walk(set, narrowed, tests, pick)
	return records(ix, byFile)
}

// picked is what the walks chose of one test file: all of it, or some of
// its tests by name.
type picked struct {
	whole  bool
	reason Reason
	tests  map[string]Reason // test name -> its reason
}

// records turns the picks into the selected records, in listing order. A
// picked test name that no top-level record of its file has selects the
// file whole: the Grapher and the listing disagree, and safety wins.
func records(ix *index.Index, byFile map[string]*picked) []Affected {
	recs := map[string][]testdex.Test{} // file -> its records, in listing order
	for _, t := range ix.Tests {
		if _, ok := byFile[t.File]; ok {
			recs[t.File] = append(recs[t.File], t)
		}
	}
	troubled := map[string]bool{} // files the listing could not read whole
	for _, pr := range ix.Problems {
		troubled[pr.Path] = true
	}
	out := make([]Affected, 0, len(byFile))
	for file, p := range byFile {
		a := Affected{File: file, Reason: p.reason}
		if p.whole {
			// A candidate file that declares no test (helpers beside the
			// tests, a module of a crate without #[test]) has nothing to
			// run; its users are reached through the graph. One the
			// listing could not read (a syntax error) stays: its runner
			// reports the failure, and running it is how to see it.
			if len(recs[file]) == 0 && !troubled[file] {
				continue
			}
			a.Tests = recs[file]
			out = append(out, a)
			continue
		}
		why := map[string]Reason{} // selected record ID -> reason
		for _, t := range recs[file] {
			if r, ok := p.tests[t.Name]; ok && (t.Parent == "" || t.Parent == t.File) { // top level, or under its file (a scenario)
				why[t.ID] = r
			}
		}
		for grew := true; grew; { // the records below them, at any depth
			grew = false
			for _, t := range recs[file] {
				if _, done := why[t.ID]; !done && t.Parent != "" {
					if r, ok := why[t.Parent]; ok {
						why[t.ID], grew = r, true
					}
				}
			}
		}
		found := map[string]bool{}
		for _, t := range recs[file] {
			if r, ok := why[t.ID]; ok {
				a.Tests, a.Reasons = append(a.Tests, t), append(a.Reasons, r)
				found[t.Name] = true
			}
		}
		for name, r := range p.tests {
			if !found[name] {
				a = Affected{File: file, Tests: recs[file], Reason: r}
				break
			}
		}
		if a.Reasons != nil {
			a.Reason = a.Reasons[0]
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// walk goes from every node a change reaches, over the reversed edges,
// to the test files, breadth first, so each file's chain is a shortest.
// The changes a Grapher narrowed walk from their own start nodes over
// the edges it gave for them (the project's edges say what uses a file,
// not what uses a declaration).
func (g *Graph) walk(set Set, narrowed map[string][]string, tests map[string]bool, pick func(file, test string, r Reason)) {
	g.bfs(g.users, set, func(c Change) []string { return g.startNodes(c, narrowed) }, tests, pick)
	if len(narrowed) > 0 {
		g.bfs(g.narrowUsers, set, func(c Change) []string { return narrowed[c.Path] }, tests, pick)
	}
}

// bfs walks from the start nodes of each change over users. A test node
// (lang.Graph.Tests) picks its test, not its file, which the walk does
// not enter from it.
func (g *Graph) bfs(users map[string][]use, set Set, starts func(Change) []string, tests map[string]bool, pick func(file, test string, r Reason)) {
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
			pick(n, "", g.chain(n, prev))
		}
		for _, u := range users[n] {
			if t, ok := g.testNodes[n]; ok && t.File == u.from && tests[u.from] {
				pick(t.File, t.Name, g.chain(n, prev))
				continue
			}
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

// chain follows the walk back from a test file (or a test's node) to the
// change.
func (g *Graph) chain(from string, prev map[string]use) Reason {
	r := Reason{Chain: []Step{{Node: from}}}
	for n := from; ; {
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

// Summary is the closing line: how many tests (the selected records) in
// how many test files the change affects.
func Summary(set Set, affected []Affected) string {
	changed := fmt.Sprintf("%d changed %s", len(set), plural(len(set), "file", "files"))
	if len(affected) == 0 {
		return "no test is affected by " + changed
	}
	n, dynamic := 0, 0
	for _, a := range affected {
		k, d := countTests(a.Tests)
		n, dynamic = n+k, dynamic+d
	}
	tests := fmt.Sprintf("%d %s", n, plural(n, "test", "tests"))
	if dynamic > 0 {
		tests += fmt.Sprintf(" (and those of %d dynamic %s, known when they run)", dynamic, plural(dynamic, "record", "records"))
	}
	return fmt.Sprintf("%s in %d test %s affected by %s", tests, len(affected), plural(len(affected), "file", "files"), changed)
}

// countTests counts records as their runners count results: not suites
// (a describe block, a test class), not a parent whose listed children
// report in its place (a parametrized test's rows), except where the
// framework's parents report a result of their own (Go's, as go test
// counts them: lang.Framework.ParentsReport); dynamic records apart, as
// their tests are known only when they run.
func countTests(tests []testdex.Test) (n, dynamic int) {
	parents := map[string]bool{}
	for _, t := range tests {
		if !t.Dynamic {
			parents[t.Parent] = true
		}
	}
	for _, t := range tests {
		switch {
		case t.Dynamic:
			dynamic++
		case t.Kind == testdex.KindSuite:
		case parents[t.ID] && !languages.Framework(t.Framework).ParentsReport:
		default:
			n++
		}
	}
	return n, dynamic
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
