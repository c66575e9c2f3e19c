// Package run is the execution core of testdex: it runs the tests that
// `testdex list` printed, through their native runners, and turns every
// framework's output into one stream of testdex.Events. It never discovers
// tests: it receives a plan (package plan), plain data that index made
// from a listing here or that was read from a file another machine wrote,
// and names what the runners report by the plan's own listing. It
// imports neither index nor changes; the session around a run (resolving
// a request, `--changed`, the stores a run leaves) is package workspace's.
//
//	plan.Plan ──► batches (project × framework, bound to live runners)
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
