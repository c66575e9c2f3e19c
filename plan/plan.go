// Package plan holds what a run executes as plain data: the batches (one
// per project and framework), what each hands its runner, the records it
// expects, and the part of the listing that names what the runners
// report. A plan is made by package index from a listing and a selection,
// written and read as a versioned JSON document (cargo-nextest's saved
// test list, for runs rather than lists), and executed by package run.
//
//	index.Plan(selection) ──► Plan ──► Write ─► plan.json ─► Read ──► Plan
//	                           │                                      │
//	                           └─────────── Bind (live runners) ◄─────┘
//	                                             │
//	                                             ▼
//	                                         run.Run
//
// A plan read from a file holds no live code: Bind finds each batch's
// project and framework again in a fresh listing of the root (the runner
// is the language's, as that machine's detection configures it) and
// refuses a batch whose framework settings differ from those the plan was
// made with, so a plan replays only where it means the same run.
package plan

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Version is the version of the plan document this testdex writes and
// reads. A change that an older reader would misread increments it.
const Version = 1

// Plan is a run's batches, in a stable order (by project folder, then
// framework).
type Plan struct {
	// Version is the document's version (Version when made here).
	Version int `json:"version"`
	// Batches run through a native runner each.
	Batches []*Batch `json:"batches"`
	// Unrunnable are the selected records of frameworks testdex cannot
	// run: they end "unreported".
	Unrunnable []testdex.Test `json:"unrunnable,omitempty"`
	// Unchanged are the records `run --changed` does not run, with the
	// reason (set by the caller; index leaves it empty).
	Unchanged       []testdex.Test `json:"unchanged,omitempty"`
	UnchangedReason string         `json:"unchangedReason,omitempty"`
	// Listing is what naming the runners' results reads: the records and
	// files of the batches' projects and frameworks.
	Listing Listing `json:"listing"`
}

// Batch is one project and framework of a plan, and what its runner runs.
type Batch struct {
	// Name is "DIR FRAMEWORK", DIR root-relative.
	Name      string            `json:"name"`
	Dir       string            `json:"dir"` // root-relative project folder
	Framework testdex.Framework `json:"framework"`
	// Settings are the framework's settings in the project when the plan
	// was made (lang.Setup.Settings): Bind refuses a project whose
	// settings differ.
	Settings lang.Settings `json:"settings,omitempty"`
	// Paths are the root-relative paths of the selection that reach the
	// batch (its Selection.Paths are project-relative).
	Paths []string `json:"paths,omitempty"`
	// Selection is handed to the framework's Runner.
	Selection lang.Selection `json:"selection"`
	// Expected are the listed records the selection covers (descendants
	// included): the runner should report each of them or a descendant. A
	// record it does not report is "unreported", never a failure.
	Expected []*testdex.Test `json:"expected"`
	// Outside are the symbolic links leaving the root under the
	// selection's paths, project-relative: the framework must not follow
	// them (lang.LinkGuard).
	Outside []lang.Link `json:"outside,omitempty"`

	// Project and Setup are the live project and framework that run the
	// batch: set by index when it makes the plan, by Bind for a plan
	// read from a document.
	Project *lang.Project `json:"-"`
	Setup   *lang.Setup   `json:"-"`
}

// Listing is the part of a listing a plan names results with (see
// lang.Listing, which it becomes for the frameworks' naming rules).
type Listing struct {
	// Root is the absolute listed root; not written (a plan names tests
	// relative to the root, wherever it lies).
	Root     string               `json:"-"`
	Tests    []testdex.Test       `json:"tests"`
	Files    []lang.ListedFile    `json:"files"`
	Projects []lang.ListedProject `json:"projects"`
}

// Leaves counts the listed leaf tests the plan expects: no suites or
// parents with listed children, no dynamic records (their rows are known
// only at run time), the records testdex cannot run included.
func (p *Plan) Leaves() int {
	n := len(p.Unrunnable)
	for _, b := range p.Batches {
		parents := map[string]bool{}
		for _, t := range b.Expected {
			if !t.Dynamic {
				parents[t.Parent] = true
			}
		}
		for _, t := range b.Expected {
			if !t.Dynamic && !parents[t.ID] {
				n++
			}
		}
	}
	return n
}

// Write writes the plan as an indented JSON document.
func (p *Plan) Write(w io.Writer) error {
	out := *p
	if out.Version == 0 {
		out.Version = Version
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(&out)
}

// Read reads a plan document that Write wrote. A document of another
// version, or none, is an error that says so; its batches are not bound.
func Read(r io.Reader) (*Plan, error) {
	var head struct {
		Version *int `json:"version"`
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a testdex plan: %w", err)
	}
	switch {
	case head.Version == nil:
		return nil, fmt.Errorf("not a testdex plan: no version")
	case *head.Version != Version:
		return nil, fmt.Errorf("a testdex plan of version %d; this testdex reads version %d (make the plan again with this testdex)", *head.Version, Version)
	}
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("not a testdex plan: %w", err)
	}
	for i, b := range p.Batches {
		if b == nil || b.Dir == "" || b.Framework == "" {
			return nil, fmt.Errorf("testdex plan: batch %d has no project folder or framework", i+1)
		}
	}
	return &p, nil
}

// Finder finds the live project and framework setup of a root-relative
// project folder; ok is false when the root has no such project or the
// project no such framework.
type Finder func(dir string, fw testdex.Framework) (p *lang.Project, s *lang.Setup, ok bool)

// Bind sets each batch's live project and framework through find, and
// the listing's root (the absolute root the plan runs in). A batch whose
// project or framework is gone, whose framework cannot run, or whose
// settings differ from the plan's, is an error naming it: the plan would
// not mean the same run there.
func (p *Plan) Bind(root string, find Finder) error {
	p.Listing.Root = root
	for _, b := range p.Batches {
		proj, s, ok := find(b.Dir, b.Framework)
		switch {
		case !ok:
			return fmt.Errorf("plan batch %s: the root has no %s project in %s", b.Name, b.Framework, b.Dir)
		case s.Runner == nil:
			return fmt.Errorf("plan batch %s: testdex cannot run %s tests", b.Name, b.Framework)
		case s.Settings.Key() != b.Settings.Key():
			return fmt.Errorf("plan batch %s: the project's %s settings differ from the plan's (make the plan again here)", b.Name, b.Framework)
		}
		b.Project, b.Setup = proj, s
	}
	return nil
}
