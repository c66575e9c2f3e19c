// Package run is the execution core of testdex: it runs the tests that
// `testdex list` printed, through their native runners, and turns every
// framework's output into one stream of testdex.Events. It never discovers
// tests; it receives records from package index.
//
//	selected records ──► index.Plan ──► batches (project × framework)
//	                                       │  -j in parallel
//	                                       ▼
//	         lang.Runner.RunCommands ──► proc.Run (own process group,
//	                                       │   timeout, SIGTERM→SIGKILL,
//	                                       │   capped output, leak check)
//	                                       ▼
//	         lang.Parser (stdout, streamed) ──► RunEvents (scope, name)
//	                                       │
//	                 names ──► IDs ◄───────┘
//	                                       ▼
//	        Handler (events in batch order) ──► text, JSON Lines, JUnit XML
package run
