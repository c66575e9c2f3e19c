package lang

import (
	"os"
	"path"
	"path/filepath"
)

// Subdirs lists dir and the folders below it, relative to dir and
// slash-separated ("." for dir itself), parents before children, at most
// 64 levels deep; nil when dir is not a folder. A folder whose base name
// skip reports true for is left out with everything below it (skip may be
// nil). The impact graphs use it to make a folder's node the owner of the
// folders below it. It reads no ignore file on purpose: a file git
// ignores in a folder a test reads still changes what the test sees, and
// the graph errs on the side of an edge.
func Subdirs(dir string, skip func(name string) bool) []string {
	var out []string
	var visit func(rel string, depth int)
	visit = func(rel string, depth int) {
		ents, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || depth > 64 {
			return
		}
		out = append(out, rel)
		for _, e := range ents {
			if e.IsDir() && (skip == nil || !skip(e.Name())) {
				visit(path.Join(rel, e.Name()), depth+1)
			}
		}
	}
	visit(".", 0)
	return out
}
