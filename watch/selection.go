package watch

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/workspace"
)

// item is one thing a cycle runs: a test by ID, or a file or folder by
// root-relative path (the whole of it, as `testdex run PATH` runs it).
type item struct {
	ID   string
	Path string
}

// filters narrow every cycle, as Jest's watch filters do: Name keeps the
// tests whose name matches, Path the files whose path matches; nil keeps
// all. Scope is the PATHs watch was started with: the tests are those
// under them.
type filters struct {
	Name, Path *regexp.Regexp
	Scope      []string
}

// fromAffected turns a selection of `testdex affected` into items: a
// whole file by path, else its selected tests by ID, exactly as `run
// --affected` does.
func fromAffected(affected []workspace.Affected) []item {
	ids, paths := workspace.Selection(affected)
	out := make([]item, 0, len(ids)+len(paths))
	for _, p := range paths {
		out = append(out, item{Path: p})
	}
	for _, id := range ids {
		out = append(out, item{ID: id})
	}
	return out
}

// under reports whether the root-relative file lies under the path p
// ("." or "" is the root).
func under(file, p string) bool {
	p = strings.Trim(p, "/")
	return p == "" || p == "." || file == p || strings.HasPrefix(file, p+"/")
}

// apply narrows items to the filters over the listing ix. An ID the
// listing no longer names is run by its file when the failure named one
// (files) and the listing still holds it, else dropped and returned in
// gone; a path under which the listing holds no test is dropped. With a
// name filter, each item becomes the outermost listed tests under it
// whose name matches.
func (f filters) apply(ix *workspace.Index, items []item, files map[string]string) (kept []item, gone []string) {
	namer := ix.NewNamer()
	fileOf := func(it item) (string, bool) {
		if it.Path != "" {
			return it.Path, true
		}
		if t, ok := namer.ForID(it.ID); ok {
			return t.File, true
		}
		return "", false
	}
	listed := map[string]bool{}
	for _, t := range ix.Tests {
		listed[t.File] = true
	}
	holds := func(p string) bool {
		if listed[p] {
			return true
		}
		for lf := range listed {
			if under(lf, p) {
				return true
			}
		}
		return false
	}
	for _, it := range items {
		file, ok := fileOf(it)
		if !ok {
			if file = files[it.ID]; file == "" || !listed[file] {
				gone = append(gone, it.ID)
				continue
			}
			it = item{Path: file}
		}
		if it.Path != "" && !holds(it.Path) {
			continue
		}
		if f.Path != nil && it.Path != "" && !listed[it.Path] { // a folder: its files the filter keeps
			for lf := range listed {
				if under(lf, it.Path) && f.Path.MatchString(lf) && f.inScope(lf) {
					kept = append(kept, item{Path: lf})
				}
			}
			continue
		}
		if !f.inScope(file) || f.Path != nil && !f.Path.MatchString(file) {
			continue
		}
		kept = append(kept, it)
	}
	if f.Name != nil {
		kept = f.byName(ix, kept)
	}
	return dedupe(kept), gone
}

func (f filters) inScope(file string) bool {
	if len(f.Scope) == 0 || file == "." {
		return true
	}
	for _, s := range f.Scope {
		if under(file, s) || under(s, file) {
			return true
		}
	}
	return false
}

// byName replaces each item with the outermost listed tests under it whose
// name matches the name filter (and whose file the path filter and scope
// keep).
func (f filters) byName(ix *workspace.Index, items []item) []item {
	byID := make(map[string]*testdex.Test, len(ix.Tests))
	for i := range ix.Tests {
		byID[ix.Tests[i].ID] = &ix.Tests[i]
	}
	inside := func(t *testdex.Test, it item) bool {
		if it.Path != "" {
			return under(t.File, it.Path)
		}
		for p := t; p != nil; p = byID[p.Parent] {
			if p.ID == it.ID {
				return true
			}
		}
		return false
	}
	var out []item
	for i := range ix.Tests {
		t := &ix.Tests[i]
		if !f.Name.MatchString(t.Name) || !f.inScope(t.File) || f.Path != nil && !f.Path.MatchString(t.File) {
			continue
		}
		outer := true
		for p := byID[t.Parent]; p != nil; p = byID[p.Parent] {
			if f.Name.MatchString(p.Name) {
				outer = false
				break
			}
		}
		if !outer {
			continue
		}
		for _, it := range items {
			if inside(t, it) {
				out = append(out, item{ID: t.ID})
				break
			}
		}
	}
	return out
}

// dedupe drops repeated items and IDs of files run whole, in a stable
// order: paths, then IDs, each sorted.
func dedupe(items []item) []item {
	seen := map[item]bool{}
	var paths []string
	var out []item
	for _, it := range items {
		if it.Path != "" && !seen[it] {
			seen[it] = true
			paths = append(paths, it.Path)
			out = append(out, it)
		}
	}
	for _, it := range items {
		if it.ID == "" || seen[it] {
			continue
		}
		seen[it] = true
		if file, _, ok := strings.Cut(it.ID, "::"); ok && coveredBy(file, paths) {
			continue
		}
		out = append(out, it)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Path == "") != (b.Path == "") {
			return a.Path != ""
		}
		return a.Path+a.ID < b.Path+b.ID
	})
	return out
}

func coveredBy(file string, paths []string) bool {
	for _, p := range paths {
		if under(file, p) {
			return true
		}
	}
	return false
}

// split sorts items into the IDs and paths of a workspace.Request.
func split(items []item) (ids, paths []string) {
	for _, it := range items {
		if it.Path != "" {
			paths = append(paths, it.Path)
		} else {
			ids = append(ids, it.ID)
		}
	}
	return ids, paths
}

// String shows the filters in force for the cycle's header: "" when none.
func (f filters) String() string {
	var b strings.Builder
	if f.Name != nil {
		fmt.Fprintf(&b, " · name /%s/", f.Name)
	}
	if f.Path != nil {
		fmt.Fprintf(&b, " · path /%s/", f.Path)
	}
	if len(f.Scope) > 0 {
		fmt.Fprintf(&b, " · under %s", strings.Join(f.Scope, ", "))
	}
	return b.String()
}
