package golang

import (
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"
)

// headers memoizes the parsed headers of Go files for the life of the
// process, keyed by path, size, modification time and build filter: the
// projects of one listing share folders (GOROOT's cmd module reads the
// whole standard library that the std module reads too), and a
// long-lived process (testdex mcp) graphs the same tree again and again.
// A file modified less than racyWindow ago is not memoized: another write
// within the file system's timestamp granularity could keep its size and
// time. The memo holds a few hundred bytes per file and is never pruned.
var headers sync.Map // headerKey -> goFile

type headerKey struct {
	path        string
	size, mtime int64
	filter      string
}

const racyWindow = 2 * time.Second

// parseMemo returns the memoized header of the file of entry e under the
// filter of that key, or parses it and memoizes the result when it read
// without error.
func parseMemo(e fs.DirEntry, abs, filter string, parse func() goFile) goFile {
	info, err := e.Info()
	if err != nil || !info.Mode().IsRegular() {
		return parse()
	}
	k := headerKey{path: abs, size: info.Size(), mtime: info.ModTime().UnixNano(), filter: filter}
	if v, ok := headers.Load(k); ok {
		return v.(goFile)
	}
	g := parse()
	if g.err == nil && time.Since(info.ModTime()) > racyWindow {
		headers.Store(k, g)
	}
	return g
}

// key identifies the filter in memo keys.
func (bf buildFilter) key() string {
	if bf.all {
		return "all"
	}
	tags := make([]string, 0, len(bf.tags))
	for t := range bf.tags {
		tags = append(tags, t)
	}
	slices.Sort(tags)
	return strings.Join(tags, ",")
}
