package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/languages"
	"github.com/testdex/testdex/internal/report"
)

// writeTree prints the human view: a header line per file naming its
// framework and scope, the tests indented under their parents, markers for
// the unusual, and a count line. What a terminal would act on (ESC, C0
// and C1 controls, bidirectional marks) is shown escaped (report.Escape);
// --json holds the exact bytes.
//
//	pkg/foo_test.go  go example.com/m/pkg
//	  TestFoo  :12
//	    case_1  :15
//	    {tc.name}  :18  dynamic
func writeTree(w io.Writer, tests []testdex.Test) {
	// nodes holds what the records seen tell their children: those of the
	// current file only when fileLocal holds (a small map, in cache).
	nodes := map[string]treeNode{}
	local := fileLocal(tests)
	var line []byte // one test's line, built without fmt (GOROOT prints 35,000)
	file := ""
	c := counts{specFiles: map[string]bool{}}
	for _, t := range tests {
		if t.Kind == testdex.KindSpec && t.Parent != "" {
			c.specFiles[t.Parent] = true // its scenarios are its tests
		}
	}
	for _, t := range tests {
		if t.File != file {
			file = t.File
			c.files++
			if local && len(nodes) > 1024 {
				nodes = map[string]treeNode{}
			} else if local {
				clear(nodes)
			}
			fmt.Fprintf(w, "%s  %s%s\n", report.Escape(t.File), t.Framework, report.Escape(scopeSuffix(t)))
		}
		key := lang.IDKey(t)
		d, label := 1, key
		if p, ok := nodes[t.Parent]; ok && t.Parent != "" {
			d = p.depth + 1
			label = lang.ChildLabel(key, p.key, languages.Framework(t.Framework).Labels)
		}
		nodes[t.ID] = treeNode{depth: d, key: key}
		c.count(t)
		if t.Kind == testdex.KindSpec && t.Parent == "" {
			nodes[t.ID] = treeNode{depth: 0, key: key} // its header line stands for it: its scenarios sit at the first level
			if len(t.Tags) > 0 {
				fmt.Fprintf(w, "  [%s]\n", report.Escape(strings.Join(t.Tags, ", ")))
			}
			continue
		}
		line = line[:0]
		for range d {
			line = append(line, "  "...)
		}
		line = append(append(line, report.Escape(label)...), "  :"...)
		line = strconv.AppendInt(line, int64(t.Line), 10)
		line = append(append(line, report.Escape(marks(t))...), '\n')
		w.Write(line)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, c.String())
}

// fileLocal reports whether each record's parent can only be a record of
// its own file listed before it: the records are in path order (so each
// file's are together), every parent ID is the file's or begins with the
// file and "::", and no path holds "::" (so no other file's ID can be the
// same). A listing's records are so; `list --exact` appends the runtime's
// own after them.
func fileLocal(tests []testdex.Test) bool {
	file := ""
	for i := range tests {
		t := &tests[i]
		if t.File != file || i == 0 {
			if i > 0 && t.File < file || strings.Contains(t.File, testdex.IDSep) {
				return false
			}
			file = t.File
		}
		if p := t.Parent; p != "" && p != file && !(strings.HasPrefix(p, file) && strings.HasPrefix(p[len(file):], testdex.IDSep)) {
			return false
		}
	}
	return true
}

// treeNode is what writeTree keeps of a record for its children: its
// depth and its key (lang.IDKey).
type treeNode struct {
	depth int
	key   string
}

func scopeSuffix(t testdex.Test) string {
	if t.Scope == "" {
		return ""
	}
	return " " + t.Scope
}

func marks(t testdex.Test) string {
	var m []string
	switch t.Kind {
	case testdex.KindBenchmark, testdex.KindFuzz, testdex.KindExample, testdex.KindDoctest:
		m = append(m, string(t.Kind))
	}
	if t.Dynamic {
		m = append(m, "dynamic")
	}
	if t.Skip {
		m = append(m, "skip")
	}
	if len(t.Seen) == 1 && t.Seen[0] == "runtime" {
		m = append(m, "runtime-only")
	} else if len(t.Seen) == 2 {
		m = append(m, "confirmed")
	}
	if len(t.Tags) > 0 && t.Kind != testdex.KindSpec { // a scenario's are its file's, shown under its header
		m = append(m, "["+strings.Join(t.Tags, ", ")+"]")
	}
	if len(m) == 0 {
		return ""
	}
	return "  " + strings.Join(m, " ")
}

type counts struct {
	top, sub, suites, dynamic, skipped, files int
	suiteIDs                                  map[string]bool
	// specFiles are the spec files with scenarios: the scenarios count
	// as tests, not the file.
	specFiles map[string]bool
}

func (c *counts) count(t testdex.Test) {
	switch {
	case t.Kind == testdex.KindSpec && t.Parent != "":
		c.top++
	case c.specFiles[t.ID]:
	case t.Kind == testdex.KindSuite:
		c.suites++
		if c.suiteIDs == nil {
			c.suiteIDs = map[string]bool{}
		}
		c.suiteIDs[t.ID] = true
	case t.Parent == "" || c.parentIsSuite(t):
		c.top++
	default:
		c.sub++
	}
	if t.Dynamic {
		c.dynamic++
	}
	if t.Skip {
		c.skipped++
	}
}

// parentIsSuite reports whether t's parent is a suite, which makes t a
// test in its own right rather than a subtest.
func (c *counts) parentIsSuite(t testdex.Test) bool { return c.suiteIDs[t.Parent] }

func (c counts) String() string {
	s := plural(c.top, "test")
	if c.sub > 0 {
		s += ", " + plural(c.sub, "subtest")
		if c.dynamic > 0 {
			s += " (" + strconv.Itoa(c.dynamic) + " dynamic)"
		}
	}
	if c.skipped > 0 {
		s += ", " + strconv.Itoa(c.skipped) + " skipped"
	}
	if c.suites > 0 {
		s += ", " + plural(c.suites, "suite")
	}
	return s + " in " + plural(c.files, "file")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
