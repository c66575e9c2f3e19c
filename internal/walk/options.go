package walk

import (
	"runtime"
	"strings"
)

// Options configure a walk. The zero value walks with the defaults: hidden
// entries skipped, ignore files honoured, [DefaultSkipDirs] never entered,
// GOMAXPROCS workers.
type Options struct {
	// Hidden also enters and visits entries whose name starts with ".".
	Hidden bool
	// NoIgnore disregards .gitignore files and .git/info/exclude.
	NoIgnore bool
	// SkipDirs lists folder base names never entered; nil means
	// DefaultSkipDirs and an empty non-nil slice skips none (not even .git).
	SkipDirs []string
	// Workers is the number of goroutines reading folders; <= 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Within restricts the walk to these root-relative, slash-separated
	// folders: only files inside one of them are visited, and only folders
	// on the way to them or inside them are entered. Walking the root with
	// Within, rather than walking the folder itself, applies every ignore
	// file between the root and the folder. The named folders and the
	// folders leading to them are entered even when ignored or hidden: a
	// folder named explicitly wins. Empty means the whole root.
	Within []string
	// Dirs, when set, is called with every folder the walk enters ("" for
	// the root) before any of its entries is visited, concurrently like
	// visit: a watcher then watches exactly the folders a walk reads.
	Dirs func(rel string)
	// Escaped, when set, is called with every symlink the walk does not
	// follow because its real target lies outside the root (dir says it
	// points to a folder), concurrently like visit: test runners follow
	// such links on their own, and the run tells them not to.
	Escaped func(rel string, dir bool)
}

// scope says how a root-relative folder relates to opts.Within.
type scope int

const (
	scopeInside  scope = iota // inside a named folder (or no restriction)
	scopeOnWay                // a named folder's ancestor: enter, visit no files
	scopeTarget               // a named folder itself
	scopeOutside              // neither: never entered
)

// within classifies a root-relative folder ("" is the root).
func (o Options) within(rel string) scope {
	if len(o.Within) == 0 {
		return scopeInside
	}
	best := scopeOutside
	for _, w := range o.Within {
		w = strings.Trim(w, "/")
		switch {
		case w == "" || w == "." || strings.HasPrefix(rel, w+"/"):
			return scopeInside
		case rel == w:
			best = scopeTarget
		case best == scopeOutside && (rel == "" || strings.HasPrefix(w, rel+"/")):
			best = scopeOnWay
		}
	}
	return best
}

// DefaultSkipDirs are the folders no test discovery wants to enter: version
// control data, dependency trees, virtual environments, caches and editor
// state. It leaves out names such as "build", "out" and "bin", which hold
// source code in some projects (Go has packages named build).
var DefaultSkipDirs = []string{
	".git", ".hg", ".svn", ".jj",
	"node_modules", "bower_components", "vendor", ".yarn", ".pnpm-store",
	"dist", "target", ".gradle", ".m2",
	"__pycache__", ".venv", "venv", ".tox", ".nox", ".eggs",
	".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis",
	".idea", ".vscode", ".next", ".nuxt", ".turbo", ".cache", ".terraform",
	"coverage", ".nyc_output",
}

// workers returns the worker count: folder reading is a mix of syscalls and
// matching, so one worker per usable CPU keeps both busy.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// skipSet returns the skipped folder names as a set.
func (o Options) skipSet() map[string]bool {
	dirs := o.SkipDirs
	if dirs == nil {
		dirs = DefaultSkipDirs
	}
	set := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		set[d] = true
	}
	return set
}
