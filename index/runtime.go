package index

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/proc"
	"github.com/testdex/testdex/plan"
)

// Seen values: which discovery method found a record (testdex's).
const (
	SeenStatic  = testdex.SeenStatic
	SeenRuntime = testdex.SeenRuntime
)

// group is one (project, framework) pair of the listing, kept for the
// runtime method.
type group struct {
	proj  *lang.Project
	setup *lang.Setup
	files []string // project-relative candidate files
}

// ExactOptions configure the runtime method.
type ExactOptions struct {
	// Env is the environment of the frameworks' listing commands; nil
	// means an empty environment (callers pass os.Environ()).
	Env []string
	// Timeout bounds each listing command; 0 means 5 minutes.
	Timeout time.Duration
}

// Comparison is the outcome of the runtime method for a listing.
type Comparison struct {
	// StaticOnly are static records the framework should have reported but
	// did not; RuntimeOnly are tests the framework reported that no static
	// record names or covers (a dynamic record under the same parent covers
	// them). Covered counts runtime tests covered by a dynamic record.
	StaticOnly  []testdex.Test
	RuntimeOnly []testdex.Test
	Covered     int
	// Confirmed counts static records the framework also reported.
	Confirmed int
	// Failed lists the projects whose listing command failed.
	Failed []testdex.Problem
}

// Agree reports whether the two methods agree.
func (c *Comparison) Agree() bool {
	return len(c.StaticOnly) == 0 && len(c.RuntimeOnly) == 0 && len(c.Failed) == 0
}

