package changes

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zeebo/xxh3"
)

// Fingerprints returns, for each test file of the listing, a hash of
// everything its tests can depend on by the graph's evidence: the contents
// and names of the files its walk over the uses reaches (itself included),
// of its project's global files, and of the files testdex.toml's
// [affected] rules declare for it. A file whose walk reaches AnyNode or
// UnresolvedNode, or whose project has no evidence, gets no fingerprint
// (""): nothing can vouch that it is unchanged. Ori's rule, made lasting:
// a test file whose fingerprint equals the one of its last passing run
// need not run again (`testdex run --changed`).
func (g *Graph) Fingerprints(root string) map[string]string {
	uses := g.forward()
	contents := map[string]uint64{} // file -> content hash, 0 when not a readable file
	hashOf := func(file string) (uint64, bool) {
		if h, ok := contents[file]; ok {
			return h, h != 0
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		h := uint64(0)
		if err == nil {
			h = xxh3.Hash(data) | 1 // never 0: 0 means "not a file"
		}
		contents[file] = h
		return h, h != 0
	}
	out := map[string]string{}
	declared, declOK := g.declaredFiles(root)
	for _, p := range g.projects {
		globals, ok := p.globalFiles(root)
		for _, f := range p.files {
			if ok && declOK {
				out[f] = g.fingerprint(f, p, uses, append(globals[:len(globals):len(globals)], declared[f]...), hashOf)
			} else {
				out[f] = ""
			}
		}
	}
	return out
}

// fingerprint hashes one test file's closure; "" when it cannot be known.
func (g *Graph) fingerprint(file string, p *project, uses map[string][]string, globals []string, hashOf func(string) (uint64, bool)) string {
	if !p.evidence {
		return ""
	}
	seen := map[string]bool{file: true}
	queue := []string{file}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == anyNode(p) || n == unresolvedNode(p) {
			return ""
		}
		for _, m := range uses[n] {
			if !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	for _, gf := range globals {
		seen[gf] = true
	}
	nodes := make([]string, 0, len(seen))
	for n := range seen {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	h := xxh3.New()
	for _, n := range nodes {
		if c, ok := hashOf(n); ok { // other nodes (packages, crates) are named, not read
			h.WriteString(n + "\x00" + strconv.FormatUint(c, 16) + "\n")
		} else {
			h.WriteString(n + "\n")
		}
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// forward returns the graph's edges from user to used.
func (g *Graph) forward() map[string][]string {
	uses := map[string][]string{}
	for to, us := range g.users {
		for _, u := range us {
			uses[u.from] = append(uses[u.from], to)
		}
	}
	return uses
}

// globalFiles expands the project's global globs to the files that exist;
// false when a folder could not be read (nothing can then vouch for the
// project's tests).
func (p *project) globalFiles(root string) ([]string, bool) {
	var out []string
	fsys := os.DirFS(root)
	for _, glob := range p.global {
		matches, err := doublestar.Glob(fsys, glob, doublestar.WithFilesOnly(), doublestar.WithFailOnIOErrors())
		if err != nil {
			return nil, false
		}
		out = append(out, matches...)
	}
	sort.Strings(out)
	return out, true
}
