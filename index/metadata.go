package index

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/testdex/testdex"
)

// MetadataFormat and MetadataVersion identify the metadata file written by
// `testdex index -o FILE` (the metadata method of seed 001: a listing read
// offline, without the sources). The version changes when a field changes
// meaning; records inside follow testdex.SchemaVersion.
const (
	MetadataFormat  = "testdex-metadata"
	MetadataVersion = 1
)

// Metadata is the metadata file's content.
type Metadata struct {
	Format   string            `json:"format"`
	Version  int               `json:"version"`
	Schema   int               `json:"schema"` // testdex.SchemaVersion of the records
	Projects []Project         `json:"projects"`
	Files    []MetadataFile    `json:"files"`
	Problems []testdex.Problem `json:"problems"`
}

// MetadataFile is one file with its content hash and its records.
type MetadataFile struct {
	File
	Tests []testdex.Test `json:"tests"`
}

// Metadata returns the index as a metadata document. It holds no absolute
// paths and no times, so the same tree gives the same bytes anywhere.
func (ix *Index) Metadata() *Metadata {
	m := &Metadata{Format: MetadataFormat, Version: MetadataVersion, Schema: testdex.SchemaVersion,
		Projects: ix.Projects, Problems: ix.Problems}
	at := map[string]int{}
	for _, f := range ix.Files {
		at[f.Path] = len(m.Files)
		m.Files = append(m.Files, MetadataFile{File: f, Tests: []testdex.Test{}})
	}
	for _, t := range ix.Tests {
		if i, ok := at[t.File]; ok {
			m.Files[i].Tests = append(m.Files[i].Tests, t)
		}
	}
	if m.Projects == nil {
		m.Projects = []Project{}
	}
	if m.Problems == nil {
		m.Problems = []testdex.Problem{}
	}
	return m
}

// WriteMetadata writes the index as an indented JSON metadata file.
func (ix *Index) WriteMetadata(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	return enc.Encode(ix.Metadata())
}

// ReadMetadata loads a metadata file into an Index that answers Select
// like a built one. name is used in error messages. root becomes the
// Index's Root (records stay relative to the tree that was indexed).
func ReadMetadata(r io.Reader, name, root string) (*Index, error) {
	var m Metadata
	dec := json.NewDecoder(r)
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("read metadata %s: %w (write one with 'testdex index -o FILE')", name, err)
	}
	if m.Format != MetadataFormat {
		return nil, fmt.Errorf("read metadata %s: not a testdex metadata file (format %q)", name, m.Format)
	}
	if m.Version != MetadataVersion {
		return nil, fmt.Errorf("read metadata %s: version %d, this testdex reads version %d (regenerate it with 'testdex index -o %s')", name, m.Version, MetadataVersion, name)
	}
	ix := &Index{Root: root, Searched: root, Projects: m.Projects, Problems: m.Problems}
	for _, f := range m.Files {
		ix.Files = append(ix.Files, f.File)
		ix.Tests = append(ix.Tests, f.Tests...)
	}
	ix.Stats.Candidates = len(ix.Files)
	return ix, nil
}

// Under keeps the records whose file lies in one of the root-relative
// paths (files or folders); no path keeps everything. It is how a listing
// read from metadata is narrowed without touching the sources.
func Under(tests []testdex.Test, paths []string) []testdex.Test {
	if len(paths) == 0 {
		return tests
	}
	var out []testdex.Test
	for _, t := range tests {
		for _, p := range paths {
			p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
			if p == "" || p == "." || t.File == p || strings.HasPrefix(t.File, p+"/") {
				out = append(out, t)
				break
			}
		}
	}
	return out
}
