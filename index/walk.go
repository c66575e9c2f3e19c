package index

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
	"github.com/testdex/testdex/internal/walk"
)

// candidate is a file assigned to a project and framework, to be parsed.
type candidate struct {
	rel string // root-relative
	abs string
	assignment
}

// level1 is the output of the file-level pass: paths only, nothing read.
type level1 struct {
	mu        sync.Mutex
	files     []string            // root-relative files some detector may want
	explicit  []target            // named files
	manifests map[string][]string // root-relative folder -> manifest names
	dirs      map[string]bool     // root-relative folders whose entries were seen
	problems  []testdex.Problem
}

func newLevel1() *level1 {
	return &level1{manifests: map[string][]string{}, dirs: map[string]bool{}}
}

// walkOptions maps the configuration onto the walker's options.
func walkOptions(cfg *config.Config, workers int) walk.Options {
	o := WalkOptions(cfg)
	o.Workers = workers
	return o
}

// WalkOptions are the walker's options the configuration gives the
// listing (hidden files, .gitignore, skipped folders): a front end that
// walks the root itself (watch, to place its watches) covers exactly what
// the listing reads.
func WalkOptions(cfg *config.Config) walk.Options {
	o := walk.Options{Hidden: cfg.Walk.Hidden, NoIgnore: !cfg.Walk.GitignoreEnabled()}
	if len(cfg.Walk.SkipDirs) > 0 {
		o.SkipDirs = append(append([]string{}, walk.DefaultSkipDirs...), cfg.Walk.SkipDirs...)
	}
	return o
}

// walk runs level 1 over the root, restricted by wo.Within.
func (l *level1) walk(ctx context.Context, root string, wo walk.Options) error {
	probs, err := walk.Walk(ctx, root, wo, func(rel string, d fs.DirEntry) error {
		base := path.Base(rel)
		manifest, wanted := isManifest(base), extensionWanted(base)
		l.mu.Lock()
		dir := path.Dir(rel)
		l.dirs[dir] = true
		if manifest {
			l.manifests[dir] = append(l.manifests[dir], base)
		}
		if wanted {
			l.files = append(l.files, rel)
		}
		l.mu.Unlock()
		return nil
	})
	l.problems = append(l.problems, probs...)
	return err
}

// known runs level 1 over files a caller already walked (Options.Files),
// as walk does over what the walk visits.
func (l *level1) known(files []string) {
	for _, rel := range files {
		base := path.Base(rel)
		dir := path.Dir(rel)
		l.dirs[dir] = true
		if isManifest(base) {
			l.manifests[dir] = append(l.manifests[dir], base)
		}
		if extensionWanted(base) {
			l.files = append(l.files, rel)
		}
	}
}

// resolve assigns every walked and named file to its project and framework
// and returns the candidates in path order, without duplicates. A named
// file that no framework selects is still listed by a framework that
// accepts its suffix leniently (semtest lists any named .md file, with a
// warning, as semtest does); otherwise it is skipped with a warning naming
// the conventions.
func (l *level1) resolve(r *resolver, root string, only []testdex.Framework) []candidate {
	sort.Strings(l.files)
	var out []candidate
	for _, rel := range l.files {
		if a, ok := r.assign(rel, only); ok {
			out = append(out, candidate{rel: rel, abs: filepath.Join(root, filepath.FromSlash(rel)), assignment: a})
		}
	}
	for _, t := range l.explicit {
		a, ok := r.assign(t.rel, only)
		if !ok {
			if a, ok = r.lenient(t.rel, only); ok {
				l.problems = append(l.problems, testdex.Problem{Severity: testdex.SevWarning, Path: t.rel,
					Message: "does not follow the " + string(a.setup.Framework) + " naming convention (" + strings.Join(a.setup.Patterns, ", ") + "); listed because it was named"})
			}
		}
		if !ok {
			l.problems = append(l.problems, testdex.Problem{Severity: testdex.SevWarning, Path: t.rel,
				Message: "not a test file of any framework here; skipped"})
			continue
		}
		out = append(out, candidate{rel: t.rel, abs: t.abs, assignment: a})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	uniq := out[:0]
	for i, c := range out {
		if i == 0 || c.rel != out[i-1].rel {
			uniq = append(uniq, c)
		}
	}
	sort.SliceStable(l.problems, func(i, j int) bool { return l.problems[i].Path < l.problems[j].Path })
	return uniq
}
