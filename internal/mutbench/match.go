package mutbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/testdex/testdex/internal/fidelity"
)

// record is the part of a `testdex list --json` (or `affected --json`)
// record the benchmark reads.
type record struct {
	ID        string `json:"id"`
	Framework string `json:"framework"`
	Scope     string `json:"scope"`
	Name      string `json:"name"`
	Parent    string `json:"parent"`
	File      string `json:"file"`
}

func parseRecords(data []byte) ([]record, error) {
	var out []record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// listing is the unmutated project's `testdex list --json`: what a test
// the native runner reports is called in testdex's records, and which
// file declares it.
type listing struct {
	byID  map[string]record
	byKey map[fidelity.Key][]string
	files map[string]bool
	// scopeFiles are the test files of each Go package, for a failure go
	// test reports for the package alone (a build error, a panic in init).
	scopeFiles map[string][]string
}

func newListing(recs []record) *listing {
	l := &listing{byID: map[string]record{}, byKey: map[fidelity.Key][]string{}, files: map[string]bool{}, scopeFiles: map[string][]string{}}
	for _, r := range recs {
		l.byID[r.ID] = r
		k := fidelity.Key{Framework: r.Framework, Scope: r.Scope, Name: r.Name}
		l.byKey[k] = append(l.byKey[k], r.ID)
		if !l.files[r.File] {
			l.files[r.File] = true
			l.scopeFiles[r.Scope] = append(l.scopeFiles[r.Scope], r.File)
		}
	}
	return l
}

// resolve finds the records of the test the runner reports as k: the
// record with its scope and name, else its nearest ancestor's (a subtest
// or row named only at run time); without one, the files that can
// declare it (the file the runner names; for Go, every test file of the
// package).
// Exact says the records are the test's own, not an ancestor's.
func (l *listing) resolve(k fidelity.Key) (ids, files []string, exact bool) {
	for name := k.Name; name != ""; name = parentName(k.Framework, name) {
		if ids := l.byKey[fidelity.Key{Framework: k.Framework, Scope: k.Scope, Name: name}]; len(ids) > 0 {
			for _, id := range ids {
				files = append(files, l.byID[id].File)
			}
			return ids, files, name == k.Name
		}
	}
	if f := l.runnerFile(k); f != "" {
		return nil, []string{f}, false
	}
	if k.Framework == "go" {
		return nil, l.scopeFiles[k.Scope], false
	}
	return nil, nil, false
}

// parentName is the name of the test (or group) enclosing name in fw's
// terms, or "" at the top.
func parentName(fw, name string) string {
	cut := func(sep string) string {
		if i := strings.LastIndex(name, sep); i >= 0 {
			return name[:i]
		}
		return ""
	}
	switch fw {
	case "go":
		return cut("/")
	case "jest", "vitest", "mocha", "node":
		return cut(" > ")
	case "pytest":
		if strings.HasSuffix(name, "]") {
			if i := strings.Index(name, "["); i > 0 {
				return name[:i]
			}
		}
		return cut("::")
	case "unittest":
		return cut(".")
	case "junit": // a parameterized row: method(String)[1]
		if strings.HasSuffix(name, "]") {
			return cut("[")
		}
	}
	return ""
}

// runnerFile is the test file the runner's report names for k, when it
// names one the listing knows.
func (l *listing) runnerFile(k fidelity.Key) string {
	switch k.Framework {
	case "pytest":
		f, _, _ := strings.Cut(k.Name, "::")
		if l.files[f] {
			return f
		}
	case "unittest": // pkg.module.Class.method: the longest prefix that is a file
		for name := k.Name; name != ""; name = parentName("unittest", name) {
			if f := strings.ReplaceAll(name, ".", "/") + ".py"; l.files[f] {
				return f
			}
		}
	case "junit": // the class's file under src/test/java (an inner class's outer)
		class, _, _ := strings.Cut(k.Scope, "$")
		if f := "src/test/java/" + strings.ReplaceAll(class, ".", "/") + ".java"; l.files[f] {
			return f
		}
	case "go":
	default: // jest, vitest, mocha, node, cargo: the scope is the file
		if l.files[path.Clean(k.Scope)] {
			return path.Clean(k.Scope)
		}
	}
	return ""
}

// selection is what one `testdex affected` answered.
type selection struct {
	ids   map[string]bool
	files map[string]bool
	// above holds every ancestor of a selected record: running a subtest
	// runs its parents too.
	above map[string]bool
}

func newSelection(recs []record, l *listing) *selection {
	s := &selection{ids: map[string]bool{}, files: map[string]bool{}, above: map[string]bool{}}
	for _, r := range recs {
		s.ids[r.ID] = true
		s.files[r.File] = true
		for p := r.Parent; p != "" && !s.above[p]; p = l.byID[p].Parent {
			s.above[p] = true
		}
	}
	return s
}

// hasTest reports whether the test the runner reports as k is selected at
// test level: its record or an ancestor's is selected, or a descendant of
// its own record (which runs it: a Go parent's body runs for any of its
// subtests); a test no record names counts as selected when its files
// are.
func (s *selection) hasTest(l *listing, k fidelity.Key) bool {
	if k.Framework == "go" && k.Name == "" {
		return s.runsPackage(l, k.Scope)
	}
	ids, files, exact := l.resolve(k)
	if len(ids) == 0 {
		return s.hasFiles(files)
	}
	suffix := "" // the part of k's name below the listed ancestor it resolved to
	if !exact {
		for name := parentName(k.Framework, k.Name); name != ""; name = parentName(k.Framework, name) {
			if len(l.byKey[fidelity.Key{Framework: k.Framework, Scope: k.Scope, Name: name}]) > 0 {
				suffix = k.Name[len(name):]
				break
			}
		}
	}
	for _, id := range ids {
		if exact && s.above[id] {
			return true
		}
		// A selection may name the runner's row itself, one the listing
		// does not hold (covering answers with the IDs the runner
		// reported): its ID extends the ancestor's as its name does.
		if suffix != "" && s.ids[id+suffix] {
			return true
		}
		for p := id; p != ""; p = l.byID[p].Parent {
			if s.ids[p] {
				return true
			}
		}
	}
	return false
}

// hasFile reports whether k's test file is selected.
func (s *selection) hasFile(l *listing, k fidelity.Key) bool {
	if k.Framework == "go" && k.Name == "" {
		return s.runsPackage(l, k.Scope)
	}
	_, files, _ := l.resolve(k)
	return s.hasFiles(files)
}

// runsPackage reports whether the selection runs Go package pkg's test
// binary: one of its test files has a selected record. A package that
// fails with none of its tests failing (newlyFailing drops the package's
// own failure beside a failing test) failed before or around its tests:
// it did not build, go test's vet step failed (a mutant `x == a || x ==
// b` → `&&` compiles and vet's bools check refuses it), or init or
// TestMain failed; any run of the package's binary shows that, whichever
// of its tests are selected. (A panic while a test runs is that test's
// failure, in go test -json's report.)
func (s *selection) runsPackage(l *listing, pkg string) bool {
	for _, f := range l.scopeFiles[pkg] {
		if s.files[f] {
			return true
		}
	}
	return false
}

func (s *selection) hasFiles(files []string) bool {
	for _, f := range files {
		if !s.files[f] {
			return false
		}
	}
	return len(files) > 0
}
