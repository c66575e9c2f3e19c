// Package watch is the edit loop of `testdex watch`: it watches a root,
// and after each save reruns the tests the change can affect, with the
// tests still failing, until told to stop.
//
//	fsnotify ──► Watcher: one watch per folder a walk enters (ignore rules
//	  │          applied), new folders walked and watched, editor junk dropped
//	  ▼
//	Debouncer: events coalesced per path until 100 ms pass without one
//	  │
//	  ▼               keys (a f t p Enter q) ──┐
//	cycle: Workspace.ListFiles (cached: only what changed is parsed again)
//	  ──► previous: each modified file's base (HEAD's commit, or what it
//	      held at its previous cycle), for Go's narrowing
//	  ──► Workspace.Affected (what `testdex affected` selects)
//	  ──► Workspace.Run (what `testdex run` runs) ──► render (text or JSON)
//
// Of testdex's packages, watch imports the workspace (the engine and its
// vocabulary), internal/report and internal/walk (to place its watches
// on exactly the folders the listing walks); never a core.
//
// One goroutine owns the state (the failing tests, the filters, the
// pending events); a cycle runs in a second one, so a key or a save is
// taken while tests run, and cancelling the loop's context stops the
// running batch as it stops `testdex run`. Between saves nothing polls:
// the loop sleeps in a select on the watcher, the keys and the context.
package watch
