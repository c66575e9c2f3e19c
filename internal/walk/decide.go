package walk

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/ignore"
)

// config is what every decision of one walk depends on. It is read-only
// once built, so workers share it.
type config struct {
	root     string // the cleaned root
	realRoot string // root with its symlinks resolved, absolute
	opts     Options
	skip     map[string]bool
}

func newConfig(root string, opts Options) *config {
	root = filepath.Clean(root)
	return &config{root: root, realRoot: realRoot(root), opts: opts, skip: opts.skipSet()}
}

// abs returns the file system path of the root-relative path rel.
func (c *config) abs(rel string) string {
	if rel == "" {
		return c.root
	}
	return filepath.Join(c.root, filepath.FromSlash(rel))
}

// dirState is what a folder's children need: the ignore rules in force and
// the chain of folders above, for symlink loop detection. Immutable.
type dirState struct {
	parent *dirState
	rel    string // root-relative; "" for the root
	ign    *ignore.Matcher
}

// reason says why an entry is skipped; keep means it is not.
type reason uint8

const (
	keep reason = iota
	skipListed
	hidden
	ignored
)

// verdict is the decision about one entry and what made it.
type verdict struct {
	why  reason
	name string
	rule *ignore.Rule // the deciding ignore rule, a negation when why is keep
	dflt bool         // the skip list was the default one
}

// String names the cause of the verdict: ".gitignore:3: *.log",
// "default skip list: node_modules", "hidden: .env"; "" for an entry no
// rule touched.
func (v verdict) String() string {
	switch v.why {
	case skipListed:
		if v.dflt {
			return "default skip list: " + v.name
		}
		return "skip list: " + v.name
	case hidden:
		return "hidden: " + v.name
	case ignored:
		return v.rule.String()
	}
	if v.rule != nil {
		return "re-included by " + v.rule.String()
	}
	return ""
}

// decide judges the entry name, at root-relative path rel, in the folder
// whose state is parent. The skip list comes first, then hidden names,
// then the ignore rules.
func (c *config) decide(parent *dirState, name, rel string, isDir bool) verdict {
	if isDir && c.skip[name] {
		return verdict{why: skipListed, name: name, dflt: c.opts.SkipDirs == nil}
	}
	if !c.opts.Hidden && name != "" && name[0] == '.' {
		return verdict{why: hidden, name: name}
	}
	d := parent.ign.Match(rel, isDir)
	if d.Ignored() {
		return verdict{why: ignored, name: name, rule: d.Rule}
	}
	return verdict{name: name, rule: d.Rule}
}

// enter builds the state of the folder rel, a kept child of parent (nil for
// the root): it reads the folder's .gitignore and, at the root or where a
// .git entry marks a nested repository, starts a new rule chain with that
// repository's .git/info/exclude.
func (c *config) enter(parent *dirState, rel string) (*dirState, []testdex.Problem) {
	st := &dirState{parent: parent, rel: rel}
	if c.opts.NoIgnore {
		return st, nil
	}
	dir := c.abs(rel)
	rules, probs := c.readRules(path.Join(rel, ".gitignore"))
	git, err := os.Lstat(filepath.Join(dir, ".git"))
	if parent != nil && err != nil {
		st.ign = parent.ign.Child(rel, rules)
		return st, probs
	}
	var exclude []ignore.Rule
	if err == nil && git.IsDir() {
		var more []testdex.Problem
		exclude, more = c.readRules(path.Join(rel, ".git/info/exclude"))
		probs = append(probs, more...)
	}
	st.ign = ignore.New(rel, exclude, rules)
	return st, probs
}

// readRules parses the ignore file at root-relative path rel; a missing
// file has no rules.
func (c *config) readRules(rel string) ([]ignore.Rule, []testdex.Problem) {
	data, err := os.ReadFile(c.abs(rel))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return nil, nil
	}
	if err != nil {
		return nil, []testdex.Problem{problem(testdex.SevWarning, rel, "cannot read ignore file", err)}
	}
	return ignore.Parse(rel, data)
}

// problem builds a Problem about rel from an operation and its error,
// leaving out the absolute path a *fs.PathError carries.
func problem(sev testdex.Severity, rel, op string, err error) testdex.Problem {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if rel == "" {
		rel = "."
	}
	return testdex.Problem{Severity: sev, Path: rel, Message: op + ": " + err.Error()}
}
