package workspace

import (
	"encoding/json"
	"github.com/testdex/testdex/run"
	"sort"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/internal/state"
)

// The coverage baselines of `run --changed`: per root, for each test file
// whose tests a run recorded coverage of, the file's manifest when that
// run began (changes.Baseline), for the last few recordings. The
// records' own versions cover only the files a test executed; the
// manifest names every file its tests may depend on, so that what changed
// since the recording is known (changes.Graph.Unaffected). A run in which
// a test of the file fails forgets its baselines: a failing test is
// vouched for again only by a new recording.

// keptBaselines bounds the recordings kept per test file (a run by ID
// records some of its tests only, at another time).
const keptBaselines = 4

// BaselinesFile is where the coverage baselines of root are kept under dir.
func BaselinesFile(dir, root string) string { return state.Path(dir, "baselines", root, "json") }

type baselinesDoc struct {
	Root  string                        `json:"root"`
	Files map[string][]changes.Baseline `json:"files"`
}

// LoadBaselines returns the coverage baselines of root; none when there
// are none or the file cannot be trusted (nothing is then vouched for).
func LoadBaselines(dir, root string) map[string][]changes.Baseline {
	var doc baselinesDoc
	data, err := state.Read(BaselinesFile(dir, root))
	if err != nil || json.Unmarshal(data, &doc) != nil || doc.Files == nil {
		return map[string][]changes.Baseline{}
	}
	return doc.Files
}

// updateBaselines adds the run that began at began for the test files it
// recorded, with their manifests then, and forgets the baselines of the
// files with a failure.
func updateBaselines(dir, root string, recorded []string, mans map[string]changes.Manifest, began time.Time, failed []run.Failure) error {
	if dir == "" || len(recorded)+len(failed) == 0 {
		return nil
	}
	files := LoadBaselines(dir, root)
	for _, f := range recorded {
		if m := mans[f]; m != nil {
			bs := append([]changes.Baseline{{Recorded: began, Deps: m}}, files[f]...)
			sort.SliceStable(bs, func(i, j int) bool { return bs[i].Recorded.After(bs[j].Recorded) })
			files[f] = bs[:min(len(bs), keptBaselines)]
		}
	}
	for _, fl := range failed {
		file, _ := testdex.SplitID(fl.ID)
		delete(files, file)
	}
	return writeJSON(BaselinesFile(dir, root), baselinesDoc{Root: root, Files: files})
}

// writeJSON writes v to the state file path.
func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return state.Write(path, append(data, '\n'))
}
