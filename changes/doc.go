// Package changes answers `testdex affected`: which tests a change can
// affect. It joins three things, each in its own file, so a selection is
// easy to follow and to explain:
//
//	changeset.go   the change: git diff against a revision, untracked files
//	               (or files named with --files)
//	graph.go       the edges: per project, what its files use (lang.Grapher,
//	               one per ecosystem, reading sources, never running them)
//	select.go      the join: a walk from each changed file over the reversed
//	               edges to the test files, keeping the chain that explains it
//	narrow.go      a modified file's change narrowed to what changed in it
//	               (lang.Differ: Go's declarations)
//	broken.go      a changed file that breaks a build (lang.BuildChecker: it
//	               does not parse or type-check): every test that uses the
//	               unit that no longer builds, whole, whatever narrowing or
//	               recorded coverage say
//
//	git / --files ──► Set ─┐
//	                       ├──► Select ──► []Affected{File, Tests, Reason}
//	index ──► Graphers ──► Graph
//
// Safety before savings: a project without a Grapher, a file a Grapher
// could not read, an import it could not resolve, all select more, never
// less (see lang.AnyNode and lang.UnresolvedNode).
package changes
