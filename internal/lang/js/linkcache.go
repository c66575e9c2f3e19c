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
// only while extracting: the result notes each with a hash of the value
// it gave, and Fresh asks them again before a cached result is used, so
// a change to one of them extracts the file again.

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
// its marked path and a hash of the value it gave.
type requireRead struct {
	M string `json:"m"`
	H uint64 `json:"h"`
}

// linkedSlot is what the cache files linked results under, apart from
// the file's first extraction and its reading as a module.
const linkedSlot = "#linked"

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

// Framework names the cache's slot for linked results.
func (x *linkedExtractor) Framework() testdex.Framework { return x.fw + linkedSlot }

// CacheKey is the extractor's key and the hash of the linker's values.
func (x *linkedExtractor) CacheKey() string { return x.key }

// Extract extracts the file with the linker's values, noting in its
// Facts each module a computed require loaded.
func (x *linkedExtractor) Extract(f *lang.File) lang.Result {
	lv := *x.lv
	var reads []requireRead
	if lv.require != nil {
		req := lv.require
		lv.require = func(m string) (value, bool) {
			v, ok := req(m)
			reads = append(reads, requireRead{M: m, H: readHash(v, ok)})
			return v, ok
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
// loaded gives the value it gave then.
func (x *linkedExtractor) Fresh(cached lang.Result) bool {
	reads := factsOf(cached.Facts).Reads
	if len(reads) == 0 {
		return true
	}
	if x.lv.require == nil {
		return false
	}
	req := requirer(x.fw, x.p, filepath.Dir(filepath.Join(x.p.Dir, filepath.FromSlash(x.rel))))
	for _, r := range reads {
		if v, ok := req(r.M); readHash(v, ok) != r.H {
			return false
		}
	}
	return true
}

// readHash is a hash of what a computed require gave.
func readHash(v value, ok bool) uint64 {
	if !ok {
		return 0
	}
	data, _ := json.Marshal(toWire(v, 0))
	return xxh3.Hash(data) | 1
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
