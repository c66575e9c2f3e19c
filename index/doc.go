// Package index is the discovery core of testdex: the one place that turns a
// folder into a list of tests. The CLI, the MCP server, the metadata file and
// the runner all call [Build]; nothing discovers tests a second way.
//
// Discovery runs in two levels, and never executes repository code:
//
//	Options ──► targets ──► level 1: walk ──────────► candidates (sorted)
//	            (paths,     (parallel, .gitignore,     (path, framework)
//	             root)       skip list, globs)               │
//	                                                         ▼
//	Index ◄── records ◄── level 2: extract ◄── cache (stat, then hash)
//	(tests,   (IDs, scope,  (go/parser, YAML,
//	 problems) projects)     one file at a time, in parallel)
//
// Level 1 only reads folders: each file is matched against every
// framework's testMatch and testPathIgnorePatterns globs, and manifests
// (go.mod, ...) are noted so every file can be given the project of its
// nearest manifest. Level 2 reads and parses the candidates with one
// extractor per language (internal/lang/*), reusing cached results for files
// whose size and mtime (or, failing that, content hash) are unchanged.
//
// Per-file trouble (a syntax error, an unreadable folder, a symlink loop, a
// binary file) is kept as a [testdex.Problem] on the Index and the rest of
// the listing goes on. Only a bad request fails Build: a named path that does
// not exist, a path outside the root, a broken configuration.
//
// The result is deterministic: the same tree gives the same records in the
// same order, sorted by file and then by position in the file.
package index
