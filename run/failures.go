package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/zeebo/xxh3"
)

// The last run's failures are kept per root folder, in a small JSON file
// under the cache folder, written atomically, so `testdex failures` and
// `testdex run --failed` work from any later process (the seed kept them
// in a session-scoped slot, lost when the process ended).

// FailuresFile is where the failures of root are kept under dir.
func FailuresFile(dir, root string) string {
	return filepath.Join(dir, "failures", strconv.FormatUint(xxh3.HashString(root), 16)+".json")
}

type failuresDoc struct {
	Root     string    `json:"root"`
	Failures []Failure `json:"failures"`
}

// SaveFailures records the failures of a run of root (an empty list
// clears them).
func SaveFailures(dir, root string, fs []Failure) error {
	path := FailuresFile(dir, root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save failures: %w", err)
	}
	if fs == nil {
		fs = []Failure{}
	}
	data, err := json.MarshalIndent(failuresDoc{Root: root, Failures: fs}, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".failures-*")
	if err != nil {
		return fmt.Errorf("save failures: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("save failures: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save failures: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

// LoadFailures returns the failures of the last run of root; none when
// there was no run yet.
func LoadFailures(dir, root string) ([]Failure, error) {
	data, err := os.ReadFile(FailuresFile(dir, root))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read failures: %w", err)
	}
	var doc failuresDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("read failures %s: %w (run the tests again to rewrite it)", FailuresFile(dir, root), err)
	}
	return doc.Failures, nil
}
