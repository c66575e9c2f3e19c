package js

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// glubeanLister is Glubean's runtime method: the CLI's own scanner,
// `glubean scan`, which writes the project's metadata.json (the seed's
// metadata method, made fresh) with every exported test of every file,
// each keyed by its id, and a builder's steps. The scan writes to a
// scratch file, not the project's own metadata.json, and the file is
// printed for ParseList; the scan's progress goes to standard error.
type glubeanLister struct{}

// glubeanScan runs the CLI given as $0 over the project into a scratch
// file, prints it, removes it and exits with the scan's status.
const glubeanScan = `out=$(mktemp) || exit 1
"$0" scan --dir . --output "$out" >&2
status=$?
cat "$out"
rm -f "$out"
exit $status`

// ListCommand implements lang.Lister.
func (glubeanLister) ListCommand(p *lang.Project, _ []string) (*lang.Command, error) {
	bin, err := glubeanBin(p.Dir, lang.RunOptions{})
	if err != nil {
		return nil, err
	}
	return &lang.Command{Args: []string{"sh", "-c", glubeanScan, bin}, Dir: p.Dir}, nil
}

// glubeanMetadata is the part of the CLI's metadata.json (its
// BundleMetadata, schema version 1) a listing needs.
type glubeanMetadata struct {
	SchemaVersion string `json:"schemaVersion"`
	Files         map[string]struct {
		Exports []struct {
			Type  string `json:"type"`
			ID    string `json:"id"`
			Steps []struct {
				Name string `json:"name"`
			} `json:"steps"`
		} `json:"exports"`
	} `json:"files"`
}

// ParseList implements lang.Lister: each export is a test named by its id
// in its file (project-relative, as the static records' Scope), each of a
// builder's steps a subtest "id > step".
func (glubeanLister) ParseList(_ *lang.Project, stdout, stderr []byte, exitCode int) ([]lang.Listed, error) {
	var m glubeanMetadata
	if err := json.Unmarshal(stdout, &m); err != nil || m.Files == nil {
		msg := strings.TrimSpace(string(stderr))
		if exitCode != 0 && msg != "" {
			return nil, fmt.Errorf("glubean scan exited %d: %s", exitCode, lastLines(msg, 5))
		}
		return nil, fmt.Errorf("glubean scan printed no metadata (exit %d)", exitCode)
	}
	if m.SchemaVersion != "" && m.SchemaVersion != "1" {
		return nil, fmt.Errorf("glubean scan wrote metadata of schema version %s; testdex reads version 1", m.SchemaVersion)
	}
	files := make([]string, 0, len(m.Files))
	for f := range m.Files {
		files = append(files, f)
	}
	sort.Strings(files)
	var out []lang.Listed
	for _, f := range files {
		rel := path.Clean(strings.TrimPrefix(strings.ReplaceAll(f, "\\", "/"), "./"))
		for _, e := range m.Files[f].Exports {
			if e.ID == "" || e.Type != "" && e.Type != "test" {
				continue
			}
			out = append(out, lang.Listed{File: rel, Scope: rel, Name: e.ID, Kind: testdex.KindTest})
			for _, s := range e.Steps {
				out = append(out, lang.Listed{File: rel, Scope: rel, Name: e.ID + " > " + s.Name, Kind: testdex.KindSubtest})
			}
		}
	}
	return out, nil
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
