package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/config"
)

// Index is the result of discovery. Its fields are read-only after Build.
type Index struct {
	// Root is the absolute, clean root folder.
	Root string
	// Tests are the records in file order, then source order.
	Tests []testdex.Test
	// Problems are per-path diagnostics, sorted by path.
	Problems []testdex.Problem
	// Projects are the projects the listed files belong to.
	Projects []Project
	// Searched is the absolute folder searched: the root, or the single
	// folder named.
	Searched string
	// Files are the candidate files read, in path order.
	Files []File
	Stats Stats
	// CacheDir is the cache folder the listing used (Options.CacheDir),
	// "" when caching is off; the impact graph keeps its scans there too.
	CacheDir string
	// Escapes are the symbolic links the walk did not follow because
	// their real target lies outside the root, sorted by path: a runner
	// collecting tests by itself would follow them (pytest, Vitest, Mocha
	// and node:test do), so a run keeps it from doing so, or refuses.
	Escapes []Escape

	groups []*group // per (project, framework), for the runtime method
	cfg    *config.Config
}

// Config returns the configuration the listing used (testdex.toml, or
// the one given); never nil.
func (ix *Index) Config() *config.Config {
	if ix.cfg == nil {
		return &config.Config{Frameworks: map[string]config.Framework{}}
	}
	return ix.cfg
}

// Escape is a symbolic link leaving the root.
type Escape struct {
	Path string // root-relative
	Dir  bool   // it points to a folder
}

// File is one candidate file of the listing: the unit of the metadata
// file and of change detection.
type File struct {
	Path      string            `json:"path"` // root-relative
	Framework testdex.Framework `json:"framework"`
	Project   string            `json:"project"`
	// Hash is the xxh3 hash of the content, hex; "" when unreadable.
	Hash string `json:"hash"`
}

// Stats describe the work done, for benchmarks and --stats.
type Stats struct {
	Candidates int           // candidate files considered
	Parsed     int           // (file, framework) pairs parsed
	Cached     int           // pairs answered from the cache
	Walk       time.Duration // level 1
	Extract    time.Duration // level 2
	Link       time.Duration // the linkers (Go's helpers followed), after level 2
	Assemble   time.Duration // IDs, parents and projects: records in path order
}

// Build discovers the tests selected by opts. Per-file trouble is recorded
// in the returned Index's Problems; the error is non-nil only for a bad
// request (a missing or outside path, a broken configuration) or a
// cancelled context. An Index with no tests is not an error: see
// [Index.NoTests].
func Build(ctx context.Context, opts Options) (*Index, error) {
	b, err := newBuilder(opts)
	if err != nil {
		return nil, err
	}
	return b.run(ctx)
}

type builder struct {
	opts    Options
	root    string
	cfg     *config.Config
	workers int
	store   *cache.Store
}

func newBuilder(opts Options) (*builder, error) {
	root, dir, err := roots(opts.Root, opts.Dir)
	if err != nil {
		return nil, err
	}
	cfg := opts.Config
	if cfg == nil {
		if cfg, err = config.Load(root, opts.ConfigPath); err != nil {
			return nil, err
		}
	}
	b := &builder{opts: opts, root: root, cfg: cfg, workers: opts.Workers}
	b.opts.Dir = dir
	if b.workers <= 0 {
		b.workers = runtime.GOMAXPROCS(0)
	}
	if b.opts.MaxFileSize <= 0 {
		b.opts.MaxFileSize = 64 << 20
	}
	if b.opts.Now == nil {
		b.opts.Now = time.Now
	}
	if opts.CacheDir != "" {
		b.store = cache.NewStore(opts.CacheDir, root)
	}
	return b, nil
}

// roots resolves the root and the working folder to absolute paths.
func roots(root, dir string) (string, string, error) {
	if root == "" {
		root = dir
	}
	if root == "" {
		root = "."
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", "", fmt.Errorf("resolve root: %w", err)
	}
	st, err := os.Stat(absRoot)
	if err != nil {
		return "", "", fmt.Errorf("root: %w", err)
	}
	if !st.IsDir() {
		return "", "", fmt.Errorf("root %s is not a folder", absRoot)
	}
	if dir == "" {
		return absRoot, absRoot, nil
	}
	absDir, err := filepath.Abs(dir)
	return absRoot, absDir, err
}

