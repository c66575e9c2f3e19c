// Package js discovers JavaScript and TypeScript tests (.js .jsx .mjs .cjs
// .ts .tsx .mts .cts, ESM and CommonJS) of Jest, Vitest, Mocha and
// node:test, and the Glubean SDK's API tests (the exports of *.test.ts
// modules importing @glubean/sdk, in a Deno or Node project), by parsing
// with tree-sitter; no project code runs, not even configuration files
// such as jest.config.js, which are read as literals.
//
//	package.json ──Detector──▶ Project{Frameworks: jest, vitest, mocha, node}
//	                             │ Match: each framework's testMatch/include/spec
//	file ──Extractor(framework)──▶ describe/it/test tree, .each rows, t.test
//	project ──Lister──▶ the framework's own listing, for comparison
//
// Files by role:
//
//	value          language.go (the Language: its frameworks' facts)
//	ID rules       naming.go (titles joined by " > ")
//	detection      detect.go frameworks.go config.go patterns.go mocha.go
//	               nodetest.go typecheck.go (Vitest's type tests)
//	extraction     extract.go module.go walker.go spec.go lineage.go loops.go
//	               guards.go (elements a loop's guards skip)
//	               helpers.go imports.go recover.go (the walker: test calls
//	               found, records emitted)
//	evaluation     eval.go evalcall.go value.go jsops.go scope.go env.go
//	               mutated.go (the evaluator: the module's bindings and the
//	               values of titles and tables, no knowledge of tests)
//	               builtins.go (array, Set, string and regex builtins on
//	               data) regex.go (re.test where Go's engine agrees)
//	               replacefn.go (replace with such a regular expression or
//	               a replacement function)
//	               funcnames.go (a function's name, as loupe prints it)
//	               straight.go (functions whose bodies run straight to a
//	               value, JSON.stringify's replacer, Math)
//	               replay.go replayeach.go replayfor.go (the changes made
//	               before a read)
//	               host.go (the host's platform and node version)
//	naming         each.go format.go loupe.go (the frameworks' table titles)
//	               tsjest.go (functions as ts-jest compiles them)
//	linking        wire.go (local modules' values, as Facts carry them)
//	               importfns.go (imported functions' sources, with their
//	               module's literal consts)
//	               loads.go loadlink.go loadpath.go loadpred.go loadreaddir.go
//	               folderdata.go (titles from a folder's entries and the
//	               modules a computed require loads) linkcache.go (the
//	               second extraction, cached by what it read)
//	listing        lister.go lister_node_mocha.go
//	running        runner.go runner_args.go runner_install.go runner_script.go
//	               runner_shell.go runner_reporters.go runner_wrapper.cjs
//	parsing        runner_parse.go (standard output and the events file),
//	               junit.go (Vitest's and jest-junit's testcases, for history
//	               import)
//	coverage       runner_coverage.go runner_covnotes.go runner_covtables.go
//	               (the counting recorder's functions as lines) runner_coverage.cjs
//	               runner_instrument.cjs (the counting recorder: Mocha and
//	               node:test) acorn/ (its parser, vendored) runner_esm.go
//	               (whether the project can run ES modules: the loader hooks)
//	               runner_instrcache.go (the instrumented files' bound)
//	impact graph   impact.go impact_scan.go impact_resolve.go impact_packages.go
//	               impact_tsconfig.go impact_map.go impact_config.go
//	               impact_cache.go
//	spans          spanner.go stmtdiff.go body.go (where bodies lie)
//	Glubean        glubean.go glubean_chain.go (exports, builders, rows)
//	               glubean_detect.go (projects, files) glubean_runner.go
//	               glubean_lister.go (the runtime method: glubean scan)
package js
