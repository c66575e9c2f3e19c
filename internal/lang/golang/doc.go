// Package golang is the Go test extractor: it finds the tests, benchmarks,
// fuzz targets, examples and statically knowable subtests declared in one
// _test.go file, exactly as `go test` would name and select them, without
// building or running anything.
//
// The flow of one [Extractor.Extract] call:
//
//	file bytes ─► build constraints (go/build.Context.MatchFile on the bytes)
//	           │      excluded ─► empty Result
//	           ▼
//	go/parser (SkipObjectResolution; ParseComments only if "Example" occurs)
//	           │      syntax errors ─► error Problems, walk the partial AST
//	           ▼
//	top-level funcs (cmd/go's isTest / isTestFunc / checkTestFunc rules)
//	           │      wrong signature ─► error Problem, not a test
//	           ▼
//	bodies walked in execution order ─► t.Run / b.Run subtests, f.Add seeds
//	           │      constant names evaluated (go/constant, real fmt/strconv),
//	           │      tables and loops over literals unrolled,
//	           │      anything else ─► one Dynamic record per call site
//	           ▼
//	names rewritten and de-duplicated as package testing does ─► lang.Result
//
// The rules that cmd/go and package testing apply are mirrored in
// funcs.go (selection), names.go (rewrite, unique, -run patterns) and
// build.go (constraints); each cites the source it follows.
package golang
