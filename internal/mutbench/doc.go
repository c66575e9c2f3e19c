// Package mutbench is the mutation benchmark of `testdex affected` (issue
// 8): on real projects from the registries, does the selection hold every
// test a change really breaks (safety, which must be 100 %), and how much
// of the suite does it cost?
//
//	project (installed) ──copy──► work copy ──► testdex list --json ──► listing
//	                                  │
//	     sites (seeded order) ──Apply─┤ one mutant at a time, restored after
//	                                  ├──► compile check (cheap ones only)
//	                                  ├──► native suite, runner's own report ──► tests that newly fail
//	                                  └──► testdex affected --files F --json  ──► selection
//	                                                   │
//	                failing ⊆ selection? (file level, test level) ──► Report
//
// Mutations (site.go, sites_go.go, sites_text.go) are one-token, one-line
// edits of non-test sources: == and !=, < and >=, > and <=, && and ||,
// binary + and -, integer constants (0 and 1, n to n+1), true and false,
// and a returned value replaced by its zero (Go: nil, "", 0, false or
// *new(T); Python None; JavaScript null). Go is read with go/scanner and
// go/ast; the other languages with a small lexer that leaves comments,
// strings, templates and regex literals alone, and TypeScript's type
// declarations and Rust's test modules too. The order is reproducible
// from the seed: each operator class shuffled, then taken in turn. A
// mutant that does not compile, where a check is cheap (go test -run ^$
// of its package, py_compile, node --check, esbuild, cargo test
// --no-run, Maven's compile within its run), counts apart and the next
// one is tried.
//
// A failing test counts as selected at file level when its test file is
// among the selected records' files (for a Go package's own failure, a
// build error, all of the package's test files), and at test level when
// its record, an ancestor's or a descendant's is selected; a test the
// listing lacks (named at run time) is resolved to its nearest listed
// ancestor, else to the file the runner names. The cost is the share of
// the unmutated suite's tests (as the runner counts them) selected at test
// level, and the share of test files.
//
// The projects, the command and the figures of a run are in README.md
// beside this file.
package mutbench
