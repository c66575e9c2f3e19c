// Package skilltest implements the skill-test protocol (seed 002): a test
// is either a module (*.tests.mjs) whose default or runTests function
// returns {passed, failed, errors}, or an executable declared in
// testdex.toml that prints that JSON object or a TAP stream.
//
//	discovery:  a module's file name ──► one record (never imported)
//	            testdex.toml [skilltest] commands ──► one record each
//	            [skilltest] skills (a catalog) ──► a skill's record fields
//	            in its test's Meta; any other module an orphan (a warning)
//	running:    module  ──► node wrapper.mjs MODULE ──► result file (JSON)
//	            command ──► its argv, from the root ──► stdout (JSON or TAP)
//	            each in its own process, one after the other (modules at
//	            once, up to -j, with [skilltest] parallel), each module
//	            killed from outside at its per-test limit
//	results:    pass or fail, with the test's own counts (Event.Inner)
//
// A module's record is its file: its ID is the path alone (like a markdown
// spec), its Scope the folder and its Name the file name. A command's
// record is declared in testdex.toml, so that is its file: its ID is
// testdex.toml::NAME and its Line the declaration's. (The seed's brief
// anchored it to the script its argv names; but the walk's suffix filter
// cannot know which files a testdex.toml names, the first word may be a
// program on PATH (make, node), and a failure pointing at the declaration
// is the more useful location.)
//
// Files by role:
//
//	value          language.go (the Language: its frameworks' facts)
//	detection      detect.go commands.go (testdex.toml's declared commands)
//	extraction     skilltest.go commands.go (one record per module or command)
//	               catalog.go (the skill catalog: record fields, orphans)
//	running        runner.go wrapper.mjs
//	parsing        events.go module.go (result file) jsonresult.go tap.go
package skilltest
