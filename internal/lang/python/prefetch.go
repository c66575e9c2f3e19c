package python

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex/internal/lang"
)

// fetched is a helper module read ahead of the Linker's walk: what read
// returned for it and its decoded facts, or the error of a path that is
// not there.
type fetched struct {
	res   lang.Result
	err   error
	facts *fileFacts
}

// prefetch reads in parallel the helper modules the Linker is about to
// load one at a time: for each module, those its imports and its
// classes' bases name (the first file of module's candidates that
// exists), then the bases of the classes those hold, a few levels deep.
// load takes a module from here when it is here and reads it otherwise,
// so a guess that is wrong costs a parse and never changes a record;
// the walk itself stays on one goroutine, in its order.
func (c *classes) prefetch(mods []*modFile) {
	wave := mods
	for depth := 0; depth < 4 && len(wave) > 0; depth++ {
		var want []string
		queued := map[string]bool{}
		for _, m := range wave {
			for _, modName := range c.named(m, depth == 0) {
				if rel := c.firstFile(m, modName); rel != "" && !queued[rel] {
					queued[rel] = true
					want = append(want, rel)
				}
			}
		}
		got := make([]fetched, len(want))
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0))
		for i, rel := range want {
			g.Go(func() error {
				got[i].res, got[i].err = c.read(rel)
				return nil
			})
		}
		g.Wait()
		wave = wave[:0:0]
		for i, rel := range want {
			if got[i].err == nil {
				got[i].facts = decodeFacts(got[i].res.Facts)
				wave = append(wave, &modFile{rel: rel, facts: got[i].facts})
			}
			c.fetched[rel] = got[i]
		}
	}
}

// named returns the dotted module names resolve would look in for m's
// classes' bases and, with imports, for every name m imports.
func (c *classes) named(m *modFile, imports bool) []string {
	var out []string
	add := func(base string) {
		if m.findClass(base) >= 0 {
			return
		}
		first, rest, hasRest := strings.Cut(base, ".")
		full := base
		if imp, ok := m.facts.Imports[first]; ok {
			full = imp
			if hasRest {
				full += "." + rest
			}
		}
		if dot := strings.LastIndex(full, "."); dot > 0 && !knownTestCase[full] {
			out = append(out, full[:dot])
		}
	}
	for _, cl := range m.facts.Classes {
		for _, b := range cl.Bases {
			add(b)
		}
	}
	if imports {
		for local := range m.facts.Imports {
			add(local)
		}
	}
	return out
}

// firstFile returns the file module would load for a dotted name seen
// from m when it is not loaded or read ahead already: the first of its
// candidates that is a known module or a file on disk ("" when that is
// one already known, or none is). A candidate that is not there is
// remembered as such, so that load does not look for it again.
func (c *classes) firstFile(m *modFile, dotted string) string {
	for _, file := range c.candidates(m, dotted) {
		rel, ok := c.norm(file)
		if !ok {
			continue
		}
		if mf, known := c.byRel[rel]; known {
			if mf != nil {
				return ""
			}
			continue
		}
		if f, ok := c.fetched[rel]; ok {
			if f.err == nil {
				return ""
			}
			continue
		}
		st, err := os.Stat(filepath.Join(c.dir, filepath.FromSlash(rel)))
		if err != nil {
			c.fetched[rel] = fetched{err: err}
			continue
		}
		if st.Mode().IsRegular() {
			return rel
		}
	}
	return ""
}
