package index

import (
	"fmt"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/config"
)

// Options say what to list. The zero value lists the current folder's tree
// ("." resolved by the operating system) with all defaults and no
// persistent cache.
type Options struct {
	// Root is the folder IDs and file paths are relative to. "" means Dir.
	Root string
	// Dir is the folder relative Paths are resolved against first (the
	// caller's working folder); "" means Root. Paths that do not exist there
	// are looked up under Root, as semtest does.
	Dir string
	// Paths are explicit files and folders to list; empty means the whole
	// Root. They must lie inside Root.
	Paths []string
	// Files, when not nil, are the root's files as the walk keeps them
	// (root-relative, slash-separated), from a caller that keeps them up
	// to date as they change (testdex watch, whose watcher walked the
	// root and follows every folder the walk enters): Build takes them
	// instead of walking the tree again. Used only for a listing of the
	// whole root (Paths empty).
	Files []string
	// Escapes go with Files: the symbolic links leaving the root that the
	// caller's walk did not follow (walk.Options.Escaped), for Index.Escapes.
	Escapes []Escape
	// Config is the configuration; nil means Root/testdex.toml if present,
	// or ConfigPath when set.
	Config     *config.Config
	ConfigPath string
	// CacheDir is the folder of the persistent cache; "" disables it.
	CacheDir string
	// Frameworks restricts discovery to these frameworks; nil means all.
	Frameworks []testdex.Framework
	// AllPlatforms lists Go tests of every GOOS/GOARCH and build tag, and
	// cargo tests whatever their cfg(unix, windows, target_os, ...) gates.
	AllPlatforms bool
	// Workers bounds parallel parsing; <= 0 means runtime.GOMAXPROCS(0).
	Workers int
	// MaxFileSize is the largest file parsed; <= 0 means 64 MiB. Larger
	// candidates are skipped with a warning.
	MaxFileSize int64
	// Now is the clock, for the cache's racy-timestamp rule; nil means
	// time.Now.
	Now func() time.Time
}

// NotFoundError reports an explicitly named path that does not exist.
// Its text is semtest's.
type NotFoundError struct{ Name string }

func (e *NotFoundError) Error() string { return "Test file not found: " + e.Name }

// OutsideRootError reports an explicitly named path outside the root.
type OutsideRootError struct{ Path, Root string }

func (e *OutsideRootError) Error() string {
	return fmt.Sprintf("%s is outside the root %s (pass --root to list another tree)", e.Path, e.Root)
}

// NoTestsError reports a listing that found nothing. Dir is the absolute
// folder searched (the root, or the one folder named). Its text is
// semtest's when not even a candidate file was found.
type NoTestsError struct {
	Dir   string
	Files int // candidate files read
}

func (e *NoTestsError) Error() string {
	if e.Files == 0 {
		return "No test files found in " + e.Dir
	}
	return fmt.Sprintf("no tests found in %s (%d candidate files hold none)", e.Dir, e.Files)
}
