package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/charlievieth/fastwalk"
	"github.com/testdex/testdex"
)

// errStopped makes fastwalk unwind after cancellation or a visit error.
var errStopped = errors.New("walk stopped")

// walker is the state of one Walk shared by the fastwalk workers.
type walker struct {
	*config
	prefix  string // what fastwalk puts before every root-relative path
	visit   func(rel string, d fs.DirEntry) error
	dirs    sync.Map // root-relative folder -> *dirState, stored before its children are read
	stopped atomic.Bool

	mu       sync.Mutex
	problems []testdex.Problem
	visitErr error
}

// Walk calls visit for every regular file, and every symlink to a regular
// file, under root that is not skipped, with its root-relative,
// slash-separated path. visit runs concurrently on up to opts.Workers
// goroutines; if it returns an error the walk stops and Walk returns that
// error.
//
// An entry is skipped when it is a folder named in the skip list, when its
// name starts with "." (unless opts.Hidden), or when the .gitignore files
// and .git/info/exclude say so (unless opts.NoIgnore); nothing inside a
// skipped folder is seen. The root's own name is never judged. Ignore files
// above root are not read, nor the user's global core.excludesFile, so the
// result depends on the tree alone. Symlinks to folders are followed, except
// into a folder that is already one of their ancestors and to a folder whose
// real path (every symlink resolved, the root's included) lies outside the
// root: a link to "/" would otherwise walk the whole machine. Symlinks to
// files are visited when their real file lies inside the root too (a link
// to /etc/passwd is not read).
//
// Problems (unreadable folders, broken symlinks, symlink loops, symlinks
// leaving the root, unusable ignore lines) come back as data with root-relative paths, sorted by path,
// and the walk goes on. The error is non-nil only when root itself cannot be
// walked, ctx is cancelled, or visit fails.
func Walk(ctx context.Context, root string, opts Options, visit func(rel string, d fs.DirEntry) error) ([]testdex.Problem, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w := &walker{config: newConfig(root, opts), visit: visit}
	w.prefix = w.root + string(filepath.Separator)
	if strings.HasSuffix(w.root, string(filepath.Separator)) {
		w.prefix = w.root
	}
	fi, err := os.Stat(w.root)
	if err == nil && !fi.IsDir() {
		err = errors.New("not a folder")
	}
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", root, err)
	}
	st, probs := w.enter(nil, "")
	w.report(probs...)
	w.dirs.Store("", st)
	w.entered("")

	stop := context.AfterFunc(ctx, func() { w.stopped.Store(true) })
	defer stop()
	conf := fastwalk.Config{NumWorkers: opts.workers()}
	err = fastwalk.Walk(&conf, w.root, w.callback)
	slices.SortFunc(w.problems, compareProblems)
	switch {
	case errors.Is(err, errStopped) && w.visitErr != nil:
		return w.problems, w.visitErr
	case errors.Is(err, errStopped):
		return w.problems, ctx.Err()
	}
	return w.problems, err
}

// compareProblems orders problems by path, line, then message.
func compareProblems(a, b testdex.Problem) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return strings.Compare(a.Message, b.Message)
}

// report records problems; safe for concurrent use.
func (w *walker) report(p ...testdex.Problem) {
	if len(p) == 0 {
		return
	}
	w.mu.Lock()
	w.problems = append(w.problems, p...)
	w.mu.Unlock()
}

// callback is the fastwalk callback: it runs concurrently, once per entry,
// a folder's call always before those of its children.
func (w *walker) callback(p string, d fs.DirEntry, err error) error {
	if w.stopped.Load() {
		return errStopped
	}
	if p == w.root {
		if err != nil {
			return fmt.Errorf("walk %s: %w", w.root, err)
		}
		return nil
	}
	rel := filepath.ToSlash(strings.TrimPrefix(p, w.prefix))
	if err != nil {
		w.report(problem(testdex.SevError, rel, "cannot read folder", err))
		return nil
	}
	dir, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, name = rel[:i], rel[i+1:]
	}
	v, ok := w.dirs.Load(dir)
	if !ok { // cannot happen: fastwalk reports a folder before its entries
		w.report(testdex.Problem{Severity: testdex.SevError, Path: rel, Message: "internal error: entry seen before its folder; skipped"})
		return nil
	}
	parent := v.(*dirState)
	switch typ := d.Type(); {
	case typ.IsDir():
		return w.onDir(parent, name, rel)
	case typ&fs.ModeSymlink != 0:
		return w.onLink(parent, p, name, rel, d)
	case typ.IsRegular():
		return w.onFile(parent, name, rel, d)
	}
	return nil // devices, pipes, sockets
}

