package index

import (
	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// AttachProjects gives an index read from a metadata file (ReadMetadata)
// what running it needs and the file does not carry: each file's project
// and framework setup, detected again from the manifests and
// configuration on disk under opts.Root. No test file is read or parsed,
// so a CI worker can run a saved listing (`testdex run --from FILE`)
// without extracting the tree again: the listing is the plan's input, the
// runners come from the project facts. A file whose project or framework
// is no longer detected stays out of every batch (its tests are
// unreported when selected).
func (ix *Index) AttachProjects(opts Options) error {
	b, err := newBuilder(opts)
	if err != nil {
		return err
	}
	ix.cfg = b.cfg
	r := newResolver(b.root, b.cfg, &b.opts, newLevel1())
	groups := map[*lang.Setup]*group{}
	for _, f := range ix.Files {
		a, ok := r.assign(f.Path, []testdex.Framework{f.Framework})
		if !ok {
			if a, ok = r.lenient(f.Path, nil); !ok || a.setup.Framework != f.Framework {
				continue
			}
		}
		g := groups[a.setup]
		if g == nil {
			g = &group{proj: a.proj, setup: a.setup}
			groups[a.setup] = g
			ix.groups = append(ix.groups, g)
		}
		g.files = append(g.files, a.rel)
	}
	return nil
}
