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
//	           │      helpers given the T inlined at each call (helpers.go),
//	           │      anything else ─► one Dynamic record per call site
//	           ▼
//	names rewritten and de-duplicated as package testing does ─► lang.Result
//	           │      + Facts: helpers declared, helpers of other files called
//	           ▼
//	Linker (link.go): a file whose tests call a helper of another test file
//	of its package is extracted again with that file within reach
//	(pkgctx.go), through the cache; then Scope and fuzz corpus
//
// Decisions a reader of the output should know:
//
//   - Tags: every record of a file that has a constraint (a _GOOS/_GOARCH
//     name, a //go:build or // +build header, import "C") carries one tag
//     "go:build EXPR", EXPR being the whole constraint as a //go:build
//     expression (for example "go:build linux && amd64 && cgo"), in both
//     modes. With AllPlatforms it tells which files this machine would skip.
//   - Run: the -run pattern of each level, ^QuoteMeta(level)$, joined by
//     "/" (^TestFoo$/^case_1$). Benchmarks and their b.Run children need the
//     same pattern as -bench (with -run '^$' to skip tests); examples and
//     fuzz seeds (FuzzX/seed#N) are selected by -run. A Dynamic record's Run
//     is its parent's.
//   - Dynamic: a t.Run whose name is not a constant, or that sits in a loop
//     over unknown data, gives one record NAME = parent + "/{" + source of
//     the name expression + "}" (TestX/{tc.name}); its children are not
//     walked. Names of records may therefore contain "/" inside the braces:
//     use Parent, not the name, for the tree. A fuzz target's f.Add calls
//     of unknown count give FuzzX/{seed#?}, and no numbered seed after it.
//   - #NN suffixes after a dynamic sibling: constant siblings are still
//     listed, numbered as if the dynamic names differ from every constant
//     one. They are exact unless a run-time name coincides with a constant
//     one, which would shift the suffix of the later constant sibling; we
//     chose listing them (useful, nearly always right) over hiding them.
//   - A t.Run inside an if whose condition is not constant, or in a switch
//     case, is listed as if it runs; a constant condition (including one on
//     a table row's field, as in `if tc.skip { continue }`) is evaluated.
//   - Skip: a test is Skip when t.Skip, Skipf or SkipNow is reached
//     unconditionally in its body; records under a skipped test inherit it.
//   - Line: a subtest named from a table row has the row's line; others
//     the line of the t.Run call.
//   - Helpers: a function or closure of the package's test files that is
//     given the test's T and calls t.Run (or a method of those files, on a
//     receiver of known type) is walked at each call with its parameters
//     bound to the arguments; a closure that captures the T starts
//     subtests of the test it was written in. Records made inside take
//     the line of the outermost call (or of its table row). At most
//     maxInline helpers deep (recursion included), within the test's walk
//     budget; a call the walk cannot follow (too deep, the T wrapped, a
//     method on a receiver of unknown type) is one Dynamic record named
//     after the call and the reason, TestX/{check(t, …): nested too
//     deep}; a t.Run of unknown name inside a helper is TestX/{check:
//     name}.
//   - Exclusive paths: after `if c { ...; return }` with c unknown, what
//     follows is named as if the branch had not run, so the same t.Run on
//     both paths is one record (skipped only if both skip it).
//   - A call the walk does not follow (another package's function) that
//     is given the T and a closure that may start subtests is one Dynamic
//     record, TestX/{cryptotest.TestAllImplementations(t, "aes", …): not
//     followed}; a helper of the package given such a closure is walked.
//   - Not listed: t.Run inside f.Fuzz callbacks, t.Run in goroutines or
//     deferred calls, helpers of other packages given no closure
//     (cryptotest.TestHash(t, h)), function values the walk cannot
//     evaluate (a struct field called as tc.fn(t) included), and, across
//     files, a helper reached only through a function that takes no T
//     parameter. Seed files under testdata/fuzz come from the Linker.
//
// The rules that cmd/go and package testing apply are mirrored in
// funcs.go (selection), names.go (rewrite, unique, -run patterns) and
// build.go (constraints); each cites the source it follows.
//
// Files by role:
//
//	value          language.go (the Language: its frameworks' facts)
//	ID rules       naming.go (IDs of tests only go test reported)
//	detection      detect.go (go.mod projects)
//	extraction     extractor.go funcs.go walk.go assign.go runs.go loops.go
//	               typeswitch.go scope.go eval.go calls.go composite.go
//	               govalue.go helpers.go helpertext.go build.go
//	               inspect.go (ast.Inspect without its nil calls)
//	               quiet.go (test bodies whose text shows nothing to walk)
//	naming         names.go (package testing's names and -run patterns)
//	linking        facts.go link.go pkgctx.go corpus.go (fuzz seeds)
//	listing        lister.go (go test -list, the runtime method)
//	running        runner.go (commands, and the go test -json parser)
//	coverage       cover.go cover_parse.go (a process per test, asked or the fallback)
//	               cover_boundary.go cover_hook.go cover_intervals.go
//	               cover_decode.go (one go test, a hook at test boundaries: the default)
//	impact graph   impact.go impact_api.go impact_build.go impact_mod.go
//	               impact_scan.go impact_edges.go impact_cgo.go impact_lex.go
//	               impact_decl.go impact_declgraph.go impact_methods.go
//	               impact_diff.go impact_check.go impact_typecheck.go
//	               impact_cache.go impact_memo.go impact_reach.go (reachability
//	               from the functions a test ran, for shared processes)
//	spans          spanner.go (functions for the coverage index)
//	tools          cmd/gorootcheck (checks the listing against GOROOT's tests)
package golang
