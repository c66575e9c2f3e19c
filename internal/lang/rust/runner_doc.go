package rust

import (
	"bufio"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Selecting doc tests by name. rustdoc names a doc test
// "FILE - ITEM (line N)" (FILE relative to the workspace root, ITEM the
// item path with its spaces turned into dashes, empty for crate docs),
// and hands the filters of `cargo test --doc -- FILTER` to libtest only
// after splitting each at whitespace (rust-lang/rust#39789). The whole
// name is therefore never a filter: "src/lib.rs - f (line 5)" becomes the
// five filters "src/lib.rs", "-", "f", "(line" and "5)", and "-" matches
// every doc test. --exact matches none.
//
// What a filter can hold is one of those words, and libtest runs a test
// that any filter matches (as a substring) and no --skip matches. A doc
// test is one line of one file, so it is selected by:
//
//   - the filter "N)", which matches its line and every line ending in
//     the same digits;
//   - the skips "0N)" to "9N)", which drop the longer line numbers (the
//     name's "N)" follows a space, so these never match it);
//   - the skip of every other source file of the crate whose line N may
//     start a doc test (it is in a comment or a doc attribute), by its
//     path, which drops the other files' doc tests at line N.
//
// A skip never drops a selected test: doc tests whose skips would drop
// each other run in separate commands, and a file whose path is inside
// the selected name itself is not skipped (its doc test at line N then
// runs too, and is reported as what it is). None of these words holds
// whitespace, so rustdoc's split leaves them whole.

// docNameRE matches a doc test's name: file, item, line. The item may
// hold spaces (names from listings that keep them).
var docNameRE = regexp.MustCompile(`^(\S+) - (.*?) ?\(line (\d+)\)$`)

// isDocName reports whether a libtest name is a doc test's.
func isDocName(name string) bool { return docNameRE.MatchString(name) }

// docSelections returns the libtest arguments (filters, then --skip
// pairs) of the doc test commands running exactly the doc tests named, by
// the rules above: usually one command; more when a skip one test needs
// would drop another (a file's path inside another's name), each doc test
// in the first command it does not conflict with. A name that does not
// have the doc test shape is passed whole and so runs by rustdoc's split
// words (more than asked; reported as run).
func (r Runner) docSelections(names []string) [][]string {
	type want struct {
		name, filter string
		skips        []string
	}
	var wants []want
	lines := map[int]bool{}
	for _, n := range names {
		if m := docNameRE.FindStringSubmatch(n); m != nil {
			ln, _ := strconv.Atoi(m[3])
			lines[ln] = true
		}
	}
	files := r.docFilesAt(lines)
	for _, n := range names {
		m := docNameRE.FindStringSubmatch(n)
		if m == nil {
			wants = append(wants, want{name: n, filter: n})
			continue
		}
		w := want{name: n, filter: m[3] + ")"}
		for d := '0'; d <= '9'; d++ {
			w.skips = append(w.skips, string(d)+w.filter)
		}
		ln, _ := strconv.Atoi(m[3])
		for _, f := range files[ln] {
			if f != m[1] && !strings.Contains(n, f) {
				w.skips = append(w.skips, f)
			}
		}
		wants = append(wants, w)
	}
	conflict := func(a, b want) bool {
		return substringOfAny(b.name, a.skips) || substringOfAny(a.name, b.skips)
	}
	var groups [][]want
	for _, w := range wants {
		placed := false
		for i, g := range groups {
			if !slices.ContainsFunc(g, func(x want) bool { return conflict(x, w) }) {
				groups[i], placed = append(g, w), true
				break
			}
		}
		if !placed {
			groups = append(groups, []want{w})
		}
	}
	var out [][]string
	for _, g := range groups {
		var filters, skips []string
		for _, w := range g {
			filters, skips = append(filters, w.filter), append(skips, w.skips...)
		}
		args := dedupe(filters)
		for _, s := range dedupe(skips) {
			args = append(args, "--skip", s)
		}
		out = append(out, args)
	}
	return out
}

// substringOfAny reports whether one of subs is a substring of s.
func substringOfAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// docFilesAt maps each line of lines to the crate's source files, by
// rustdoc's path, whose line of that number may start a doc test.
func (r Runner) docFilesAt(lines map[int]bool) map[int][]string {
	out := map[int][]string{}
	if len(lines) == 0 || r.Crate == nil || r.Crate.Dir == "" {
		return out
	}
	for _, rel := range crateSources(r.Crate.Dir) {
		at := docLinesAt(filepath.Join(r.Crate.Dir, filepath.FromSlash(rel)), lines)
		for ln := range at {
			out[ln] = append(out[ln], path.Join(r.Crate.DocPrefix, rel))
		}
	}
	for _, fs := range out {
		sort.Strings(fs)
	}
	return out
}

// crateSources lists the crate's .rs files, crate-relative, leaving out
// target/, hidden folders and nested crates (folders with a Cargo.toml).
func crateSources(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (rel == "target" || strings.HasPrefix(d.Name(), ".") || fileExists(filepath.Join(p, "Cargo.toml"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".rs") {
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// docLinesAt returns which of lines (1-based) of a file may start a doc
// test: a comment line, an attribute or a code fence.
func docLinesAt(file string, lines map[int]bool) map[int]bool {
	at := map[int]bool{}
	f, err := os.Open(file)
	if err != nil {
		return at
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for i := 1; sc.Scan() && len(at) < len(lines); i++ {
		if !lines[i] {
			continue
		}
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "*") || strings.HasPrefix(l, "/*") ||
			strings.HasPrefix(l, "#") || strings.Contains(l, "```") || strings.Contains(l, "~~~") {
			at[i] = true
		}
	}
	return at
}

// dedupe returns list without repeats, in first-seen order.
func dedupe(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
