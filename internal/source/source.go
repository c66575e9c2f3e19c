// Package source finds the text of a test, for `testdex show` and the MCP
// discover_tests tool: what an agent asked to make a test pass reads. The
// source of a test that is a section of a document is what its
// framework's Section gives (a markdown spec's body, frontmatter
// stripped, or its scenario's section); a code test's is the function its
// language's Spanner finds around the record's line (the innermost: a
// subtest's closure, a method), else a window of lines from the record's
// line.
package source

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/languages"
)

// The ways a source's extent is found.
const (
	ExtentSpec     = "spec"     // the framework's Section: a spec's body, or its scenario's section
	ExtentFunction = "function" // the function the language's parse gives
	ExtentWindow   = "window"   // Window lines from the record's line: no parse gave an extent
)

// Window is the number of lines shown when no function is known.
const Window = 40

// Source is a test's text: the lines Start to End (1-based, inclusive) of
// File (root-relative).
type Source struct {
	ID     string `json:"id"`
	File   string `json:"file"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Extent string `json:"extent"`
	Text   string `json:"text"`
}

// ErrNoFile is a record without a file or line to read (a dynamic row).
var ErrNoFile = errors.New("no source")

// Of returns the source of record t of the listing ix.
func Of(ix *index.Index, t testdex.Test) (*Source, error) {
	if t.File == "" || t.Line <= 0 {
		return nil, fmt.Errorf("%w: %s has no file and line", ErrNoFile, t.ID)
	}
	abs := filepath.Join(ix.Root, filepath.FromSlash(t.File))
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("read the source of %s: %w", t.ID, err)
	}
	if section := languages.Framework(t.Framework).Section; section != nil {
		start, end, text, err := section(t, data)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNoFile, err)
		}
		return &Source{ID: t.ID, File: t.File, Start: start, End: end, Extent: ExtentSpec, Text: text}, nil
	}
	lines := strings.SplitAfter(string(data), "\n")
	s := &Source{ID: t.ID, File: t.File, Start: t.Line, End: min(len(lines), t.Line+Window-1), Extent: ExtentWindow}
	if sp := spanner(ix, t); sp != nil {
		if spans, err := sp.Spans(abs, data); err == nil {
			if f, ok := around(spans, t.Line); ok {
				s.Start, s.End, s.Extent = f.Start, f.End, ExtentFunction
			}
		}
	}
	if s.Start > len(lines) {
		return nil, fmt.Errorf("%w: %s:%d is past the file's end (list again)", ErrNoFile, t.File, t.Line)
	}
	s.Text = strings.Join(lines[s.Start-1:s.End], "")
	return s, nil
}

// spanner is the Spanner of the project t's file belongs to (projects of
// several ecosystems may share a folder), nil when it has none.
func spanner(ix *index.Index, t testdex.Test) lang.Spanner {
	for _, pf := range ix.ProjectFiles() {
		if pf.Dir == t.Project && slices.Contains(pf.Files, t.File) {
			return pf.Project.Spanner
		}
	}
	return nil
}

// around picks the function a record's line belongs to: the innermost
// span holding it, or, for a line just above a function (a decorator, an
// annotation, a doc comment), the nearest span starting within a few
// lines below it.
func around(spans []lang.FuncSpan, line int) (lang.FuncSpan, bool) {
	var best lang.FuncSpan
	found := false
	for _, s := range spans {
		if s.Start <= line && line <= s.End && (!found || s.End-s.Start < best.End-best.Start) {
			best, found = s, true
		}
	}
	if found {
		return best, true
	}
	for _, s := range spans {
		if s.Start > line && s.Start <= line+5 && (!found || s.Start < best.Start) {
			best, found = s, true
		}
	}
	if found {
		best.Start = line // the decorator or annotation belongs to it
	}
	return best, found
}
