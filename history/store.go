package history

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/testdex/testdex/internal/state"
)

// File is where the history of root is kept under the cache folder dir,
// when no --history FILE names another place.
func File(dir, root string) string { return state.Path(dir, "history", root, "json") }

// Load reads the history file path; a missing file is an empty history.
// A file testdex cannot trust (not a regular file, too large, not a
// history, a newer version) is an error naming it.
func Load(path string) (*History, error) {
	data, err := state.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &History{Version: Version}, nil
	}
	if err != nil {
		return nil, err
	}
	h, err := Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// Save replaces the history file path with h (as Merge returned it, for
// its canonical form), atomically, creating its folder.
func Save(path string, h *History) error {
	var buf bytes.Buffer
	if err := h.Write(&buf); err != nil {
		return err
	}
	return state.Write(path, buf.Bytes())
}

// Append merges add into the history file path under a lock file beside
// it (path + ".lock"), so that runs appending at once lose nothing: each
// reads the file as the last one left it, merges its own records in and
// renames the result over it. An odd file in its place (a link, a FIFO,
// a folder, too large: a *state.OddError) is said through warn and
// replaced, as every state file is; a regular file that is not a
// history this testdex reads (another version's, or damaged) is not
// overwritten: the error says why.
func Append(path string, add *History, warn func(string)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("history %s: %w", path, err)
	}
	unlock, err := lock(path + ".lock")
	if err != nil {
		return fmt.Errorf("history %s: cannot lock it: %w", path, err)
	}
	defer unlock()
	old, err := Load(path)
	var odd *state.OddError
	if errors.As(err, &odd) {
		if warn != nil {
			warn(err.Error())
		}
		old, err = nil, nil
	}
	if err != nil {
		return err
	}
	if err := Save(path, Merge(old, add)); err != nil {
		return fmt.Errorf("history %s: %w", path, err)
	}
	return nil
}

// lockFile opens (creating) the lock file path.
func lockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}
