package changes

import (
	"sort"
	"strconv"

	"github.com/zeebo/xxh3"
)

// A Manifest is what a test file's fingerprint hashes, kept apart: each
// node of its closure (the files its walk over the uses reaches, itself
// included, its project's global files and the files testdex.toml's
// [affected] rules declare for it) with its content hash, or 0 for a node
// that is named, not read (a package, a crate, a file that cannot be
// read). Two manifests differ exactly where the files changed.
type Manifest map[string]uint64

// Fingerprint is the manifest's fingerprint, as Fingerprints gives it.
func (m Manifest) Fingerprint() string {
	nodes := make([]string, 0, len(m))
	for n := range m {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	h := xxh3.New()
	for _, n := range nodes {
		if c := m[n]; c != 0 {
			h.WriteString(n + "\x00" + strconv.FormatUint(c, 16) + "\n")
		} else {
			h.WriteString(n + "\n")
		}
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// Diff is the change from old to cur: a node whose content hash differs
// is modified, one only in cur added, one only in old deleted. Nodes that
// are named, not read, are compared by presence alone.
func Diff(old, cur Manifest) Set {
	var s Set
	for n, h := range cur {
		switch oh, ok := old[n]; {
		case !ok:
			s = append(s, Change{Path: n, Status: Added})
		case oh != h:
			s = append(s, Change{Path: n, Status: Modified})
		}
	}
	for n := range old {
		if _, ok := cur[n]; !ok {
			s = append(s, Change{Path: n, Status: Deleted})
		}
	}
	sort.Slice(s, func(i, j int) bool { return s[i].Path < s[j].Path })
	return s
}
