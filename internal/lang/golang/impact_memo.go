package golang

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/testdex/testdex/internal/lang"
)

// A file's scan results come from two layers, each keyed so that a
// changed file is scanned again:
//
//   - memo, for the life of the process, keyed by path, size,
//     modification time and kind: the projects of one listing share
//     folders (GOROOT's cmd module reads the whole standard library that
//     the std module reads too), and a long-lived process (testdex mcp)
//     graphs the same tree again and again. A file modified less than
//     racyWindow ago is not memoized: another write within the file
//     system's timestamp granularity could keep its size and time. It
//     holds decoded values and is never pruned.
//   - GraphInput.Cache, between runs (lang.ScanCache: size and time, else
//     the content's hash), in the codecs of impact_cache.go.
//
// Only a miss of both reads and scans the file.
var memo sync.Map // memoKey -> goFile, *fileDecls, [][2]string

type memoKey struct {
	path        string
	size, mtime int64
	kind        string
}

const racyWindow = 2 * time.Second

// parseMemo returns the header of the file of entry e under the build
// filter of that key: memoized, cached, or parsed by parse (and then
// kept when it read without error).
func parseMemo(in *lang.GraphInput, e fs.DirEntry, abs, filter string, g goFile, parse func() goFile) goFile {
	size, mtime, ok := statOf(in, abs, e)
	if !ok {
		return parse()
	}
	kind := headerKind(filter)
	k := memoKey{path: abs, size: size, mtime: mtime, kind: kind}
	if v, ok := memo.Load(k); ok {
		return v.(goFile)
	}
	if in.Cache != nil {
		if data, ok := in.Cache.Get(abs, kind, nil); ok {
			if got, ok := decodeHeader(g, data); ok {
				return got
			}
		}
	}
	g = parse()
	if g.err != nil {
		return g
	}
	if in.Cache != nil {
		in.Cache.Put(abs, kind, nil, encodeHeader(g))
	}
	if settled(mtime) {
		memo.Store(k, g)
	}
	return g
}

// statter is a ScanCache that stats each file once per run
// (cache.ScanStore): the memo keys on its answer rather than stat'ing
// again (GOROOT's two modules share the standard library's files).
type statter interface {
	Stat(abs string) (size, mtime int64, ok bool)
}

// statOf returns the size and time of the regular file abs (or of the
// folder entry e when not nil): from the cache when it stats, else from
// the file system; ok is false when it is missing or not regular.
func statOf(in *lang.GraphInput, abs string, e fs.DirEntry) (size, mtime int64, ok bool) {
	if s, is := in.Cache.(statter); is {
		return s.Stat(abs)
	}
	var info fs.FileInfo
	var err error
	if e != nil {
		info, err = e.Info()
	} else {
		info, err = os.Stat(abs)
	}
	if err != nil || !info.Mode().IsRegular() {
		return 0, 0, false
	}
	return info.Size(), info.ModTime().UnixNano(), true
}

// settled reports whether a file last modified at mtime (unix
// nanoseconds) is past racyWindow: a later write changes its time.
func settled(mtime int64) bool { return time.Since(time.Unix(0, mtime)) > racyWindow }

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

// scanMemo returns what scan makes of the file abs, from the memo, the
// cache, or the file read through in.ReadFile; false when it cannot be
// read.
func scanMemo[T any](in *lang.GraphInput, abs string, c lang.Codec[T], scan func([]byte) T) (T, bool) {
	size, mtime, ok := statOf(in, abs, nil)
	memoize := ok && settled(mtime)
	var k memoKey
	if memoize {
		k = memoKey{path: abs, size: size, mtime: mtime, kind: c.Kind}
		if v, ok := memo.Load(k); ok {
			return v.(T), true
		}
	}
	v, err := lang.Scan(in, abs, c, scan)
	if err != nil {
		return v, false
	}
	if memoize {
		memo.Store(k, v)
	}
	return v, true
}

// declsMemo returns a file's declarations; nil when it cannot be read.
func declsMemo(in *lang.GraphInput, abs string) *fileDecls {
	name := filepath.Base(abs)
	fd, _ := scanMemo(in, abs, declsCodec, func(src []byte) *fileDecls { return quickDecls(name, src) })
	return fd
}

// linknamesMemo returns the local names and targets of a file's
// //go:linkname local target directives.
func linknamesMemo(in *lang.GraphInput, abs string) [][2]string {
	ls, _ := scanMemo(in, abs, linknamesCodec, linknames)
	return ls
}

// linknames finds the //go:linkname local target directives of src.
func linknames(src []byte) [][2]string {
	var targets [][2]string
	for rest := src; ; {
		i := bytes.Index(rest, []byte("//go:linkname "))
		if i < 0 {
			break
		}
		line := rest[i:]
		if j := bytes.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		if f := strings.Fields(string(line)); len(f) >= 3 {
			targets = append(targets, [2]string{f[1], f[2]})
		}
		rest = rest[i+len("//go:linkname "):]
	}
	return targets
}

// ifaceFacts are what the method scope (impact_methods.go) needs of one
// standard library file: whether the build filter keeps it, the exported
// method names of the interfaces it spells and its imports
// (interfaceNames), and whether it calls a Method or MethodByName.
type ifaceFacts struct {
	kept           bool
	names, imports []string
	methodCalls    bool
}

// ifaceMemo returns the ifaceFacts of the file abs under the filter bf;
// false when it cannot be read.
func ifaceMemo(in *lang.GraphInput, abs string, bf buildFilter) (ifaceFacts, bool) {
	c := ifacesCodec
	c.Kind += "/" + bf.key()
	return scanMemo(in, abs, c, func(src []byte) ifaceFacts {
		if !bf.keep(src) {
			return ifaceFacts{}
		}
		ff := ifaceFacts{kept: true}
		ff.names, ff.imports = interfaceNames(src)
		ff.methodCalls = bytes.Contains(src, []byte("MethodByName(")) || bytes.Contains(src, []byte(".Method("))
		return ff
	})
}
