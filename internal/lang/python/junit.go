package python

import (
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// fromJUnit names a testcase of pytest's --junitxml report by its node
// ID: the classname is the module's dotted path then its classes
// ("tests.test_m.TestC"), the name the test's with its row ID. Where the
// module ends is not written (xunit1's file attribute says it; xunit2,
// the default, does not), so each split is a candidate, tried against the
// listing. A unittest test's dotted name (classname and name joined by
// ".") is one more.
func fromJUnit(c lang.JUnitCase, _ []testdex.Test) []lang.Reported {
	if c.Class == "" || c.Name == "" {
		return nil
	}
	parts := strings.Split(c.Class, ".")
	file := strings.ReplaceAll(c.File, "\\", "/")
	var out []lang.Reported
	for k := len(parts); k >= 1; k-- {
		mod := strings.Join(parts[:k], "/") + ".py"
		if file != "" && file != mod {
			continue
		}
		node := append([]string{mod}, parts[k:]...)
		out = append(out, lang.Reported{Name: strings.Join(append(node, c.Name), "::"), File: mod})
	}
	if file == "" {
		out = append(out, lang.Reported{Name: c.Class + "." + c.Name})
	}
	return out
}
