// Package walk lists the files under a root in parallel, skipping what git
// ignores, hidden entries and well-known dependency and cache folders, and
// can say why any path was skipped.
//
//	Walk(ctx, root, opts, visit)
//	  fastwalk workers ──► folder callback: decide, then enter (read .gitignore,
//	  │                    notice a nested .git) ──► dirState kept per folder
//	  └──────────────────► file callback: decide against the parent's state
//	                         └──► visit(rel, d)   (concurrently)
//	  problems (unreadable folder, broken symlink, loop, bad ignore line)
//	  ──► sorted by path, returned as data
//
// Explain runs the same decisions along one path.
package walk
