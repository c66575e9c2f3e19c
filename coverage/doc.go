// Package coverage is the per-test coverage index of `testdex run
// --coverage` and `testdex covering`: for each test, the lines it
// executed per file, with the file's content hash and its functions'
// canonical hashes at recording time, so that a file edited since is
// answered through its unchanged functions or reported stale, never
// silently wrong.
//
//	runner (lang.Coverer) ──► ActionCovered ──► run.Run ──► Index.Replace
//	                                                              │ bbolt, per root
//	testdex covering / tests_covering ──► Index.Covering ◄────────┘
//
// The layout is inverted (see store.go): a query reads the entries of one
// file, never every test, and a run of a subset replaces only its tests'
// entries.
package coverage
