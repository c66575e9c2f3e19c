package index

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/internal/walk"
)

// Explain says what discovery does with one path and why: skipped by
// which ignore rule, hidden entry or skip-list folder; or assigned to which
// project and framework; or not a test file of any framework here. It
// answers "why is my test not listed?" without listing anything.
func Explain(opts Options, name string) (string, error) {
	b, err := newBuilder(opts)
	if err != nil {
		return "", err
	}
	targets, err := resolveTargets(b.root, b.opts.Dir, []string{name})
	if err != nil {
		return "", err
	}
	t := targets[0]
	wo := walkOptions(b.cfg, 1)
	// A path is skipped when it or any folder above it is.
	for p := t.rel; p != "." && p != ""; p = path.Dir(p) {
		skipped, reason, err := walk.Explain(b.root, p, wo)
		if err != nil {
			return "", err
		}
		if skipped {
			if p != t.rel {
				return t.rel + ": skipped: inside " + p + ": " + reason, nil
			}
			return t.rel + ": skipped: " + reason, nil
		}
	}
	if t.dir {
		return t.rel + ": a folder that is walked", nil
	}
	r := newResolver(b.root, b.cfg, &b.opts, newLevel1())
	if a, ok := r.assign(t.rel, b.opts.Frameworks); ok {
		proj := r.display(a.proj.Dir)
		if proj == "" {
			proj = "."
		}
		what := a.proj.Manifest
		if what == "" {
			what = "no manifest: the root"
		}
		return t.rel + ": " + string(a.setup.Framework) + " test file of the project in " + proj + " (" + what + ")", nil
	}
	var why []string
	base := path.Base(t.rel)
	for _, d := range r.dets {
		if !hasSuffix(base, d.Extensions()) {
			continue
		}
		p := r.projectFor(d, path.Dir(t.rel))
		if p == nil {
			continue
		}
		for _, s := range p.Frameworks {
			why = append(why, string(s.Framework)+" selects "+strings.Join(s.Patterns, ", ")+" in "+filepath.ToSlash(r.display(p.Dir)))
		}
	}
	if len(why) == 0 {
		return t.rel + ": not a test file: no framework here reads files like it", nil
	}
	return t.rel + ": not a test file: " + strings.Join(why, "; "), nil
}
