package markdown

import (
	"context"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/specs"
	"github.com/testdex/testdex/internal/walk"
)

// Grapher is the impact graph of the markdown specs: a spec is affected
// when it changes (every test file is), or when a file its frontmatter
// `paths` names changes, and a scenario when a file the agent said it
// read to judge it changes (the verdict store, under the cache folder;
// see reads). A spec without `paths` and never judged is floating: only
// its own change selects it.
//
// paths is a list of globs, or one comma-separated string, in doublestar
// syntax (*, **, ?, [a-z], {a,b}):
//
//	paths: [src/api/**, "docs/*.md"]   root-relative: relative to the listed root (the
//	                                   semtest project, where testMatch is relative too)
//	paths: ./fixtures/**, ../shared    relative to the spec's folder when it starts with ./ or ../
//
// A pattern also covers everything below a folder it matches ("src/api"
// is "src/api" and "src/api/**"). Files are matched against the tree as
// the walk sees it: .gitignore'd files (which git reports no change of)
// are left out, hidden ones are not. A pattern that is broken (or a
// paths field that is) connects its spec to lang.AnyNode: any change
// selects it until the frontmatter is fixed.
//
// Edges: spec ─(paths)─▶ the pattern ("src/api/**") ─(matches)─▶ each
// file it matches today, and the pattern ─▶ lang.UnresolvedNode, since a
// deleted file may have matched it: the contract has no node for "a
// deleted path matching this glob", so any file deleted or renamed
// under the root selects the specs with paths. A literal pattern naming
// an existing file is that file's node.
type Grapher struct{}

// vcsDirs are never walked for matches (their files are no project's).
var vcsDirs = []string{".git", ".hg", ".svn", ".jj"}

// Graph implements lang.Grapher.
func (Grapher) Graph(in *lang.GraphInput) (*lang.Graph, error) {
	out := &lang.Graph{}
	users := map[string][]string{} // pattern -> the specs using it
	for _, spec := range in.Files {
		data, err := in.ReadFile(filepath.Join(in.Root, filepath.FromSlash(spec)))
		if err != nil {
			continue // the listing reported it; the spec's own change still selects it
		}
		fm, _, _ := Split(data)
		if fm.PathsInvalid {
			out.Edges = append(out.Edges, lang.Edge{From: spec, To: lang.AnyNode, Why: "paths (broken: fix the frontmatter)"})
			continue
		}
		for _, p := range fm.Paths {
			pat, ok := resolvePattern(spec, p)
			if !ok {
				out.Edges = append(out.Edges, lang.Edge{From: spec, To: lang.AnyNode, Why: "paths " + p + " (outside the root)"})
				continue
			}
			if !slices.Contains(users[pat], spec) {
				users[pat] = append(users[pat], spec)
			}
		}
	}
	reads(in, out)
	if len(users) == 0 {
		return out, nil
	}
	pats := slices.Sorted(maps.Keys(users))
	for _, pat := range pats {
		for _, spec := range users[pat] {
			out.Edges = append(out.Edges, lang.Edge{From: spec, To: pat, Why: "paths"})
		}
	}
	matches, probs := matchFiles(in.Root, pats)
	out.Problems = append(out.Problems, probs...)
	for _, pat := range pats {
		literalFile := false
		for _, f := range matches[pat] {
			if f == pat {
				literalFile = true
				continue
			}
			out.Edges = append(out.Edges, lang.Edge{From: pat, To: f, Why: "matches"})
		}
		if !literalFile {
			out.Edges = append(out.Edges, lang.Edge{From: pat, To: lang.UnresolvedNode, Why: "a deleted file may have matched"})
		}
	}
	return out, nil
}

// resolvePattern makes a paths entry root-relative: "./x" and "../x"
// are relative to the spec's folder, anything else to the root. ok is
// false for a pattern that leaves the root.
func resolvePattern(spec, p string) (string, bool) {
	p = strings.TrimSpace(filepath.ToSlash(p))
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." {
		p = path.Join(path.Dir(spec), p)
	}
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		p = "."
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	if p == "." {
		return "**", true
	}
	return p, true
}

// matchFiles walks the folders the patterns can match in (their literal
// prefixes) and returns each pattern's matching files, sorted.
func matchFiles(root string, pats []string) (map[string][]string, []testdex.Problem) {
	var within []string
	for _, p := range pats {
		within = append(within, literalPrefix(p))
	}
	if slices.Contains(within, "") {
		within = nil // the whole root
	}
	out := map[string][]string{}
	var mu sync.Mutex // walk.Walk calls back from several goroutines
	opts := walk.Options{Hidden: true, SkipDirs: vcsDirs, Within: within}
	probs, _ := walk.Walk(context.Background(), root, opts, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			return nil
		}
		for _, p := range pats {
			if matchUnder(p, rel) {
				mu.Lock()
				out[p] = append(out[p], rel)
				mu.Unlock()
			}
		}
		return nil
	})
	for _, p := range pats {
		slices.Sort(out[p])
	}
	return out, probs
}

// matchUnder reports whether file matches pattern p, or lies below a
// folder that does.
func matchUnder(p, file string) bool {
	if ok, _ := doublestar.Match(p, file); ok {
		return true
	}
	ok, _ := doublestar.Match(p+"/**", file)
	return ok
}

// literalPrefix is the folder part of a pattern before its first
// metacharacter, or a literal's folder ("" at the root).
func literalPrefix(p string) string {
	i := strings.IndexAny(p, "*?[{\\")
	if i < 0 {
		i = len(p) // a file or a folder: walk its folder
	}
	j := strings.LastIndexByte(p[:i], '/')
	if j < 0 {
		return ""
	}
	return p[:j]
}

// reads adds the edges of the stored verdicts (package specs): a
// scenario is a test node of its spec (spec ─▶ spec:FILE::ID) that uses
// each file the agent read to judge it, and a spec without scenarios
// uses them itself. A change of such a file selects the scenario alone,
// which `run --affected` judges again; `run` reuses the verdicts of the
// others. Without a cache folder there is no store and no such edge.
func reads(in *lang.GraphInput, out *lang.Graph) {
	if in.CacheDir == "" || in.Project == nil {
		return
	}
	store, _ := specs.LoadStore(specs.StorePath(in.CacheDir, in.Project.Dir))
	if len(store) == 0 {
		return
	}
	specFiles := map[string]bool{}
	for _, f := range in.Files {
		specFiles[f] = true
	}
	for _, id := range slices.Sorted(maps.Keys(store)) {
		file, scenario := testdex.SplitID(id)
		if !specFiles[file] {
			continue
		}
		from := file
		if scenario != "" {
			from = "spec:" + id
			out.Edges = append(out.Edges, lang.Edge{From: file, To: from, Why: "scenario"})
			out.Tests = append(out.Tests, lang.TestNode{Node: from, File: file, Name: ScenarioName(path.Base(file), scenario)})
		}
		for _, r := range store[id].Read {
			if strings.HasPrefix(store[id].Files[r], "dir:") {
				// A folder it listed: the key holds its names, which an
				// added or deleted file changes. No node says "a file
				// added under r", so any added or deleted file selects
				// it; the run's key check then judges it again only if
				// r's listing changed.
				out.Edges = append(out.Edges, lang.Edge{From: from, To: lang.UnresolvedNode, Why: "listed " + r})
				continue
			}
			out.Edges = append(out.Edges, lang.Edge{From: from, To: r, Why: "read by the agent"})
		}
	}
}
