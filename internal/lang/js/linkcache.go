package js

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/zeebo/xxh3"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// The linker's second extraction of a test file (with its imported
// modules' values, the entries of the folders it reads, and the modules
// its computed requires load) goes through the project's cache, so a
// warm listing of an unchanged tree parses nothing again. Its cache key
// holds, besides the extractor's, a hash of everything the linker hands
// the extractor: the imported values (each the literal reading of one
// module, so a change to any imported module changes them), the
// functions inlined, and the folders' entries; the file's own content is
// the cache's business. The modules a computed require loads are known
// only while extracting: the result notes each with a stamp of what it
// read, and Fresh stamps them again before a cached result is used, so a
// change to one of them extracts the file again.

// linkedExtractor is the extractor of a test file's second extraction,
// for the project's Load.
type linkedExtractor struct {
	fw       testdex.Framework
	rel      string // the file's path relative to the project folder
	settings lang.Settings
	lv       *linkedValues
	key      string
	p        *lang.Project // for Fresh's requires
}

// requireRead is one module a computed require loaded while extracting:
// its marked path and its stamp (see stamper).
type requireRead struct {
	M string `json:"m"`
	H uint64 `json:"h"`
}

func newLinkedExtractor(fw testdex.Framework, p *lang.Project, rel string, settings lang.Settings, lv *linkedValues) *linkedExtractor {
	in := struct {
		Imports        map[string]wire
		Helpers, Pures map[string]string
		Dirs           map[string][]string
	}{map[string]wire{}, lv.helpers, lv.pures, lv.dirs}
	for k, v := range lv.imports {
		in.Imports[k] = toWire(v, 0)
	}
	data, _ := json.Marshal(in) // maps are written sorted by key
	x := &linkedExtractor{fw: fw, rel: rel, settings: settings, lv: lv, p: p}
	x.key = fmt.Sprintf("%s/linked-%016x", ExtractorFor(fw).CacheKey(), xxh3.Hash(data))
	return x
}

// Framework is the framework of the records.
func (x *linkedExtractor) Framework() testdex.Framework { return x.fw }

// CacheKey is the extractor's key and the hash of the linker's values.
func (x *linkedExtractor) CacheKey() string { return x.key }

// Extract extracts the file with the linker's values, noting in its
// Facts each module a computed require loaded.
func (x *linkedExtractor) Extract(f *lang.File) lang.Result {
	lv := *x.lv
	var reads []requireRead
	if lv.require != nil {
		req, stamp := lv.require, x.stamper()
		lv.require = func(m string) (value, bool) {
			reads = append(reads, requireRead{M: m, H: stamp(m)})
			return req(m)
		}
	}
	res := ExtractorFor(x.fw).extract(&lang.File{Rel: x.rel, Abs: f.Abs, Data: f.Data, Framework: x.fw, Settings: x.settings}, &lv)
	if len(reads) > 0 {
		facts := factsOf(res.Facts)
		facts.Reads = reads
		if data, err := json.Marshal(facts); err == nil {
			res.Facts = data
		}
	}
	return res
}

// Fresh reports whether each module a cached result's computed requires
// loaded reads as it did then.
func (x *linkedExtractor) Fresh(cached lang.Result) bool {
	reads := factsOf(cached.Facts).Reads
	if len(reads) == 0 {
		return true
	}
	if x.lv.require == nil {
		return false
	}
	stamp := x.stamper()
	for _, r := range reads {
		if stamp(r.M) != r.H {
			return false
		}
	}
	return true
}

// stamper returns the function that stamps the module a computed require
// of a marked path loads (see requirer): a hash of its path and of its
// reading as a module, which the project's cache holds, so nothing is
// decoded; 0 for none.
func (x *linkedExtractor) stamper() func(m string) uint64 {
	abs := filepath.Join(x.p.Dir, filepath.FromSlash(x.rel))
	return func(m string) uint64 {
		file := nodeModuleFile(unmarkPath(x.p.Dir, filepath.Dir(abs), m))
		if file == "" || !inProjectDir(x.p.Dir, file) || !jsExtensions[extname(file)] && extname(file) != ".json" || x.p.Load == nil {
			return 0
		}
		res, err := x.p.Load(file, moduleExtractor{x.fw}, nil)
		if err != nil {
			return 0
		}
		return xxh3.HashString(file+"\x00"+string(res.Facts)) | 1
	}
}

// extractLinked extracts a test file of p (data, at abs) again with the
// linker's values, through the project's cache when there is one.
func extractLinked(fw testdex.Framework, p *lang.Project, rel, abs string, data []byte, settings lang.Settings, lv *linkedValues) lang.Result {
	x := newLinkedExtractor(fw, p, rel, settings, lv)
	if p.Load != nil {
		if res, err := p.Load(abs, x, settings); err == nil {
			return res
		}
	}
	return x.Extract(&lang.File{Rel: rel, Abs: abs, Data: data, Framework: fw, Settings: settings})
}