// onDir decides a folder and, when it is kept, prepares its state.
func (w *walker) onDir(parent *dirState, name, rel string) error {
	switch w.opts.within(rel) {
	case scopeOutside:
		return fastwalk.SkipDir
	case scopeInside:
		if w.decide(parent, name, rel, true).why != keep {
			return fastwalk.SkipDir
		}
	}
	st, probs := w.enter(parent, rel)
	w.report(probs...)
	w.dirs.Store(rel, st)
	w.entered(rel)
	return nil
}

// entered tells opts.Dirs of a folder the walk enters.
func (w *walker) entered(rel string) {
	if w.opts.Dirs != nil {
		w.opts.Dirs(rel)
	}
}

// onFile decides a file and visits it when it is kept.
func (w *walker) onFile(parent *dirState, name, rel string, d fs.DirEntry) error {
	if s := w.opts.within(parent.rel); s == scopeOnWay || s == scopeOutside {
		return nil
	}
	if w.decide(parent, name, rel, false).why != keep {
		return nil
	}
	if err := w.visit(rel, d); err != nil {
		w.mu.Lock()
		if w.visitErr == nil {
			w.visitErr = err
		}
		w.mu.Unlock()
		w.stopped.Store(true)
		return errStopped
	}
	return nil
}

// onLink follows a symlink: to a file it is visited like one, to a folder
// it is entered unless its real target lies outside the root or that would
// loop (both warnings, as is a dangling link).
func (w *walker) onLink(parent *dirState, p, name, rel string, d fs.DirEntry) error {
	fi, err := fastwalk.StatDirEntry(p, d)
	if err != nil {
		msg := "broken symlink"
		if errors.Is(err, syscall.ELOOP) {
			msg = "symlink loop"
		}
		w.report(problem(testdex.SevWarning, rel, msg, err))
		return nil
	}
	if fi.Mode().IsRegular() {
		if msg := w.escape(p); msg != "" && w.opts.within(rel) == scopeInside {
			w.report(testdex.Problem{Severity: testdex.SevWarning, Path: rel, Message: strings.Replace(msg, "not followed", "not read", 1)})
			if w.opts.Escaped != nil {
				w.opts.Escaped(rel, false)
			}
			return nil
		}
		return w.onFile(parent, name, rel, d)
	}
	if !fi.IsDir() {
		return nil
	}
	switch w.opts.within(rel) {
	case scopeOutside:
		return nil
	case scopeInside:
		if w.decide(parent, name, rel, true).why != keep {
			return nil
		}
	}
	if msg := w.escape(p); msg != "" {
		w.report(testdex.Problem{Severity: testdex.SevWarning, Path: rel, Message: msg})
		if w.opts.Escaped != nil {
			w.opts.Escaped(rel, true)
		}
		return nil
	}
	if anc := w.ancestor(parent, fi); anc != nil {
		w.report(testdex.Problem{Severity: testdex.SevWarning, Path: rel,
			Message: fmt.Sprintf("symlink loop: points to %q, which contains it; not followed", displayRel(anc.rel))})
		return nil
	}
	st, probs := w.enter(parent, rel)
	w.report(probs...)
	w.dirs.Store(rel, st)
	w.entered(rel)
	return fastwalk.ErrTraverseLink
}

// ancestor returns the folder among dir and its ancestors that is the same
// file as fi, or nil.
func (w *walker) ancestor(dir *dirState, fi fs.FileInfo) *dirState {
	for s := dir; s != nil; s = s.parent {
		if sfi, err := os.Stat(w.abs(s.rel)); err == nil && os.SameFile(sfi, fi) {
			return s
		}
	}
	return nil
}
