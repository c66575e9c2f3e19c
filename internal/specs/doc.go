// Package specs judges markdown specs with an agent CLI (docs/specs.md):
// the agents and their presets, the prompt, the driver that runs an
// agent, the reading of its answer, and the verdicts kept with their
// keys. The lang.Runner that uses it is internal/lang/markdown's (which
// parses the specs; this package sees plain data).
//
//	markdown runner                               specs
//	───────────────                               ─────
//	Reuse: key of each scenario ──────────────►  Changed(stored key, key) == ""
//	       ◄── known results ─────────────────   ReusedEvent (no agent call)
//	RunCommands: one command per spec ────────►  Prompt, Agent.Argv, Job (a file)
//	       testdex itself, JobEnv=job ──────────► drive: proc.Run(agent) ×
//	                                                 (Tries on an empty answer) ×
//	                                                 Judgements; one JSON line each
//	NewParser ────────────────────────────────►  Parser: Unwrap(format) →
//	                                                 ParseAnswers → RunEvents
//	                                                 (pass, fail; error: a fail)
//	                                              Close: Agreement, UpdateStore,
//	                                                 the debug file
//
// Every process is started by internal/proc: the driver by the run core,
// the agent by the driver, each in its own process group. Verdicts go
// through internal/state (StorePath).
package specs
