// Package htmlreport writes a coverage.Report as a static site (`testdex
// coverage --html DIR`): an index of the files, a page per source file
// with its lines marked and a panel that lists the tests of a clicked
// line, and a page per test with what it executed. Plain html/template,
// no external assets, a little inline JS: it works from file:// offline.
//
//	coverage.Report ──► pages (site data: marks per line, links) ──► templates ──► DIR
//	                          index.html, files/NNNN-slug.html, tests/NNNN-slug.html
package htmlreport

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/testdex/testdex/coverage"
)

// marker names the file that marks a folder as a site this package
// wrote, so that writing again may replace it and a folder of someone
// else's is never emptied.
const marker = ".testdex-coverage-site"

// ErrNotSite is returned when DIR holds files and is no coverage site.
var ErrNotSite = errors.New("folder is not empty and holds no testdex coverage site")

// Options configure Write. Read is required.
type Options struct {
	// Read returns a root-relative source file's content now; an error
	// for a file gone (its page then lists what was recorded).
	Read func(path string) ([]byte, error)
	// Title heads the index page; "" means "Coverage".
	Title string
}

// Write writes rep as a site into dir: created when missing, replaced
// when it holds a site written before, refused (ErrNotSite) when it
// holds other files. It returns the number of test pages.
func Write(dir string, rep *coverage.Report, o Options) (int, error) {
	if err := prepare(dir); err != nil {
		return 0, err
	}
	s := newSite(rep, o)
	var written []string
	page := func(rel string, t *template.Template, data any) error {
		written = append(written, rel)
		return s.writePage(dir, rel, t, data)
	}
	if err := page("index.html", tmplIndex, s.index()); err != nil {
		return 0, err
	}
	for i := range rep.Files {
		if err := page(s.fileHref[rep.Files[i].Path], tmplFile, s.filePage(&rep.Files[i])); err != nil {
			return 0, err
		}
	}
	for _, t := range rep.Tests {
		if err := page(s.testHref[t.ID], tmplTest, s.testPage(t)); err != nil {
			return 0, err
		}
	}
	return len(rep.Tests), writeMarker(dir, written)
}

// markerHead is the marker's first line; the pages written follow, one
// root-relative path a line.
const markerHead = "written by testdex coverage --html; the next run replaces the pages listed below, and only those"

// prepare makes dir ready: a new or empty folder is created; in a site
// written before, the pages its marker lists are removed (a file someone
// else put there stays, as does anything a marker does not name).
func prepare(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	case len(entries) > 0:
		data, err := os.ReadFile(filepath.Join(dir, marker))
		if err != nil {
			return fmt.Errorf("%w: %s (name a new or empty folder)", ErrNotSite, dir)
		}
		for _, rel := range strings.Split(string(data), "\n")[1:] {
			if !fs.ValidPath(rel) || rel == "." || rel == marker {
				continue // not a page this package names
			}
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				if err := os.Remove(p); err != nil {
					return err
				}
			}
		}
	}
	for _, sub := range []string{"files", "tests"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	return writeMarker(dir, nil)
}

// writeMarker marks dir as a site holding the pages written.
func writeMarker(dir string, written []string) error {
	return os.WriteFile(filepath.Join(dir, marker), []byte(strings.Join(append([]string{markerHead}, written...), "\n")+"\n"), 0o644)
}

func (s *site) writePage(dir, rel string, t *template.Template, data any) error {
	f, err := os.Create(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	if err := t.Execute(f, data); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", rel, err)
	}
	return f.Close()
}

// slug makes a readable, safe file name part of a path or test ID.
func slug(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 60 {
			break
		}
	}
	return b.String()
}
