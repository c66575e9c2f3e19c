package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
)

// writeTree prints the human view: a header line per file naming its
// framework and scope, the tests indented under their parents, markers for
// the unusual, and a count line.
//
//	pkg/foo_test.go  go example.com/m/pkg
//	  TestFoo  :12
//	    case_1  :15
//	    {tc.name}  :18  dynamic
func writeTree(w io.Writer, tests []testdex.Test) {
	depth := map[string]int{}
	names := map[string]string{}
	file := ""
	var c counts
	for _, t := range tests {
		if t.File != file {
			file = t.File
			c.files++
			fmt.Fprintf(w, "%s  %s%s\n", t.File, t.Framework, scopeSuffix(t))
		}
		d := 1
		label := t.Name
		if pd, ok := depth[t.Parent]; ok && t.Parent != "" {
			d = pd + 1
			label = strings.TrimPrefix(t.Name, names[t.Parent]+"/")
		}
		depth[t.ID], names[t.ID] = d, t.Name
		if t.Kind == testdex.KindSpec {
			c.count(t)
			if len(t.Tags) > 0 {
				fmt.Fprintf(w, "  [%s]\n", strings.Join(t.Tags, ", "))
			}
			continue
		}
		fmt.Fprintf(w, "%s%s  :%d%s\n", strings.Repeat("  ", d), label, t.Line, marks(t))
		c.count(t)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, c.String())
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
	case testdex.KindBenchmark, testdex.KindFuzz, testdex.KindExample:
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
	if len(t.Tags) > 0 {
		m = append(m, "["+strings.Join(t.Tags, ", ")+"]")
	}
	if len(m) == 0 {
		return ""
	}
	return "  " + strings.Join(m, " ")
}

type counts struct{ top, sub, dynamic, skipped, files int }

func (c *counts) count(t testdex.Test) {
	if t.Parent == "" {
		c.top++
	} else {
		c.sub++
	}
	if t.Dynamic {
		c.dynamic++
	}
	if t.Skip {
		c.skipped++
	}
}

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
	return s + " in " + plural(c.files, "file")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
