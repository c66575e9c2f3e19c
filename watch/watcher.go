package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"

	"github.com/testdex/testdex/internal/walk"
	"github.com/testdex/testdex/workspace"
)

// Watcher watches the folders of a root that a listing walks, and turns
// fsnotify's events into file events under the same rules: a folder the
// walk skips (node_modules, target, .git, a gitignored one) gets no
// watch, so what happens there costs nothing, and a file it skips (a
// gitignored log, a hidden or junk file) is dropped. fsnotify has no
// recursive mode: a folder created later is walked and watched when its
// event arrives, and its files are passed on as created (they may have
// been written before the watch began).
//
// It keeps the set of files the walk kept (about 100 bytes each, 10 MB
// for 100,000 files) to tell a file saved by rename from a new one.
type Watcher struct {
	root string
	opts walk.Options
	fsw  *fsnotify.Watcher
	warn func(string)

	mu      sync.Mutex // the walk's callbacks run concurrently
	dirs    map[string]bool
	files   map[string]bool
	escapes map[string]bool // links leaving the root -> whether to a folder
	limited bool            // a watch could not be added; said once
}

// NewWatcher walks root with opts, watching every folder the walk enters.
// warn receives what cannot be watched; nil drops it.
func NewWatcher(ctx context.Context, root string, opts walk.Options, warn func(string)) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	if warn == nil {
		warn = func(string) {}
	}
	w := &Watcher{root: root, opts: opts, fsw: fsw, warn: warn, dirs: map[string]bool{}, files: map[string]bool{}, escapes: map[string]bool{}}
	if _, err := w.addTree(ctx, ""); err != nil {
		fsw.Close()
		return nil, err
	}
	return w, nil
}

// Close stops watching; Events and Errors are then closed.
func (w *Watcher) Close() error { return w.fsw.Close() }

// Events delivers fsnotify's raw events, for Handle.
func (w *Watcher) Events() <-chan fsnotify.Event { return w.fsw.Events }

// Errors delivers fsnotify's errors (an overflowed event queue).
func (w *Watcher) Errors() <-chan error { return w.fsw.Errors }

// Files returns the files the walk keeps under the root, as far as the
// events handled so far tell, in no order: what workspace.Options.Files
// takes (the index sorts the few it wants; sorting all of them each
// cycle would cost tens of milliseconds on a 100,000-file root).
func (w *Watcher) Files() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.files))
	for f := range w.files {
		out = append(out, f)
	}
	return out
}

// Escapes returns the symbolic links leaving the root that the walks
// did not follow (what workspace.Options.Escapes takes), sorted.
func (w *Watcher) Escapes() []workspace.Escape {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]workspace.Escape, 0, len(w.escapes))
	for p, dir := range w.escapes {
		out = append(out, workspace.Escape{Path: p, Dir: dir})
	}
	slices.SortFunc(out, func(a, b workspace.Escape) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Folders returns the number of folders watched.
func (w *Watcher) Folders() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.dirs)
}

// addTree walks the folder rel ("" for the root) as the listing's walk
// would, watches every folder it enters, and returns its files as events.
func (w *Watcher) addTree(ctx context.Context, rel string) ([]fileEvent, error) {
	opts := w.opts
	if rel != "" {
		opts.Within = []string{rel}
	}
	var out []fileEvent
	opts.Dirs = func(dir string) { w.watch(dir) }
	opts.Escaped = func(link string, dir bool) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.escapes[link] = dir
	}
	_, err := walk.Walk(ctx, w.root, opts, func(f string, _ fs.DirEntry) error {
		w.mu.Lock()
		out = append(out, fileEvent{Path: f, Existed: w.files[f]})
		w.files[f] = true
		w.mu.Unlock()
		return nil
	})
	return out, err
}

// watch adds a watch on the folder rel, once.
func (w *Watcher) watch(rel string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dirs[rel] {
		return
	}
	if err := w.fsw.Add(w.abs(rel)); err != nil {
		if !w.limited {
			w.limited = true
			w.warn(fmt.Sprintf("cannot watch %s: %v (saves there go unnoticed; on Linux raise fs.inotify.max_user_watches)", displayRel(rel), err))
		}
		return
	}
	w.dirs[rel] = true
}

func (w *Watcher) abs(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

func displayRel(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// Handle turns one fsnotify event into file events: none for a skipped
// or junk path or a mere change of mode, the file itself for a file, and
// every file of a folder created (now watched) or removed.
func (w *Watcher) Handle(ctx context.Context, ev fsnotify.Event) []fileEvent {
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return nil
	}
	rel = filepath.ToSlash(rel)
	if ev.Op == fsnotify.Chmod || junk(rel) {
		return nil
	}
	if path.Base(rel) == ".gitignore" && !w.opts.NoIgnore {
		return w.rescan(ctx)
	}
	fi, err := os.Lstat(ev.Name)
	switch {
	case errors.Is(err, fs.ErrNotExist): // removed, or renamed away
		return w.gone(rel)
	case err != nil:
		return nil
	case fi.IsDir():
		if w.watched(rel) || w.skipped(rel) {
			return nil
		}
		evs, err := w.addTree(ctx, rel)
		if err != nil && ctx.Err() == nil {
			w.warn(err.Error())
		}
		return evs
	case !w.known(rel) && w.skipped(rel):
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	existed := w.files[rel]
	w.files[rel] = true
	return []fileEvent{{Path: rel, Existed: existed}}
}

// gone forgets the path rel, a file or a folder that no longer exists,
// and returns the known files it held as events.
func (w *Watcher) gone(rel string) []fileEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []fileEvent
	if w.files[rel] {
		delete(w.files, rel)
		out = append(out, fileEvent{Path: rel, Existed: true})
	}
	if !w.dirs[rel] {
		return out
	}
	prefix := rel + "/"
	for d := range w.dirs {
		if d == rel || strings.HasPrefix(d, prefix) {
			_ = w.fsw.Remove(w.abs(d)) // the kernel may have dropped it already
			delete(w.dirs, d)
		}
	}
	for f := range w.files {
		if strings.HasPrefix(f, prefix) {
			delete(w.files, f)
			out = append(out, fileEvent{Path: f, Existed: true})
		}
	}
	return out
}

func (w *Watcher) known(rel string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.files[rel]
}

func (w *Watcher) watched(rel string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dirs[rel]
}

// skipped reports whether the listing's walk skips the path rel (an error,
// a path gone meanwhile, counts as skipped).
func (w *Watcher) skipped(rel string) bool {
	skip, _, err := walk.Explain(w.root, rel, w.opts)
	return skip || err != nil
}

// exists reports whether the root-relative path exists now.
func (w *Watcher) exists(rel string) bool {
	_, err := os.Lstat(w.abs(rel))
	return err == nil
}

// rescan walks the whole root again, after an ignore file changed: the
// folders it now enters are watched, and the files it now keeps are
// passed on as new. Watches of folders it now skips stay (they cost a
// watch, and their events are dropped by the rules).
func (w *Watcher) rescan(ctx context.Context) []fileEvent {
	w.mu.Lock()
	old := w.files
	w.files = map[string]bool{} // what the walk keeps now: files now ignored leave it
	w.mu.Unlock()
	evs, err := w.addTree(ctx, "")
	if err != nil && ctx.Err() == nil {
		w.warn(err.Error())
	}
	var out []fileEvent
	for _, e := range evs {
		if !old[e.Path] {
			out = append(out, e)
		}
	}
	return out
}
