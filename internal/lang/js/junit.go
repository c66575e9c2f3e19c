package js

import (
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// fromJUnit names a testcase of a JavaScript JUnit report. Vitest's
// reporter writes the runner's own terms: the file as classname and the
// titles joined by " > " as name. jest-junit's defaults join the titles
// by " " in both classname and name, and write no file (its
// addFileAttribute does, as an absolute path); its {classname} and
// {title} templates split the describe titles from the test's. A listed
// test of the project whose titles read so (in that file, when written)
// is a candidate; several, in several files, leave the testcase unmapped
// for the caller to report.
func fromJUnit(c lang.JUnitCase, listed []testdex.Test) []lang.Reported {
	out := []lang.Reported{{Scope: c.Class, Name: c.Name}}
	file := strings.ReplaceAll(c.File, "\\", "/")
	for _, t := range listed {
		if t.Kind == testdex.KindSuite || t.Dynamic || file != "" && file != t.File && !strings.HasSuffix(file, "/"+t.File) {
			continue
		}
		flat := strings.ReplaceAll(t.Name, " > ", " ")
		if flat == strings.TrimSpace(c.Name) || flat == strings.TrimSpace(c.Class+" "+c.Name) {
			out = append(out, lang.Reported{Scope: t.Scope, Name: t.Name})
		}
	}
	return out
}
