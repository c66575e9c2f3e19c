package walk

import "runtime"

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
