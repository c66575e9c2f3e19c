package watch

import (
	"context"
	"os"
	"path/filepath"

	"github.com/testdex/testdex/workspace"
)

// The snapshots' bounds: a file larger than maxSnapshot is not kept, and
// all of them together hold at most maxSnapshots bytes; a file without a
// snapshot counts whole, as without git.
const (
	maxSnapshot  = 1 << 20
	maxSnapshots = 64 << 20
)

// previous knows what each changed file held before its save, so a
// Grapher that narrows (Go's, to the changed declarations) narrows a save
// to what it changed, as `testdex affected` narrows against HEAD.
//
// A file saved before holds what the loop read at its previous cycle:
// read when that cycle began, before anything graphed it, so whatever is
// written later is in the next diff. A file not yet saved and not
// changed against HEAD when watch began holds HEAD's content: the
// commit, resolved then, is the base (a later checkout moves HEAD, not
// the base). Anything else (no git, a file dirty from the start and not
// yet saved, a snapshot over the bounds) is narrowed by nothing: the
// whole file counts, safety before savings.
type previous struct {
	root  string
	base  string          // HEAD's commit when watch began; "" without git
	dirty map[string]bool // the files changed against base when watch began
	snap  map[string][]byte
	size  int
}

// newPrevious resolves HEAD and takes the start set's files as dirty.
func newPrevious(ctx context.Context, ws *workspace.Workspace, start workspace.ChangeSet) *previous {
	p := &previous{root: ws.Root, dirty: map[string]bool{}, snap: map[string][]byte{}}
	if start == nil {
		return p
	}
	head, err := ws.Head(ctx)
	if err != nil {
		return p
	}
	p.base = head
	for _, c := range start {
		p.dirty[c.Path] = true
		if c.Old != "" {
			p.dirty[c.Old] = true
		}
	}
	return p
}

// fill sets each modified file's Prev or Base, then keeps what every
// changed file holds now for its next save.
func (p *previous) fill(set workspace.ChangeSet) {
	for i := range set {
		c := &set[i]
		if c.Status == workspace.Modified {
			if old, ok := p.snap[c.Path]; ok {
				c.Prev = old
			} else if p.base != "" && !p.dirty[c.Path] {
				c.Base = p.base
			}
		}
	}
	p.keep(set)
}

// keep replaces the snapshots of the set's files with their content now.
func (p *previous) keep(set workspace.ChangeSet) {
	for _, c := range set {
		p.drop(c.Path)
		p.dirty[c.Path] = true // from now on its snapshot, or nothing, is its base
		if c.Status == workspace.Deleted {
			continue
		}
		data, err := os.ReadFile(filepath.Join(p.root, filepath.FromSlash(c.Path)))
		if err != nil || len(data) > maxSnapshot || p.size+len(data) > maxSnapshots {
			continue
		}
		if data == nil {
			data = []byte{}
		}
		p.snap[c.Path], p.size = data, p.size+len(data)
	}
}

func (p *previous) drop(rel string) {
	if old, ok := p.snap[rel]; ok {
		p.size -= len(old)
		delete(p.snap, rel)
	}
}