func (b *builder) run(ctx context.Context) (*Index, error) {
	start := b.opts.Now()
	ix := &Index{Root: b.root, Searched: b.root, cfg: b.cfg, CacheDir: b.opts.CacheDir}
	for _, w := range b.cfg.Warnings {
		ix.Problems = append(ix.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: config.FileName, Message: w})
	}
	// The cache is read and decoded while the walk runs: the walk waits
	// mostly on the kernel, and neither needs the other until level 2.
	loaded := make(chan cacheLoad, 1)
	go func() { loaded <- b.loadCache() }()
	l1, whole, err := b.level1(ctx, ix)
	if err != nil {
		<-loaded
		return nil, err
	}
	r := newResolver(b.root, b.cfg, &b.opts, l1)
	cands := l1.resolve(r, b.root, b.opts.Frameworks)
	ix.Stats.Walk = time.Since(start)
	ix.Stats.Candidates = len(cands)

	cl := <-loaded
	snap := cl.snap
	if cl.problem != nil {
		ix.Problems = append(ix.Problems, *cl.problem)
	}
	t2 := time.Now()
	results, err := level2(ctx, cands, snap, b.workers, b.opts.MaxFileSize, start.UnixNano())
	if err != nil {
		return nil, err
	}
	ix.Stats.Extract = time.Since(t2)

	aux := newAuxLoader(b.root, snap, start.UnixNano())
	for _, p := range r.projects {
		if p != nil {
			p.Load = aux.load
		}
	}
	ix.Problems = append(ix.Problems, l1.problems...)
	t3 := time.Now()
	ix.Problems = append(ix.Problems, link(r, results)...)
	ix.Stats.Link = time.Since(t3)
	ix.Problems = append(ix.Problems, r.probs...)
	b.saveCache(ix, snap, results, whole, start, aux)
	t4 := time.Now()
	assemble(ix, r, results)
	ix.Stats.Assemble = time.Since(t4)
	return ix, nil
}

// level1 walks the root, or the named folders, and collects named files.
// whole reports whether the whole root was walked (so cache entries of
// vanished files can be dropped).
func (b *builder) level1(ctx context.Context, ix *Index) (*level1, bool, error) {
	l1 := newLevel1()
	wo := walkOptions(b.cfg, b.workers)
	wo.Escaped = func(rel string, dir bool) {
		l1.mu.Lock()
		defer l1.mu.Unlock()
		ix.Escapes = append(ix.Escapes, Escape{Path: rel, Dir: dir})
	}
	defer func() { slices.SortFunc(ix.Escapes, func(a, b Escape) int { return strings.Compare(a.Path, b.Path) }) }()
	if len(b.opts.Paths) == 0 {
		// Only an unrestricted listing sees every entry: a --framework
		// listing must not drop the other frameworks' cache entries.
		if b.opts.Files != nil {
			ix.Escapes = append(ix.Escapes, b.opts.Escapes...)
			l1.known(b.opts.Files)
			return l1, b.opts.Frameworks == nil, nil
		}
		return l1, b.opts.Frameworks == nil, l1.walk(ctx, b.root, wo)
	}
	targets, err := resolveTargets(b.root, b.opts.Dir, b.opts.Paths)
	if err != nil {
		return nil, false, err
	}
	var dirs []target
	for _, t := range targets {
		if t.dir {
			dirs = append(dirs, t)
		}
	}
	if len(targets) == 1 && targets[0].dir {
		ix.Searched = targets[0].abs
	}
	for _, t := range targets {
		if !t.dir && !covered(t.rel, dirs) {
			l1.explicit = append(l1.explicit, t)
		}
	}
	if len(dirs) == 0 {
		return l1, false, nil
	}
	// One walk from the root, restricted to the named folders, so that
	// every .gitignore between the root and a folder applies.
	for _, d := range dirs {
		wo.Within = append(wo.Within, d.rel)
	}
	return l1, len(dirs) == 1 && dirs[0].rel == "." && b.opts.Frameworks == nil, l1.walk(ctx, b.root, wo)
}

// cacheLoad is what loadCache read: the snapshot (never nil) and the
// warning to report when the cache could not be read.
type cacheLoad struct {
	snap    *cache.Snapshot
	problem *testdex.Problem
}

// loadCache reads the cache's snapshot; an unreadable cache is an empty
// snapshot and a warning.
func (b *builder) loadCache() cacheLoad {
	if b.store == nil {
		return cacheLoad{snap: &cache.Snapshot{Entries: map[string]*cache.Entry{}}}
	}
	snap, err := b.store.Load()
	if err != nil {
		return cacheLoad{snap: snap, problem: &testdex.Problem{Severity: testdex.SevWarning, Path: b.store.Path(), Message: err.Error()}}
	}
	return cacheLoad{snap: snap}
}

// saveCache folds the results into the snapshot and writes it when
// anything changed.
func (b *builder) saveCache(ix *Index, snap *cache.Snapshot, results []fileResult, whole bool, start time.Time, aux *auxLoader) {
	seen := aux.seen
	changed := snap.Dropped > 0 || aux.dirty
	for _, r := range results {
		key, _ := cacheKeys(r.cand)
		seen[key] = true
		switch {
		case r.hit:
			ix.Stats.Cached++
			if r.fresh != nil { // re-hashed: new stat, or a racy timestamp to settle
				snap.Entries[key] = r.fresh
				changed = true
			}
		case r.fresh != nil:
			ix.Stats.Parsed++
			snap.Entries[key], changed = r.fresh, true
		default:
			if _, ok := snap.Entries[key]; ok {
				delete(snap.Entries, key)
				changed = true
			}
		}
	}
	if whole {
		for k := range snap.Entries {
			if !seen[k] {
				delete(snap.Entries, k)
				changed = true
			}
		}
	}
	if b.store == nil || !changed {
		return
	}
	snap.Written = start.UnixNano()
	if err := b.store.Save(snap); err != nil {
		ix.Problems = append(ix.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: b.store.Path(), Message: err.Error()})
	}
}

// RootOf returns the absolute, clean root folder Build would use for root
// (resolved against dir when relative).
func RootOf(root, dir string) (string, error) {
	r, _, err := roots(root, dir)
	return r, err
}
