// Package state is the one way testdex reads and writes what it remembers
// about a root between runs (the last failures, the passing state of `run
// --changed`, the coverage baselines; the coverage index checks its file
// here before bbolt opens it): one file per kind and root under the cache
// folder, named by Path.
//
// Reading trusts nothing about the file: Read opens only a regular file
// (not a symbolic link, a FIFO, a device or a folder), without blocking,
// and of at most MaxSize bytes; anything else is an *OddError, which the
// callers turn into a warning and an empty state (the next run rewrites
// it), never a hang, a huge allocation or a failed command. Writing is
// atomic: a temporary file beside the target, renamed over it, so a
// reader sees the old state or the new one, never half of one.
package state

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/zeebo/xxh3"
)

// MaxSize bounds a state file. The largest real one, the coverage
// baselines of a big monorepo, is a few megabytes.
const MaxSize = 256 << 20

// Path is the file of kind for root under the cache folder dir:
// DIR/KIND/HASH.EXT, HASH the root's xxh3 (stable across processes).
func Path(dir, kind, root, ext string) string {
	return filepath.Join(dir, kind, strconv.FormatUint(xxh3.HashString(root), 16)+"."+ext)
}

// OddError is a state file testdex cannot trust: not a regular file, too
// large, or unreadable.
type OddError struct {
	Path string
	Why  string // "is a symbolic link", "cannot be read: ...", ...
}

func (e *OddError) Error() string {
	return fmt.Sprintf("state file %s %s; ignoring it (the next run rewrites it)", e.Path, e.Why)
}

// Read returns the content of the state file path. A missing file is an
// error satisfying errors.Is(err, fs.ErrNotExist); an odd one is an
// *OddError.
func Read(path string) ([]byte, error) {
	if err := Usable(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case err != nil:
		return nil, &OddError{Path: path, Why: "cannot be read: " + errText(err)}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &OddError{Path: path, Why: "cannot be read: " + errText(err)}
	}
	if why := odd(fi); why != "" { // replaced since Usable looked
		return nil, &OddError{Path: path, Why: why}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	switch {
	case err != nil:
		return nil, &OddError{Path: path, Why: "cannot be read: " + errText(err)}
	case len(data) > MaxSize:
		return nil, &OddError{Path: path, Why: fmt.Sprintf("is larger than %d bytes", MaxSize)}
	}
	return data, nil
}

// Usable checks, without opening it, that path is absent or a regular
// file of at most MaxSize bytes: what a caller that opens the file itself
// (bbolt) must know first, as opening a FIFO blocks.
func Usable(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return err
	case err != nil:
		return &OddError{Path: path, Why: "cannot be read: " + errText(err)}
	}
	if why := odd(fi); why != "" {
		return &OddError{Path: path, Why: why}
	}
	return nil
}

// odd says what is wrong with a state file's type or size, "" when
// nothing is.
func odd(fi fs.FileInfo) string {
	switch t := fi.Mode().Type(); {
	case t&fs.ModeSymlink != 0:
		return "is a symbolic link, not a file testdex wrote"
	case fi.IsDir():
		return "is a folder"
	case !fi.Mode().IsRegular():
		return fmt.Sprintf("is not a regular file (%s)", t)
	case fi.Size() > MaxSize:
		return fmt.Sprintf("is larger than %d bytes", MaxSize)
	}
	return ""
}

// errText is an error's reason without the path the OddError already
// names.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Write replaces the state file path with data, atomically, creating its
// folder. An odd entry in its place (a symbolic link, a FIFO, an empty
// folder) is removed first; a folder that holds files is an error, not
// something to delete.
func Write(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save state %s: %w", path, err)
	}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("save state %s: it %s and cannot be replaced: %w", path, odd(fi), err)
		}
	}
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return fmt.Errorf("save state %s: %w", path, err)
	}
	return nil
}

// TempPattern names the temporary files WriteAtomic makes (os.CreateTemp's
// pattern), beside the file they replace.
const TempPattern = ".testdex-tmp-*"

// WriteAtomic replaces the file path with what write writes, atomically:
// write goes to a temporary file beside path (buffered), which is renamed
// over path only when write, the flush and the close all succeeded, so a
// reader sees the old file or the new one, never half of one; otherwise the
// temporary file is removed and the first error returned, unwrapped (the
// caller names the operation). Path's folder must exist. The new file has
// os.CreateTemp's mode, 0600. It is the one atomic writer of testdex: the
// state files, the listing caches and `testdex index -o` use it.
func WriteAtomic(path string, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), TempPattern)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	w := bufio.NewWriter(tmp)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
