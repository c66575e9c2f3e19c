package changes

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
)

// rule is one declared dependency of testdex.toml's [affected] table
// (config.Rule) with the test files its right side names. It is how a
// project says what no Grapher can see: a data file read by a computed
// path, a program in another language a test runs, a fixture generated
// by a script. A change to a file its left side matches selects those
// test files, whatever the graph says; `run --changed` counts the files
// it matches in their fingerprints.
type rule struct {
	config.Rule
	files []string // the test files it affects, root-relative
}

// String renders the rule as it reads in testdex.toml.
func (r rule) String() string {
	q := make([]string, len(r.Tests))
	for i, t := range r.Tests {
		q[i] = strconv.Quote(t)
	}
	return fmt.Sprintf("%q = [%s]", r.Changed, strings.Join(q, ", "))
}

// addRules resolves the declared rules against the listing's test files;
// a rule that names no test file is a warning (a typo would otherwise
// silently declare nothing).
func (g *Graph) addRules(rules []config.Rule) {
	var all []string
	for _, p := range g.projects {
		all = append(all, p.files...)
	}
	sort.Strings(all)
	for _, cr := range rules {
		r := rule{Rule: cr}
		for _, f := range all {
			if coversAny(cr.Tests, f) {
				r.files = append(r.files, f)
			}
		}
		if len(r.files) == 0 {
			g.Problems = append(g.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: config.FileName,
				Message: fmt.Sprintf("[affected] %s: no test file matches %s; the rule selects nothing", r, strings.Join(cr.Tests, ", "))})
		}
		g.rules = append(g.rules, r)
	}
}

// covers reports whether pattern pat names file: the pattern matches the
// file or one of the folders above it. "dir/..." is dir and everything
// below it, "..." (or "./...") every file, as in Go package patterns.
func covers(pat, file string) bool {
	pat = strings.TrimPrefix(pat, "./")
	if pat == "..." || pat == "**" || pat == "." || pat == "" {
		return true
	}
	pat = strings.TrimSuffix(strings.TrimSuffix(pat, "/..."), "/")
	for p := file; ; p = path.Dir(p) {
		if ok, _ := doublestar.Match(pat, p); ok {
			return true
		}
		if p == "." || p == "/" || !strings.Contains(p, "/") {
			return false
		}
	}
}

func coversAny(pats []string, file string) bool {
	for _, p := range pats {
		if covers(p, file) {
			return true
		}
	}
	return false
}

// selectDeclared picks the test files of every rule a change matches
// (its new or old name).
func (g *Graph) selectDeclared(set Set, pick func(string, Reason)) {
	for _, c := range set {
		for _, r := range g.rules {
			if !covers(r.Changed, c.Path) && (c.Old == "" || !covers(r.Changed, c.Old)) {
				continue
			}
			for _, f := range r.files {
				pick(f, Reason{Changed: c.Path, Rule: "declared", Declared: r.String()})
			}
		}
	}
}

// declaredFiles returns, per test file, the files on disk the rules that
// affect it match; false when the tree could not be read (nothing can then
// vouch that those files are unchanged).
func (g *Graph) declaredFiles(root string) (map[string][]string, bool) {
	out := map[string][]string{}
	if len(g.rules) == 0 {
		return out, true
	}
	fsys := os.DirFS(root)
	for _, r := range g.rules {
		var matched []string
		pat := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(r.Changed, "./"), "/..."), "/")
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return fs.SkipDir
				}
				return nil
			}
			if covers(pat, p) {
				matched = append(matched, p)
			}
			return nil
		})
		if err != nil {
			return nil, false
		}
		for _, f := range r.files {
			out[f] = append(out[f], matched...)
		}
	}
	return out, true
}
