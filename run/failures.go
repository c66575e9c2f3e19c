package run

import (
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/testdex/testdex/internal/state"
)

// The last run's failures are kept per root folder, in a small JSON file
// under the cache folder, written atomically, so `testdex failures` and
// `testdex run --failed` work from any later process (the seed kept them
// in a session-scoped slot, lost when the process ended).

// FailuresFile is where the failures of root are kept under dir.
func FailuresFile(dir, root string) string { return state.Path(dir, "failures", root, "json") }

type failuresDoc struct {
	Root     string    `json:"root"`
	Failures []Failure `json:"failures"`
}

// SaveFailures records the failures of a run of root (an empty list
// clears them).
func SaveFailures(dir, root string, fs []Failure) error {
	if fs == nil {
		fs = []Failure{}
	}
	data, err := json.MarshalIndent(failuresDoc{Root: root, Failures: fs}, "", " ")
	if err != nil {
		return err
	}
	return state.Write(FailuresFile(dir, root), append(data, '\n'))
}

// LoadFailures returns the failures of the last run of root; none when
// there was no run yet. A state file testdex cannot trust (not a regular
// file, too large, unreadable, not JSON) counts as no run, and warn (when
// not nil) says so.
func LoadFailures(dir, root string, warn func(string)) ([]Failure, error) {
	path := FailuresFile(dir, root)
	data, err := state.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var doc failuresDoc
	if err == nil && json.Unmarshal(data, &doc) != nil {
		err = &state.OddError{Path: path, Why: "is not a failures file testdex wrote"}
	}
	if err != nil {
		if warn != nil {
			warn(err.Error())
		}
		return nil, nil
	}
	return doc.Failures, nil
}
