// Package ignore matches paths against gitignore(5) rules and agrees with
// git on every path (a differential test against the git binary keeps it
// so). It is modelled on ripgrep's ignore crate: one immutable [Matcher] per
// folder, chained to its parent's, so parallel walkers match without locks,
// and every [Decision] names the [Rule] (file, line, pattern) that made it.
//
//	Parse(".gitignore", data) ──► []Rule (+ problems for unusable lines)
//	New("", exclude, rules)   ──► *Matcher for the repository root
//	m.Child("a", rules)       ──► *Matcher for folder a, chained to m
//	m.Match("a/b.log", false) ──► Decision{Rule: a/.gitignore:3: *.log}
//
// Reading files is left to the caller (package walk), which also decides
// where repositories start.
package ignore
