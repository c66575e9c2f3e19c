package watch

import (
	"context"
	"sync"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/workspace"
)

// trigger is what starts a cycle.
type trigger string

const (
	onStart  trigger = "start"  // watch began: the work tree against HEAD, as `run --affected`
	onSave   trigger = "save"   // files changed: what they affect, and the failing tests
	onAll    trigger = "all"    // a: every test in the filters
	onFailed trigger = "failed" // f: the failing tests
	onRerun  trigger = "rerun"  // Enter: the last selection
	onFilter trigger = "filter" // t or p: every test the new filters keep
)

// request is a cycle to run, with a snapshot of the loop's state: the
// cycle's goroutine reads it and touches nothing else of the loop.
type request struct {
	trigger trigger
	set     workspace.ChangeSet
	saved   time.Time         // the first event of the save; zero for a key
	failing map[string]string // failing test ID -> its file
	retry   []item            // the selection of a cycle whose batch failed without results
	last    []item
	filters filters
	files   []string           // the root's files, as the watcher holds them (workspace.Options.Files)
	escapes []workspace.Escape // the links leaving the root its walks did not follow
}

// outcome is what a cycle did, for the loop to merge into its state.
type outcome struct {
	req     request
	items   []item
	sum     *workspace.Summary
	err     error
	results map[string]testdex.Event // final pass, fail or skip per test ID: a failure if any result under the ID failed
	first   time.Duration            // from the save to the first result; 0 for a key
	gone    []string                 // failing IDs whose tests the listing no longer holds
}

// cycle lists the root again from the files the watcher holds, without
// walking the tree (the cache makes it incremental: only files whose size
// or time changed are parsed), selects as the trigger says,
// runs the selection and reports it. It runs on its own goroutine.
func (l *loop) cycle(ctx context.Context, req request) outcome {
	out := outcome{req: req, results: map[string]testdex.Event{}}
	ix, err := l.ws.ListFiles(ctx, req.files, req.escapes) // listed from memory: the watcher follows every file the walk keeps
	if err != nil {
		out.err = err
		l.r.begin(string(req.trigger), req.set, 0, l.now(), req.filters)
		return out
	}
	items, note := l.selectItems(ctx, ix, req)
	items, out.gone = req.filters.apply(ix, items, req.failing)
	out.items = items
	if len(items) == 0 {
		l.r.begin(string(req.trigger), req.set, 0, l.now(), req.filters)
		if note == "" {
			note = "nothing to run"
		}
		l.r.note(note)
		return out
	}
	var once sync.Once
	var first time.Duration
	begin := func(n int) { once.Do(func() { l.r.begin(string(req.trigger), req.set, n, l.now(), req.filters) }) }
	prog := l.progress()
	defer prog.Finish()
	o := l.o.Run
	o.Planned = func(n int) { begin(n); prog.Planned(n) }
	o.Live = func(e testdex.Event) {
		if e.ID != "" && e.Action.Final() && first == 0 && !req.saved.IsZero() {
			first = l.now().Sub(req.saved) // Live calls one at a time
		}
		prog.Live(e)
	}
	ids, paths := split(items)
	runReq := workspace.Request{IDs: ids, Paths: paths, Chosen: true, Options: o, Warn: l.warn}
	var mu sync.Mutex
	sum, err := l.ws.Run(ctx, ix, runReq, workspace.HandlerFunc(func(e testdex.Event) error {
		if e.ID != "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail || e.Action == testdex.ActionSkip) {
			mu.Lock()
			if prev, ok := out.results[e.ID]; !ok || prev.Action != testdex.ActionFail {
				out.results[e.ID] = e // tests sharing an ID: any failure keeps it failing
			}
			mu.Unlock()
		}
		return prog.Around(func() error { return l.r.Event(e) })
	}))
	prog.Finish()
	begin(0)
	out.sum, out.err, out.first = sum, err, first
	return out
}

// selectItems is the selection the trigger asks for, before the filters,
// and a note when it is empty for a reason worth saying.
func (l *loop) selectItems(ctx context.Context, ix *workspace.Index, req request) ([]item, string) {
	failing := make([]item, 0, len(req.failing))
	for id := range req.failing {
		failing = append(failing, item{ID: id})
	}
	failing = append(failing, req.retry...)
	switch req.trigger {
	case onAll, onFilter:
		return l.scope(), ""
	case onFailed:
		if len(failing) == 0 {
			return nil, "no test is failing"
		}
		return failing, ""
	case onRerun:
		return req.last, "nothing ran yet: press a to run every test"
	case onStart:
		if req.set == nil {
			return nil, "watching: save a file, or press a to run every test"
		}
		if len(req.set) == 0 {
			return nil, "no change against HEAD: save a file, or press a to run every test"
		}
	}
	affected := l.affected(ctx, ix, req.set)
	note := workspace.AffectedSummary(req.set, affected)
	if len(affected) > 0 {
		note += ", none under the PATHs and filters"
	}
	return append(fromAffected(affected), failing...), note
}

// scope is every test watch was started on: its PATHs, or the root.
func (l *loop) scope() []item {
	if len(l.o.Paths) == 0 {
		return []item{{Path: "."}}
	}
	var out []item
	for _, p := range l.o.Paths {
		out = append(out, item{Path: p})
	}
	return out
}

// affected selects the test files the change set can affect, as
// `testdex affected` does (workspace.Affected): from the recorded
// per-test coverage where there is some, else from the sources.
func (l *loop) affected(ctx context.Context, ix *workspace.Index, set workspace.ChangeSet) []workspace.Affected {
	if len(set) == 0 {
		return nil
	}
	res, err := l.ws.Affected(ctx, ix, workspace.AffectedRequest{Set: set, NoCoverage: l.o.NoCoverage})
	if err != nil {
		l.warn(err.Error())
		return nil
	}
	for _, p := range res.Said() {
		l.warn(p.String())
	}
	for _, n := range res.Notes {
		l.warn(n)
	}
	return res.Affected
}

// startSet is the change watch begins with: the work tree against HEAD
// (empty, not nil, when clean), or nil outside a git work tree.
func startSet(ctx context.Context, ws *workspace.Workspace) workspace.ChangeSet {
	set, err := ws.GitChanges(ctx, "")
	if err != nil {
		return nil
	}
	if set == nil {
		set = workspace.ChangeSet{}
	}
	return set
}

// progress is the cycle's progress display, or one that shows nothing.
func (l *loop) progress() Progress {
	if l.o.NewProgress != nil {
		return l.o.NewProgress()
	}
	return noProgress{}
}

type noProgress struct{}

func (noProgress) Planned(int)                 {}
func (noProgress) Live(testdex.Event)          {}
func (noProgress) Around(f func() error) error { return f() }
func (noProgress) Finish()                     {}
