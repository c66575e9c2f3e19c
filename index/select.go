package index

import (
	"slices"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/languages"
)

// Filter selects records. The zero Filter selects everything. The fields
// combine with AND; values within a field combine with OR.
type Filter struct {
	Frameworks []testdex.Framework
	Kinds      []testdex.Kind
	// Tags selects records carrying any of these tags.
	Tags []string
	// Name selects by name with `go test -run` semantics: one regular
	// expression (RE2) per "/"-separated level, so "TestX" selects TestX
	// and all its subtests and "TestX/case" selects TestX and its subtests
	// whose names match "case".
	Name string
	// IDs selects exactly these IDs and their descendants.
	IDs []string
}

// Select returns the records f selects, in index order. A bad Name
// pattern is an error.
func (ix *Index) Select(f Filter) ([]testdex.Test, error) {
	if f.Name == "" && len(f.Frameworks)+len(f.Kinds)+len(f.Tags)+len(f.IDs) == 0 {
		return slices.Clip(ix.Tests), nil
	}
	var names nameMatcher
	var levels map[string][]string
	if f.Name != "" {
		var err error
		if names, err = compileNameMatcher(f.Name); err != nil {
			return nil, err
		}
		levels = ix.labelLevels()
	}
	var byID map[string]int
	if len(f.IDs) > 0 {
		byID = make(map[string]int, len(ix.Tests))
		for i, t := range ix.Tests {
			byID[t.ID] = i
		}
	}
	ids := map[string]bool{}
	for _, id := range f.IDs {
		ids[id] = true
	}
	var out []testdex.Test
	for _, t := range ix.Tests {
		if len(f.Frameworks) > 0 && !slices.Contains(f.Frameworks, t.Framework) ||
			len(f.Kinds) > 0 && !slices.Contains(f.Kinds, t.Kind) ||
			len(f.Tags) > 0 && !anyTag(t.Tags, f.Tags) {
			continue
		}
		if names != nil && !names.matchName(t.Name) && !names.match(levels[t.ID]) {
			continue
		}
		if len(ids) > 0 && !ix.lineage(t, byID, func(a testdex.Test) bool { return ids[a.ID] }) {
			continue
		}
		out = append(out, t)
	}
	return out, nil
}

// lineage reports whether t or one of its ancestors satisfies ok.
func (ix *Index) lineage(t testdex.Test, byID map[string]int, ok func(testdex.Test) bool) bool {
	for depth := 0; depth < 1000; depth++ {
		if ok(t) {
			return true
		}
		i, found := byID[t.Parent]
		if t.Parent == "" || !found {
			return false
		}
		t = ix.Tests[i]
	}
	return false
}

func anyTag(have, want []string) bool {
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}

// labelLevels are each record's levels for name matching: the labels of
// its lineage, as the tree view shows them (lang.ChildLabel).
func (ix *Index) labelLevels() map[string][]string {
	levels := make(map[string][]string, len(ix.Tests))
	keys := make(map[string]string, len(ix.Tests))
	for _, t := range ix.Tests {
		key := lang.IDKey(t)
		keys[t.ID] = key
		if up, ok := levels[t.Parent]; ok && t.Parent != "" {
			label := lang.ChildLabel(key, keys[t.Parent], languages.Framework(t.Framework).Labels)
			levels[t.ID] = append(up[:len(up):len(up)], label)
			continue
		}
		levels[t.ID] = []string{key}
	}
	return levels
}
