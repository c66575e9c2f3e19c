package index

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/lang"
)

// auxLoader serves lang.Project.Load: Linkers read files that are not test
// files (a helper module a test class inherits from) through the same
// snapshot as candidates, so a warm listing re-reads none of them. Entries
// are keyed apart from candidates ("#aux") and by the extractor's key, so
// one file read by several extractors (a module's exports, its tests under
// a describe) keeps an entry for each rather than one they take turns to
// replace; they count as seen, so they are kept as long as they are used.
type auxLoader struct {
	root    string
	real    string // root with its symbolic links resolved
	snap    *cache.Snapshot
	checked int64 // the build's start, recorded on entries read now

	mu    sync.Mutex
	seen  map[string]bool
	dirty bool
}

func newAuxLoader(root string, snap *cache.Snapshot, checked int64) *auxLoader {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		real = root
	}
	return &auxLoader{root: root, real: real, snap: snap, checked: checked, seen: map[string]bool{}}
}

// load implements lang.Project.Load. It is safe for concurrent use: the
// snapshot is touched under the lock, the file is read and extracted
// outside it.
func (a *auxLoader) load(abs string, ex lang.Extractor, s lang.Settings) (lang.Result, error) {
	// Nothing outside the root is read, by its path or its link's
	// target: an import that resolves there (Python's stdlib beside a
	// listed Lib/test, a relative import climbing out of the tree) is a
	// module the listing does not know, as if it were missing.
	if !inside(filepath.Clean(abs), a.root) {
		return lang.Result{}, &OutsideRootError{Path: abs, Root: a.root}
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil && !inside(real, a.real) {
		return lang.Result{}, &OutsideRootError{Path: abs, Root: a.root}
	}
	rel, err := filepath.Rel(a.root, abs)
	if err != nil {
		rel = abs
	}
	rel = filepath.ToSlash(rel)
	exKey := ex.CacheKey() + "|" + s.Key()
	key := cache.Key(rel, string(ex.Framework())+"#aux#"+strconv.FormatUint(xxh3.HashString(exKey), 16))
	info, err := os.Stat(abs)
	if err != nil {
		return lang.Result{}, err
	}
	size, mtime := info.Size(), info.ModTime().UnixNano()
	a.mu.Lock()
	a.seen[key] = true
	e := a.snap.Trusted(key, size, mtime, exKey)
	a.mu.Unlock()
	if e != nil && fresh(ex, e.Result) {
		return e.Result, nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return lang.Result{}, err
	}
	sum := xxh3.Hash(data)
	a.mu.Lock()
	e = a.snap.Matching(key, sum, exKey)
	a.mu.Unlock()
	res := lang.Result{}
	if e != nil && fresh(ex, e.Result) {
		res = e.Result
	} else {
		res = safeExtract(ex, &lang.File{Rel: rel, Abs: abs, Data: data, Framework: ex.Framework(), Settings: s})
	}
	a.mu.Lock()
	a.snap.Entries[key] = &cache.Entry{Size: size, MTime: mtime, Checked: a.checked, Hash: sum, ExtractorKey: exKey, Result: res}
	a.dirty = true
	a.mu.Unlock()
	return res, nil
}

// fresh reports whether a cached result of ex still holds: always, but
// for a lang.Rechecker's, which it asks.
func fresh(ex lang.Extractor, cached lang.Result) bool {
	r, ok := ex.(lang.Rechecker)
	return !ok || r.Fresh(cached)
}
