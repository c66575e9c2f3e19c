// Package mcpserver serves testdex to coding agents over the Model Context
// Protocol, on the official Go SDK. It holds no discovery or execution
// logic: each tool is a thin adapter over package workspace, the engine
// the CLI adapts too; among testdex's own packages it imports only
// workspace, internal/report and the root vocabulary (TestImports).
//
//	stdin ──► lineTransport ──► mcp.Server   (a bad line gets a JSON-RPC error; reading goes on)
//
//	client ──► initialize, tools/list, tools/call, resources/read
//	             │
//	             ├─ discover_tests     ──► Workspace.List ──► Select, Under
//	             ├─ run_tests          ──► Workspace.List ──► (Affected) ──► Workspace.Run ──► report.Text
//	             │                           (the failures saved; the run kept in a store for its resources)
//	             ├─ last_test_failures ──► Workspace.Failures
//	             ├─ affected_tests     ──► Workspace.Affected
//	             ├─ tests_covering     ──► Workspace.Covering
//	             └─ every answer       ──► fit (budget.go): cut step by step to Config.Budget bytes,
//	                                        the rest at testdex://runs/{id}/... and testdex://answers/{id} (store.go)
//
// Every tool works in one root folder, the server's Config.Root; paths
// outside it are refused. A failure the agent can act on (no project, a
// bad path, a missing toolchain) is a tool error, which the agent sees; a
// failing test is a normal result.
package mcpserver
