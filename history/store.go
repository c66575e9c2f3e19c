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

// compactAfter is how many documents a history file holds before Append
// rewrites it whole (merged, bounded, canonical) rather than add one more.
const compactAfter = 16

// Append adds add to the history file path under a lock file beside it
// (path + ".lock"), so that runs appending at once lose nothing.
//
// Most appends write add as one more document at the end of the file
// (one write, O_APPEND): its cost is that of the run's own records, not
// of the whole history (a run of 2,000 tests on a history of 100,000
// attempts: see BenchmarkAppend). Every compactAfter documents, and
// whenever the file is not one this testdex appended to (an older
// version, a last document cut short, an odd file), it is read whole,
// merged with add and renamed over, bounded (KeptRuns, MaxAttempts): a
// reader merges the documents anyway, so a file between compactions
// reads as the compacted one would. An odd file in its place (a link, a
// FIFO, a folder, too large: a *state.OddError) is said through warn
// and replaced, as every state file is; a regular file that is not a
// history this testdex reads (a newer version's, or damaged) is not
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
	data, err := state.Read(path)
	var odd *state.OddError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data, err = nil, nil
	case errors.As(err, &odd):
		if warn != nil {
			warn(err.Error())
		}
		data, err = nil, nil
	case err != nil:
		return err
	}
	if appendable(data) {
		if err := appendDoc(path, add); err != nil {
			return fmt.Errorf("history %s: %w", path, err)
		}
		return nil
	}
	var old *History
	if data != nil {
		if old, err = Read(bytes.NewReader(data)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if old.Dropped != "" && warn != nil {
			warn(fmt.Sprintf("history %s: %s", path, old.Dropped))
		}
	}
	if err := Save(path, Merge(old, add)); err != nil {
		return fmt.Errorf("history %s: %w", path, err)
	}
	return nil
}

// docStart is how Write begins a document of this version.
var docStart = []byte(fmt.Sprintf("{\"version\": %d,\n", Version))

// appendable says whether a document can be added at the end of data:
// it is a file of this version's documents, as Write ends them, fewer
// than compactAfter of them.
func appendable(data []byte) bool {
	if !bytes.HasPrefix(data, docStart) || !bytes.HasSuffix(data, []byte("]}\n")) {
		return false
	}
	return bytes.Count(data, append([]byte("]}\n"), docStart...))+1 < compactAfter
}

// appendDoc writes add, in canonical form, at the end of the file path
// in one write.
func appendDoc(path string, add *History) error {
	var buf bytes.Buffer
	if err := Merge(add).Write(&buf); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// lockFile opens (creating) the lock file path.
func lockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}
