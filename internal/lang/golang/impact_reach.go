package golang

import (
	"path/filepath"
	"sync"

	"github.com/testdex/testdex/internal/lang"
)

// Reaches tells whether code that ran in the functions from can reach
// the function to (lang.Reacher), over the declaration graph of every
// package the project's tests load (impact_declgraph.go): a declaration
// reaches what it mentions (calls, function values, method values and
// expressions, a package-level var whose initialiser mentions a
// function, closures being part of their declaration), a type its
// methods that outside code may call, a method of that name through
// any selector .M (class hierarchy analysis by name: every
// implementation of an interface method, exported or not, whatever the
// Diff graph's narrower rule keeps: here the value may come from
// another test, whose code mentioned its type), and both ends of a
// //go:linkname each other.
//
// The answer is unknown (known false) when the graph could not read a
// file, when to is not a declaration of the graph or carries a
// //go:linkname, or when from names a function the graph does not have
// and no other function of from reaches to. The functions reaching each
// to are computed once per graph (a reverse walk), so a caller asking
// about many tests pays one walk per changed function.
func (gr *grapher) Reaches(in *lang.GraphInput, from []lang.FuncRef, to lang.FuncRef) (reached, known bool) {
	rg := gr.builderFor(in).reachGraph()
	if rg == nil {
		return false, false
	}
	target, ok := rg.nodes(to)
	if !ok || len(target) != 1 || rg.linknamed[target[0]] {
		return false, false
	}
	users := rg.reachersOf(target[0])
	known = true
	for _, f := range from {
		nodes, ok := rg.nodes(f)
		if !ok {
			known = false
			continue
		}
		for _, n := range nodes {
			if users[n] {
				return true, true
			}
		}
	}
	return false, known
}

var _ lang.Reacher = (*grapher)(nil)

// reachGraph is the reversed declaration graph of all of a builder's
// packages, with the selector edges of every method name.
type reachGraph struct {
	users map[string][]string // node -> the nodes that use it
	// files map a root-relative Go file to its declarations' nodes, by
	// key.
	files     map[string]map[string]string
	linknamed map[string]bool // nodes of declarations with a //go:linkname
	mu        sync.Mutex
	memo      map[string]map[string]bool // node -> the nodes that reach it
}

// reachGraph builds the builder's reachability graph once; nil when a
// file could not be read.
func (b *builder) reachGraph() *reachGraph {
	b.reachOnce.Do(func() {
		reach := map[*pkg]bool{}
		for _, p := range b.pkgs {
			if p.f != nil {
				reach[p] = true
			}
		}
		scanned := map[*pkg]*declPkg{}
		dg := b.emitDecls(reach, scanned)
		if !dg.ok {
			return
		}
		rg := &reachGraph{users: map[string][]string{}, files: map[string]map[string]string{},
			linknamed: map[string]bool{}, memo: map[string]map[string]bool{}}
		for _, e := range dg.out.Edges {
			rg.users[e.To] = append(rg.users[e.To], e.From)
		}
		for _, dp := range scanned {
			rg.addPkg(b.in.Root, dp)
		}
		b.reach = rg
	})
	return b.reach
}

// addPkg adds a package's declarations: their nodes by file and key, and
// the edges from every selector .M to its name node and from that node to
// every method named M.
func (rg *reachGraph) addPkg(root string, dp *declPkg) {
	for _, df := range dp.files {
		prefix := dp.p.path
		if df.gf.external {
			prefix += "_test"
		}
		own := "go:" + prefix + "."
		keys := map[string]string{}
		rg.files[lang.NodeKey(root, filepath.Join(dp.p.dir, df.gf.name))] = keys
		for _, d := range df.fd.decls {
			node := own + d.key
			keys[d.key] = node
			if len(d.linknames) > 0 {
				rg.linknamed[node] = true
			}
			for _, sel := range d.sels {
				sn := selectorNode(own, sel)
				rg.users[sn] = append(rg.users[sn], node)
			}
			if d.recv != "" && len(d.names) == 1 {
				sn := selectorNode(own, d.names[0])
				rg.users[node] = append(rg.users[node], sn)
			}
		}
	}
}

// nodes returns the nodes of a function (every declaration of its file
// for code outside functions); false when the graph does not have it.
func (rg *reachGraph) nodes(f lang.FuncRef) ([]string, bool) {
	keys, ok := rg.files[f.File]
	if !ok {
		return nil, false
	}
	if f.Name == "" {
		out := make([]string, 0, len(keys))
		for _, n := range keys {
			out = append(out, n)
		}
		return out, true
	}
	key := f.Name
	if key == "init" {
		key = "init(" + filepath.Base(filepath.FromSlash(f.File)) + ")"
	}
	n, ok := keys[key]
	if !ok {
		return nil, false
	}
	return []string{n}, true
}

// reachersOf returns the nodes from which an edge path leads to node
// (node included), computed once per node.
func (rg *reachGraph) reachersOf(node string) map[string]bool {
	rg.mu.Lock()
	defer rg.mu.Unlock()
	if m, ok := rg.memo[node]; ok {
		return m
	}
	seen := map[string]bool{node: true}
	queue := []string{node}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, u := range rg.users[n] {
			if !seen[u] {
				seen[u] = true
				queue = append(queue, u)
			}
		}
	}
	rg.memo[node] = seen
	return seen
}
