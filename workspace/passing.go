package workspace

import (
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/testdex/testdex/internal/state"
)

// The state of `testdex run --changed`: per root, for each test file whose
// tests all passed (or were skipped) in their last run, the fingerprint of
// everything they depended on then (changes.Graph.Fingerprints). It lives
// beside the failures in the cache folder, written atomically, so it lasts
// across invocations (Ori kept its snapshot in memory, for one watch
// process only).

// PassingFile is where the passing fingerprints of root are kept under dir.
func PassingFile(dir, root string) string { return state.Path(dir, "passing", root, "json") }

type passingDoc struct {
	Root  string            `json:"root"`
	Files map[string]string `json:"files"`
}

// LoadPassing returns the fingerprints of the test files that last passed
// under root; none when there was no run yet. A state file testdex cannot
// trust vouches for nothing (everything runs), and warn says so.
func LoadPassing(dir, root string, warn func(string)) map[string]string {
	path := PassingFile(dir, root)
	data, err := state.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}
	}
	var doc passingDoc
	if err == nil && (json.Unmarshal(data, &doc) != nil || doc.Files == nil) {
		err = &state.OddError{Path: path, Why: "is not a passing state testdex wrote"}
	}
	if err != nil {
		if warn != nil {
			warn(err.Error())
		}
		return map[string]string{}
	}
	return doc.Files
}

// SavePassing records the fingerprints of the test files that passed.
func SavePassing(dir, root string, files map[string]string) error {
	data, err := json.MarshalIndent(passingDoc{Root: root, Files: files}, "", " ")
	if err != nil {
		return err
	}
	return state.Write(PassingFile(dir, root), append(data, '\n'))
}
