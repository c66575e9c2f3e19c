package changes

import (
	"context"
	"sync"

	"github.com/testdex/testdex/internal/lang"
)

// brokenMemo keeps the Graphers' build checks (lang.BuildChecker) of one
// Graph: a check reads the tree as it is now, which a Graph's life does
// not change, and SelectCovered selects once per change besides once for
// the whole set.
type brokenMemo struct {
	mu   sync.Mutex
	byCh map[string][]lang.Break // change key -> its breaks
	old  map[string][]byte       // change key -> the file at its base
}

// breakStart is a unit a change breaks: where the walk of its selection
// starts.
type breakStart struct {
	change string // the changed file
	lang.Break
}

// broken asks the Graphers that can (lang.BuildChecker) whether each
// added, modified or renamed file breaks a build: a file that does not
// parse or type-check fails every test of its unit and of the units
// that use it, which no narrowing may hide. Every project that uses the
// file is asked (its folder's, and those whose edges reach it: a Maven
// module compiles the modules it depends on).
func (g *Graph) broken(root string, set Set) []breakStart {
	g.prefetch(root, set)
	var out []breakStart
	for _, c := range set {
		if c.Status == Deleted {
			continue
		}
		seen := map[string]bool{}
		for _, b := range g.breaksOf(root, c) {
			if !seen[b.Node] {
				seen[b.Node] = true
				out = append(out, breakStart{change: c.Path, Break: b})
			}
		}
	}
	return out
}

// breaksOf checks one change, once per Graph.
func (g *Graph) breaksOf(root string, c Change) []lang.Break {
	key := string(c.Status) + "\x00" + c.Path + "\x00" + c.Base + "\x00" + string(c.Prev)
	g.memo.mu.Lock()
	if b, ok := g.memo.byCh[key]; ok {
		g.memo.mu.Unlock()
		return b
	}
	g.memo.mu.Unlock()
	var out []lang.Break
	var old []byte
	if c.Status == Modified {
		old = g.oldContent(root, c)
	}
	for _, p := range g.projects {
		bc, ok := p.grapher.(lang.BuildChecker)
		if !ok || !p.evidence || !p.in(c.Path) && !p.mentions[c.Path] {
			continue
		}
		out = append(out, bc.Broken(p.input, c.Path, old)...)
	}
	g.memo.mu.Lock()
	if g.memo.byCh == nil {
		g.memo.byCh = map[string][]lang.Break{}
	}
	g.memo.byCh[key] = out
	g.memo.mu.Unlock()
	return out
}

// prefetch reads the base content of every modified file of set that has
// no Prev, through one git process per base revision (showFiles), into
// the memo oldContent answers from.
func (g *Graph) prefetch(root string, set Set) {
	byBase := map[string][]string{}
	g.memo.mu.Lock()
	for _, c := range set {
		if c.Status == Modified && c.Prev == nil && c.Base != "" {
			if _, ok := g.memo.old[c.Base+"\x00"+c.Path]; !ok {
				byBase[c.Base] = append(byBase[c.Base], c.Path)
			}
		}
	}
	g.memo.mu.Unlock()
	for base, files := range byBase {
		got, err := showFiles(context.Background(), root, base, files)
		if err != nil {
			continue // each file is asked for alone, as before
		}
		g.memo.mu.Lock()
		if g.memo.old == nil {
			g.memo.old = map[string][]byte{}
		}
		for _, f := range files {
			g.memo.old[base+"\x00"+f] = got[f] // nil: not at base
		}
		g.memo.mu.Unlock()
	}
}

// oldContent returns a modified file's content at its base: Prev, or
// the file at Base through git; nil when unknown.
func (g *Graph) oldContent(root string, c Change) []byte {
	if c.Prev != nil {
		return c.Prev
	}
	if c.Base == "" {
		return nil
	}
	key := c.Base + "\x00" + c.Path
	g.memo.mu.Lock()
	old, ok := g.memo.old[key]
	g.memo.mu.Unlock()
	if ok {
		return old
	}
	old, err := showFile(context.Background(), root, c.Base, c.Path)
	if err != nil {
		old = nil
	}
	g.memo.mu.Lock()
	if g.memo.old == nil {
		g.memo.old = map[string][]byte{}
	}
	g.memo.old[key] = old
	g.memo.mu.Unlock()
	return old
}

// walkBroken selects, whole, the test files that reach a broken unit
// over the project graph's edges, each with the break's reason and the
// chain from the test file to the unit.
func (g *Graph) walkBroken(starts []breakStart, tests map[string]bool, pick func(file, test string, r Reason)) {
	for _, s := range starts {
		prev := map[string]use{s.Node: {why: s.change}}
		queue := []string{s.Node}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			if tests[n] {
				r := g.chain(n, prev)
				r.Rule, r.Build = "build", s.Why
				pick(n, "", r)
			}
			for _, u := range g.users[n] {
				if _, seen := prev[u.from]; !seen {
					prev[u.from] = use{from: n, why: u.why}
					queue = append(queue, u.from)
				}
			}
		}
	}
}
