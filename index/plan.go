package index

import (
	"sort"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Batch is a set of selected tests that one framework runs in one project.
type Batch struct {
	// Name is "DIR FRAMEWORK", DIR root-relative.
	Name    string
	Dir     string // root-relative project folder
	Project *lang.Project
	Setup   *lang.Setup
	// Tests are the selected records, none a descendant of another.
	Tests []*testdex.Test
}

// Plan groups selected records into batches, in a stable order (by
// project folder, then framework; within a batch, the selection's order).
// A dynamic record stands for tests known only at run time: it runs its
// parent. Selected records need not be in the index (a row known only at
// run time, from Resolve). Records whose framework testdex cannot run yet
// are returned apart.
func (ix *Index) Plan(selected []testdex.Test) (batches []*Batch, unrunnable []testdex.Test) {
	byID := make(map[string]*testdex.Test, len(ix.Tests))
	for i := range ix.Tests {
		byID[ix.Tests[i].ID] = &ix.Tests[i]
	}
	chosen := map[string]bool{}
	for _, t := range selected {
		id := t.ID
		if t.Dynamic && t.Parent != "" {
			id = t.Parent
		}
		chosen[id] = true
	}
	groups := map[*lang.Setup]*Batch{}
	for _, g := range ix.groups {
		groups[g.setup] = &Batch{Dir: displayRel(ix.Root, g.proj.Dir), Project: g.proj, Setup: g.setup}
	}
	seen := map[string]bool{}
	for i := range selected {
		t := &selected[i]
		if t.Dynamic && t.Parent != "" {
			t = byID[t.Parent]
		}
		if t == nil || seen[t.ID] || ancestorChosen(t, byID, chosen) {
			continue
		}
		seen[t.ID] = true
		if listed := byID[t.ID]; listed != nil {
			t = listed
		}
		b := ix.batchOf(t, groups)
		if b == nil || b.Setup.Runner == nil {
			unrunnable = append(unrunnable, *t)
			continue
		}
		b.Tests = append(b.Tests, t)
	}
	for _, b := range groups {
		if len(b.Tests) > 0 {
			b.Name = b.Dir + " " + string(b.Setup.Framework)
			batches = append(batches, b)
		}
	}
	sort.Slice(batches, func(i, j int) bool { return batches[i].Name < batches[j].Name })
	return batches, unrunnable
}

func ancestorChosen(t *testdex.Test, byID map[string]*testdex.Test, chosen map[string]bool) bool {
	for p := byID[t.Parent]; p != nil; p = byID[p.Parent] {
		if chosen[p.ID] {
			return true
		}
	}
	return false
}

// batchOf finds the batch of a record by its project folder and framework.
func (ix *Index) batchOf(t *testdex.Test, groups map[*lang.Setup]*Batch) *Batch {
	for _, b := range groups {
		if b.Dir == t.Project && b.Setup.Framework == t.Framework {
			return b
		}
	}
	return nil
}
