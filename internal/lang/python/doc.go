// Package python discovers Python tests, pytest's and unittest's, from a
// tree-sitter parse of each file; it never imports the code. Its Detector
// reproduces pytest's rootdir and configuration rules, its Extractor reads
// one file, and its Linker resolves class inheritance across the project
// and gives records their final names (pytest node IDs or unittest dotted
// IDs).
//
// Files by role:
//
//	value          language.go (the Language: its frameworks' facts)
//	ID rules       naming.go (node IDs and dotted names to IDs and back)
//	detection      detect.go setup.go config.go expr.go (rootdir, ini files,
//	               -m and -k)
//	extraction     extract.go skeleton.go skeleton_tokens.go (the bodies
//	               the walker never reads blanked before the parse)
//	               reparse.go params.go marks.go fixtures.go
//	               testfuncs.go (module-level test functions, the names
//	               bound to them, their parameters that ask for fixtures)
//	               doctest.go hide.go dynamic.go dynfunc.go loadsuite.go (the walker:
//	               tests and tables found, records emitted)
//	               localsloop.go (methods a class-body loop binds
//	               through locals()) decons.go (the namespace of a class
//	               another module's decorator may fill)
//	evaluation     value.go values.go literal.go repr.go numbers.go
//	               seqs.go idfunc.go platform.go (the evaluator: the
//	               module's names, the sequences pytest iterates,
//	               the values of parameters and ids= as pytest computes
//	               them, and platform conditions as they fall on this host)
//	               fsskip.go (module-level skips that hang on the tree:
//	               a folder's presence, a source build, a function of
//	               another module that checks a folder)
//	               funcs.go (the module's helper functions run over their
//	               source) helperdefs.go (which defs are run, and safely)
//	               rebound.go (names bound more than once, read
//	               where they are used) objects.go (instances of the
//	               module's record classes, conditions, ints and
//	               timedeltas compared)
//	               iters.go (itertools, zip, enumerate, map, slices,
//	               dict items and str.format over known sequences)
//	               spent.go (iterators spent after one pass: a name
//	               bound to one read once, tables of one dynamic where
//	               more than one test collects them)
//	naming         ids.go (pytest's parametrize IDs from those values)
//	metaclasses    metaclass.go (what a metaclass's __init__ adds, run over
//	               literal tables)
//	linking        link.go classes.go prefetch.go assume.go dynlink.go
//	               facts.go (helper modules read ahead in parallel)
//	               specialize.go (classes a factory names from a class)
//	               copies.go (classes a function copies from a module)
//	               loopclasses.go (classes a module-level loop makes)
//	               factory.go (classes a function defines and returns)
//	               fslink.go (those skips decided on the tree, and a
//	               package's skip passed to the modules under it)
//	               decorun.go (a class decorator of another module run
//	               over a class's namespace) gnode.go (its function's
//	               tree copied into Go)
//	listing        lister.go (pytest --collect-only, unittest discovery)
//	running        runner.go runner_interp.go runner_pytest.py
//	               runner_unittest.py
//	parsing        runner_parse.go (the drivers' JSON events), junit.go
//	               (pytest's --junitxml testcases, for history import)
//	coverage       coverage.go runner_coverage.py
//	impact graph   impact.go impact_scan.go impact_parse.go impact_resolve.go
//	               impact_data.go impact_exec.go impact_cache.go
//	spans          spanner.go stmtdiff.go body.go (where a body starts)
package python
