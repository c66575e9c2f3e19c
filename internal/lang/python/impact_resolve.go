package python

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// fsCache answers the questions module resolution asks of the disk, each
// once: does this file exist (read through GraphInput.ReadFile, whose
// bytes are kept for the parse), is this a folder, does it hold Python.
// Paths are absolute.
type fsCache struct {
	read  func(abs string) ([]byte, error)
	files map[string]*fileState
	dirs  map[string]bool
	py    map[string]bool // folder -> it holds a .py file
	// lookups memoise lookup: a large project imports the same names
	// from thousands of files.
	lookups map[string]resolved
}

// fileState is one file: its bytes until parsed, or why it is unreadable.
type fileState struct {
	exists bool
	data   []byte
	err    error // a read error other than absence
}

func newFSCache(read func(string) ([]byte, error)) *fsCache {
	return &fsCache{read: read, files: map[string]*fileState{}, dirs: map[string]bool{}, py: map[string]bool{}, lookups: map[string]resolved{}}
}

// file returns a file's state, reading it the first time.
func (c *fsCache) file(abs string) *fileState {
	if st, ok := c.files[abs]; ok {
		return st
	}
	data, err := c.read(abs)
	st := &fileState{exists: err == nil, data: data}
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !c.isDir(abs) {
		st.exists, st.err = true, err
	}
	c.files[abs] = st
	return st
}

func (c *fsCache) isFile(abs string) bool { return c.file(abs).exists }

func (c *fsCache) isDir(abs string) bool {
	if ok, seen := c.dirs[abs]; seen {
		return ok
	}
	st, err := os.Stat(abs)
	ok := err == nil && st.IsDir()
	c.dirs[abs] = ok
	return ok
}

// hasPython reports whether a folder directly holds a .py file.
func (c *fsCache) hasPython(abs string) bool {
	if ok, seen := c.py[abs]; seen {
		return ok
	}
	ok := len(c.pyFiles(abs)) > 0
	c.py[abs] = ok
	return ok
}

// pyFiles lists the modules directly in a folder: its .py files and its
// subfolders with an __init__.py.
func (c *fsCache) pyFiles(abs string) []string {
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		p := filepath.Join(abs, e.Name())
		switch {
		case e.IsDir():
			if init := filepath.Join(p, "__init__.py"); c.isFile(init) {
				out = append(out, init)
			}
		case strings.HasSuffix(e.Name(), ".py"):
			out = append(out, p)
		}
	}
	return out
}

// resolved is what a module name resolves to in the project.
type resolved struct {
	// files are what importing it runs: the __init__.py of each package
	// on the way and the module's own file (in every root that has it).
	files []string
	// pkgs are the folders of the package it names (several for a
	// namespace package), empty for a plain module.
	pkgs []string
	// ok reports that the whole name resolved; top that its first part
	// lies in the project (otherwise it is the standard library's or an
	// installed package's, and no edge is made).
	ok, top bool
	// weak is true when the first part is only a folder without Python
	// files of its own (a namespace package, or a data folder named like
	// an installed module: json/): it counts only if some file is found
	// through it.
	weak bool
	// missing are the files whose creation would resolve the part that
	// did not (for a precise edge to a file not yet written).
	missing []string
}

// lookup resolves the dotted parts of a module name from each base
// folder and merges what every base gives: Python takes the first
// sys.path entry that has the name, but which entry comes first depends
// on the order pytest imports test files in (rootdir-relative prepend),
// so every candidate counts: safety over savings. A name's first part
// counts as the project's when some base holds it as a package, a module,
// or a folder (a namespace package; see resolved.weak).
func (c *fsCache) lookup(bases, parts []string, relative bool) resolved {
	key := strings.Join(bases, "\x00") + "\x01" + strings.Join(parts, ".")
	if relative {
		key += "\x01r"
	}
	if r, ok := c.lookups[key]; ok {
		return r
	}
	r := c.lookupAll(bases, parts, relative)
	c.lookups[key] = r
	return r
}

func (c *fsCache) lookupAll(bases, parts []string, relative bool) resolved {
	r := resolved{top: relative, weak: !relative}
	for _, base := range bases {
		l := c.lookupIn(base, parts, relative)
		if !l.top {
			continue
		}
		r.top = true
		r.weak = r.weak && l.weak
		r.files = appendNew(r.files, l.files...)
		if l.ok {
			r.ok = true
			r.pkgs = appendNew(r.pkgs, l.pkgs...)
		} else {
			r.missing = appendNew(r.missing, l.missing...)
		}
	}
	if !r.top {
		r.weak = false
	}
	return r
}

// lookupIn resolves parts from one base folder.
func (c *fsCache) lookupIn(base string, parts []string, relative bool) resolved {
	r := resolved{top: relative}
	dirs := []string{base}
	for i, part := range parts {
		if !isName(part) {
			return r
		}
		var next []string
		module := false
		for _, d := range dirs {
			p := filepath.Join(d, part)
			switch {
			case c.isFile(filepath.Join(p, "__init__.py")):
				r.files = append(r.files, filepath.Join(p, "__init__.py"))
				next = append(next, p)
			case c.isFile(p + ".py"):
				r.files = append(r.files, p+".py")
				module = true
			case c.isFile(p + ".pyx"): // a Cython module, built in place
				r.files = append(r.files, p+".pyx")
				module = true
			case c.isDir(p):
				next = append(next, p) // a namespace package's portion
				if i == 0 && !relative && !c.hasPython(p) {
					r.weak = true
				}
			default:
				continue
			}
			r.top = true
		}
		if !r.top {
			return r
		}
		if i == len(parts)-1 && (len(next) > 0 || module) {
			r.pkgs, r.ok = next, true
			return r
		}
		if len(next) == 0 {
			for _, d := range dirs {
				if !module {
					r.missing = append(r.missing, filepath.Join(d, part+".py"), filepath.Join(d, part, "__init__.py"))
				}
			}
			return r
		}
		dirs = next
	}
	// No parts (from . import x): the package folder itself.
	if init := filepath.Join(base, "__init__.py"); c.isFile(init) {
		r.files = append(r.files, init)
	}
	r.pkgs, r.ok = dirs, true
	return r
}

func appendNew(dst []string, add ...string) []string {
	for _, a := range add {
		if !contains(dst, a) {
			dst = append(dst, a)
		}
	}
	return dst
}

// basedir is pytest's prepend-mode sys.path entry for a test module or
// conftest.py: the first folder upward that is not a package (holds no
// __init__.py).
func (c *fsCache) basedir(file string) string {
	d := filepath.Dir(file)
	for c.isFile(filepath.Join(d, "__init__.py")) && filepath.Dir(d) != d {
		d = filepath.Dir(d)
	}
	return d
}

// isName is isIdentifier without a regular expression (it is asked for
// every part of every import): ASCII letters, digits and _, not starting
// with a digit.
func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
