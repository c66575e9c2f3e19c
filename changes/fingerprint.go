package changes

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

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
	out := map[string]string{}
	for f, m := range g.Manifests(root) {
		out[f] = ""
		if m != nil {
			out[f] = m.Fingerprint()
		}
	}
	return out
}

// Manifests returns, for each test file of the listing, the manifest its
// fingerprint hashes; nil for a file that gets no fingerprint.
func (g *Graph) Manifests(root string) map[string]Manifest {
	uses := g.forward()
	contents := map[string]uint64{} // file -> content hash, 0 when not a readable file
	hashOf := func(file string) uint64 {
		if h, ok := contents[file]; ok {
			return h
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		h := uint64(0)
		if err == nil {
			h = xxh3.Hash(data) | 1 // never 0: 0 means "not a file"
		}
		contents[file] = h
		return h
	}
	out := map[string]Manifest{}
	declared, declOK := g.declaredFiles(root)
	for _, p := range g.projects {
		globals, ok := p.globalFiles(root)
		for _, f := range p.files {
			out[f] = nil
			if ok && declOK {
				out[f] = g.manifest(f, p, uses, append(globals[:len(globals):len(globals)], declared[f]...), hashOf)
			}
		}
	}
	return out
}

// manifest lists one test file's closure; nil when it cannot be known.
func (g *Graph) manifest(file string, p *project, uses map[string][]string, globals []string, hashOf func(string) uint64) Manifest {
	if !p.evidence {
		return nil
	}
	seen := map[string]bool{file: true}
	queue := []string{file}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n == anyNode(p) || n == unresolvedNode(p) {
			return nil
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
	m := make(Manifest, len(seen))
	for n := range seen {
		m[n] = hashOf(n) // other nodes (packages, crates) are named, not read
	}
	return m
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
// project's tests). The globs of the form DIR/**/NAME (NAME one segment)
// share one walk of DIR per DIR: a JavaScript project has four of them,
// each a walk of its node_modules (light-my-request: 0.16 s of a
// coverage run's 0.21 s in testdex). The files are those Glob gives each
// glob, in the same order.
func (p *project) globalFiles(root string) ([]string, bool) {
	var out []string
	fsys := os.DirFS(root)
	names := map[string][]string{} // DIR/** -> the NAMEs of its globs
	var dirs []string
	for _, glob := range p.global {
		if dir, name, ok := deepName(glob); ok {
			if names[dir] == nil {
				dirs = append(dirs, dir)
			}
			names[dir] = append(names[dir], name)
			continue
		}
		matches, err := doublestar.Glob(fsys, glob, doublestar.WithFilesOnly(), doublestar.WithFailOnIOErrors())
		if err != nil {
			return nil, false
		}
		out = append(out, matches...)
	}
	for _, dir := range dirs {
		all, err := doublestar.Glob(fsys, dir+"/*", doublestar.WithFilesOnly(), doublestar.WithFailOnIOErrors())
		if err != nil {
			return nil, false
		}
		for _, name := range names[dir] {
			for _, f := range all {
				if ok, _ := doublestar.Match(name, path.Base(f)); ok {
					out = append(out, f)
				}
			}
		}
	}
	sort.Strings(out)
	return out, true
}

// deepName splits a glob DIR/**/NAME whose NAME is one segment (no
// separator, no ** and no brace that could hold a separator) into DIR/**
// and NAME.
func deepName(glob string) (dir, name string, ok bool) {
	i := strings.LastIndex(glob, "**/")
	if i < 0 || (i > 0 && glob[i-1] != '/') {
		return "", "", false
	}
	name = glob[i+3:]
	if name == "" || strings.ContainsAny(name, "/{}\\") || strings.Contains(glob[:i], "{") {
		return "", "", false
	}
	return glob[:i+2], name, true
}
