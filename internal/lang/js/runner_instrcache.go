package js

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// The counting recorder keeps the files it instruments under the cache
// folder (js-instrument/ROOT.d/VERSION/HASH.js, one per file version,
// recorder version and root), and never removes one: a file edited a
// hundred times leaves a hundred. pruneInstruments bounds the folder.

// instrumentCacheMax bounds js-instrument/; pruning brings it down to
// three quarters of it, the files written first going first.
var instrumentCacheMax int64 = 256 << 20

// instrumentPruneEvery is how often a coverage run looks at the folder's
// size (a walk of every file in it), as the stamp file's age tells.
const instrumentPruneEvery = time.Hour

// pruneInstruments removes the oldest instrumented files (by their
// modification time: when they were written) under cache's js-instrument
// folder while it holds more than instrumentCacheMax bytes, and the
// folders left empty; at most once an instrumentPruneEvery. A file
// removed is instrumented again when next needed; errors are ignored for
// the same reason.
func pruneInstruments(cache string) {
	if cache == "" {
		return
	}
	root := filepath.Join(cache, "js-instrument")
	stamp := filepath.Join(root, ".pruned")
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < instrumentPruneEvery {
		return
	}
	if _, err := os.Stat(root); err != nil {
		return
	}
	type entry struct {
		path string
		size int64
		mod  time.Time
	}
	var files []entry
	var dirs []string
	var total int64
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root {
				dirs = append(dirs, p)
			}
			return nil
		}
		if p == stamp || !d.Type().IsRegular() {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			files = append(files, entry{p, fi.Size(), fi.ModTime()})
			total += fi.Size()
		}
		return nil
	})
	if total > instrumentCacheMax {
		slices.SortFunc(files, func(a, b entry) int { return a.mod.Compare(b.mod) })
		for _, f := range files {
			if total <= instrumentCacheMax/4*3 {
				break
			}
			if os.Remove(f.path) == nil {
				total -= f.size
			}
		}
		for _, d := range slices.Backward(dirs) { // the deepest first
			os.Remove(d) // only an empty one goes
		}
	}
	if f, err := os.Create(stamp); err == nil {
		f.Close()
	}
}
