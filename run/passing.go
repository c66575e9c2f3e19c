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

// The state of `testdex run --changed`: per root, for each test file whose
// tests all passed (or were skipped) in their last run, the fingerprint of
// everything they depended on then (changes.Graph.Fingerprints). It lives
// beside the failures in the cache folder, written atomically, so it lasts
// across invocations (Ori kept its snapshot in memory, for one watch
// process only).

// PassingFile is where the passing fingerprints of root are kept under dir.
func PassingFile(dir, root string) string {
	return filepath.Join(dir, "passing", strconv.FormatUint(xxh3.HashString(root), 16)+".json")
}

type passingDoc struct {
	Root  string            `json:"root"`
	Files map[string]string `json:"files"`
}

// LoadPassing returns the fingerprints of the test files that last passed
// under root; none when there was no run yet.
func LoadPassing(dir, root string) (map[string]string, error) {
	data, err := os.ReadFile(PassingFile(dir, root))
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the passing state: %w", err)
	}
	var doc passingDoc
	if err := json.Unmarshal(data, &doc); err != nil || doc.Files == nil {
		return map[string]string{}, nil // a damaged state vouches for nothing: everything runs
	}
	return doc.Files, nil
}

// SavePassing records the fingerprints of the test files that passed.
func SavePassing(dir, root string, files map[string]string) error {
	path := PassingFile(dir, root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save the passing state: %w", err)
	}
	data, err := json.MarshalIndent(passingDoc{Root: root, Files: files}, "", " ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".passing-*")
	if err != nil {
		return fmt.Errorf("save the passing state: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("save the passing state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save the passing state: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}
