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

// candidate is a file that some framework wants parsed.
type candidate struct {
	rel      string
	abs      string
	plugins  []*plugin
	explicit bool
}

// manifests are the file names that make a folder a project root, with the
// project kind they announce.
var manifests = map[string]string{
	"go.mod":         "go",
	"package.json":   "node",
	"pyproject.toml": "python",
	"setup.py":       "python",
	"Cargo.toml":     "cargo",
	"pom.xml":        "maven",
	"build.gradle":   "gradle",
}

// level1 is the output of the file-level pass.
type level1 struct {
	mu         sync.Mutex
	candidates []candidate
	manifests  map[string][]string // root-relative folder -> manifest names
	problems   []testdex.Problem
}

func (l *level1) add(c candidate) {
	l.mu.Lock()
	l.candidates = append(l.candidates, c)
	l.mu.Unlock()
}

func (l *level1) addManifest(rel string) {
	l.mu.Lock()
	dir := path.Dir(rel)
	l.manifests[dir] = append(l.manifests[dir], path.Base(rel))
	l.mu.Unlock()
}

// walkOptions maps the configuration onto the walker's options.
func walkOptions(cfg *config.Config, workers int) walk.Options {
	o := walk.Options{Hidden: cfg.Walk.Hidden, NoIgnore: !cfg.Walk.GitignoreEnabled(), Workers: workers}
	if len(cfg.Walk.SkipDirs) > 0 {
		o.SkipDirs = append(append([]string{}, walk.DefaultSkipDirs...), cfg.Walk.SkipDirs...)
	}
	return o
}

// walkDir runs level 1 over one folder target. prefix is the folder's
// root-relative path ("." for the root).
func (l *level1) walkDir(ctx context.Context, abs, prefix string, wo walk.Options, ps []*plugin) error {
	probs, err := walk.Walk(ctx, abs, wo, func(rel string, d fs.DirEntry) error {
		if prefix != "." {
			rel = prefix + "/" + rel
		}
		if _, ok := manifests[path.Base(rel)]; ok {
			l.addManifest(rel)
		}
		var want []*plugin
		for _, p := range ps {
			if p.wants(rel) {
				want = append(want, p)
			}
		}
		if want != nil {
			l.add(candidate{rel: rel, abs: filepath.Join(abs, filepath.FromSlash(strings.TrimPrefix(rel, prefix+"/"))), plugins: want})
		}
		return nil
	})
	for _, p := range probs {
		if prefix != "." && p.Path != "" && p.Path != "." {
			p.Path = prefix + "/" + p.Path
		} else if prefix != "." {
			p.Path = prefix
		}
		l.problems = append(l.problems, p)
	}
	return err
}

// explicitFile adds a named file. A file that no framework's testMatch
// selects is still listed by a framework that accepts its extension
// leniently (semtest), with a warning, as semtest does; otherwise it is
// skipped with a warning naming the convention.
func (l *level1) explicitFile(t target, ps []*plugin) {
	var want []*plugin
	for _, p := range ps {
		if p.match.match(t.rel) {
			want = append(want, p)
		}
	}
	if want == nil {
		for _, p := range ps {
			if p.lenientExt != "" && strings.HasSuffix(t.rel, p.lenientExt) {
				want = append(want, p)
				l.problems = append(l.problems, testdex.Problem{Severity: testdex.SevWarning, Path: t.rel,
					Message: "does not follow the " + string(p.fw) + " naming convention (" + strings.Join(p.patterns, ", ") + "); listed because it was named"})
			}
		}
	}
	if want == nil {
		l.problems = append(l.problems, testdex.Problem{Severity: testdex.SevWarning, Path: t.rel,
			Message: "not a test file of any framework (" + conventions(ps) + "); skipped"})
		return
	}
	l.add(candidate{rel: t.rel, abs: t.abs, plugins: want, explicit: true})
}

func conventions(ps []*plugin) string {
	var s []string
	for _, p := range ps {
		s = append(s, string(p.fw)+": "+strings.Join(p.patterns, " "))
	}
	return strings.Join(s, "; ")
}

// sorted returns the candidates in path order without duplicates.
func (l *level1) sorted() []candidate {
	c := l.candidates
	sort.Slice(c, func(i, j int) bool { return c[i].rel < c[j].rel })
	out := c[:0]
	for i, x := range c {
		if i > 0 && x.rel == c[i-1].rel {
			continue
		}
		out = append(out, x)
	}
	sort.SliceStable(l.problems, func(i, j int) bool { return l.problems[i].Path < l.problems[j].Path })
	return out
}
