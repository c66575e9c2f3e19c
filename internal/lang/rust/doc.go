// Package rust discovers the tests of cargo crates from a tree-sitter parse
// of their Rust sources, without building or running anything.
//
//	Cargo.toml ──Detector──▶ crate: targets (lib, bins, tests, examples, benches)
//	*.rs ──Extractor──▶ #[test] fns, test_case/rstest rows, quickcheck!/proptest!
//	                    blocks, doc tests; facts: `mod` declarations, test-declaring
//	                    macro_rules!, item-level macro invocations
//	     ──Linker────▶ module paths from each target root: Name = a::tests::t,
//	                   Scope = the target's root file (src/lib.rs, tests/it.rs);
//	                   macro invocations expanded in textual scope (macrolink.go);
//	                   records whose cfg(...) is false under the enabled features
//	                   and the host dropped (cfg.go, features.go)
//	cargo test -- --list ──Lister──▶ the same names, per target (runtime method)
//
// Files by role:
//
//	value          language.go (the Language: its frameworks' facts)
//	ID rules       naming.go (module paths to files and IDs)
//	detection      detect.go manifest.go features.go
//	extraction     extract.go walk.go attrs.go cfg.go docattr.go doctest.go
//	               reuse.go macroscan.go macrotok.go
//	linking        link.go facts.go macrolink.go macroexp.go (module paths,
//	               macro expansion)
//	listing        list.go (cargo test -- --list)
//	running        runner.go runner_targets.go runner_doc.go
//	parsing        runparse.go (libtest's output), junit.go (cargo-nextest's
//	               JUnit testcases, for history import)
//	coverage       cover.go cover_parse.go cover_tools.go (per-test runs,
//	               LLVM's tools as the fallback); profraw.go (raw profiles),
//	               covmap.go covdecode.go (a binary's coverage mapping),
//	               covlines.go covsegments.go (counts to lines, as llvm-cov)
//	impact graph   impact.go impact_deps.go
//	spans          spanner.go
package rust