// Exact runs each framework's own listing command (the runtime method: it
// executes project code) for every project of the index, and merges the
// result into ix: every record's Seen says static, runtime or both, and
// tests only the framework reported are appended with Seen [runtime]. A
// project whose command cannot run (a missing toolchain, a build failure)
// becomes a Problem and a Comparison.Failed entry; the others go on.
func (ix *Index) Exact(ctx context.Context, o ExactOptions) (*Comparison, error) {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	cmp := &Comparison{}
	byKey := map[string][]int{} // several for the tests of one name a JavaScript file declares
	for i := range ix.Tests {
		ix.Tests[i].Seen = []string{SeenStatic}
		k := plan.ResultKey(ix.Tests[i].Project, ix.Tests[i].Framework, ix.Tests[i].Scope, ix.Tests[i].Name)
		byKey[k] = append(byKey[k], i)
	}
	reported := map[int]bool{}
	var extra []testdex.Test
	n := ix.NewNamer()
	for _, g := range ix.groups {
		if g.setup.Lister == nil {
			continue
		}
		listed, prob := runLister(ctx, ix.Root, g, o)
		if prob != nil {
			cmp.Failed = append(cmp.Failed, *prob)
			ix.Problems = append(ix.Problems, *prob)
			continue
		}
		for _, l := range listed {
			if is, ok := byKey[plan.ResultKey(displayRel(ix.Root, g.proj.Dir), g.setup.Framework, l.Scope, l.Name)]; ok {
				for _, i := range is {
					reported[i] = true
				}
				continue
			}
			extra = append(extra, ix.runtimeRecord(n, g, l))
		}
		ix.judge(g, reported, cmp)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i := range reported {
		ix.Tests[i].Seen = []string{SeenStatic, SeenRuntime}
		cmp.Confirmed++
	}
	dyn := ix.dynamicIndex()
	for _, t := range extra {
		if dyn.covers(t) {
			cmp.Covered++
		} else {
			cmp.RuntimeOnly = append(cmp.RuntimeOnly, t)
		}
	}
	sort.SliceStable(extra, func(i, j int) bool { return extra[i].ID < extra[j].ID })
	ix.Tests = append(ix.Tests, extra...)
	return cmp, nil
}

// runLister runs one group's listing command and parses its output.
func runLister(ctx context.Context, root string, g *group, o ExactOptions) ([]lang.Listed, *testdex.Problem) {
	where := displayRel(root, g.proj.Dir)
	fail := func(msg string) *testdex.Problem {
		return &testdex.Problem{Severity: testdex.SevError, Path: where, Message: fmt.Sprintf("%s listing failed: %s", g.setup.Framework, msg)}
	}
	cmd, err := g.setup.Lister.ListCommand(g.proj, g.files)
	if err != nil {
		return nil, fail(err.Error())
	}
	env := append(append([]string{}, o.Env...), cmd.Env...)
	res, err := proc.Run(ctx, proc.Spec{Args: cmd.Args, Dir: cmd.Dir, Env: env, Timeout: o.Timeout, Cap: 64 << 20})
	var missing *proc.MissingError
	switch {
	case errors.As(err, &missing):
		return nil, fail(missing.Error())
	case err != nil:
		return nil, fail(err.Error())
	case res.TimedOut:
		return nil, fail(fmt.Sprintf("%s timed out after %v", strings.Join(cmd.Args, " "), o.Timeout))
	}
	listed, err := g.setup.Lister.ParseList(g.proj, res.Stdout, res.Stderr, res.ExitCode)
	if err != nil {
		return nil, fail(err.Error())
	}
	if len(listed) == 0 && res.ExitCode != 0 {
		return nil, fail(fmt.Sprintf("%s exited %d: %s", strings.Join(cmd.Args, " "), res.ExitCode, excerpt(res.Stderr, res.Stdout)))
	}
	return listed, nil
}

// excerpt returns the last lines of the first non-empty stream.
func excerpt(streams ...[]byte) string {
	for _, s := range streams {
		t := strings.TrimSpace(string(s))
		if t == "" {
			continue
		}
		lines := strings.Split(t, "\n")
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		return strings.Join(lines, " | ")
	}
	return "no output"
}

// judge counts the group's static records the framework should have
// reported but did not.
func (ix *Index) judge(g *group, reported map[int]bool, cmp *Comparison) {
	rep, _ := g.setup.Lister.(lang.Reporter)
	dir := displayRel(ix.Root, g.proj.Dir)
	for i := range ix.Tests {
		t := &ix.Tests[i]
		if t.Framework != g.setup.Framework || t.Project != dir || t.Dynamic || reported[i] || t.Kind == testdex.KindSuite {
			continue
		}
		if rep != nil && !rep.Reports(t) {
			continue
		}
		cmp.StaticOnly = append(cmp.StaticOnly, *t)
	}
}

// runtimeRecord makes a record for a test only the framework reported, by
// the ID rules every command uses (plan/namer.go): under its nearest listed
// ancestor, or at the top of its file, with Seen ["runtime"].
func (ix *Index) runtimeRecord(n *plan.Namer, g *group, l lang.Listed) testdex.Test {
	dir := displayRel(ix.Root, g.proj.Dir)
	file := ""
	if l.File != "" {
		file = joinRel(dir, l.File)
	}
	t, _ := n.Record(plan.Result{Project: dir, Framework: g.setup.Framework, Scope: l.Scope, Name: l.Name, File: file, Kind: l.Kind})
	t.Seen = []string{SeenRuntime}
	return t
}

// joinRel joins a root-relative folder and a path relative to it.
func joinRel(dir, rel string) string {
	if dir == "." || dir == "" {
		return rel
	}
	return dir + "/" + rel
}

// dynamicCover is what the dynamic records of an index cover, built once
// per comparison: a runtime-only test is covered when, in its framework
// and scope, its name starts with a dynamic record's parent's name. A
// dynamic record at top level stands for unknown tests anywhere in its
// scope (a file, a package); where the scope is empty (pytest, unittest)
// it covers the names that start with the literal text before its first
// placeholder.
type dynamicCover map[string][]string // framework, scope -> prefixes ("" covers all)

func (ix *Index) dynamicIndex() dynamicCover {
	names := make(map[string]string, len(ix.Tests))
	for _, d := range ix.Tests {
		names[d.ID] = d.Name
	}
	out := dynamicCover{}
	for _, d := range ix.Tests {
		if !d.Dynamic {
			continue
		}
		var prefix string
		switch {
		case d.Parent != "":
			if prefix = names[d.Parent]; prefix == "" {
				continue
			}
		case d.Scope != "":
			prefix = ""
		default:
			prefix = d.Name
			if i := strings.IndexAny(prefix, "{$%"); i >= 0 {
				prefix = prefix[:i]
			}
			if prefix == "" {
				continue
			}
		}
		k := string(d.Framework) + "\x00" + d.Scope
		out[k] = append(out[k], prefix)
	}
	return out
}

func (c dynamicCover) covers(t testdex.Test) bool {
	for _, prefix := range c[string(t.Framework)+"\x00"+t.Scope] {
		if prefix == "" || (strings.HasPrefix(t.Name, prefix) && t.Name != prefix) {
			return true
		}
		// A record standing for the tests in X. stands for X's own too:
		// unittest's DocTestSuite(X) names the module's docstring X.
		if len(prefix) > 1 && strings.HasSuffix(prefix, ".") && t.Name == prefix[:len(prefix)-1] {
			return true
		}
	}
	return false
}

func displayRel(root, abs string) string {
	r := &resolver{root: root}
	d := r.display(abs)
	if d == "" {
		return "."
	}
	return d
}
